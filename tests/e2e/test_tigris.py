"""Tigris & Euphrates on a phone: the board drawn from the view, every action reachable by taps,
and turns played in a real browser from the links in the emails."""
from __future__ import annotations

import collections
import random
import re

import pytest
from flask import render_template_string
from playwright.sync_api import expect

from pbem.play import moves as playing
from pbem.play import creation
from pbem.log import store
from pbem.games import RULES
from pbem.games.base import speaking
from pbem import present
from pbem.present import presenter_for
from tests.conftest import make_app
from tests.e2e.conftest import assert_no_sideways_scroll, screenshot

RULES_T = RULES["tigris"]
TAP = re.compile(r'data-tap="([^"]+)"')
PAGE = ("{% include presenter.board_template %}{% include presenter.public_template %}"
        "{% include presenter.holdings_template %}")
EMAIL = "{% include presenter.email_template %}"
PREFERRED = ("place_tile", "place_leader", "build_monument", "commit", "choose_war",
             "take_treasures")


def positions(seeds=range(6), moves=320, every=9):
    """(state, seat to act) from seeded random games that favour building the board (and now
    and then destroy a square): every decision in a conflict, monument or treasure, and every
    `every`-th ordinary position."""
    for seed in seeds:
        rng = random.Random(seed)
        state = RULES_T.setup(2 + seed % 3, seed)
        for n in range(moves):
            waiting = RULES_T.to_act(state)
            if not waiting:
                break
            actions = RULES_T.legal_actions(state, waiting[0])
            if state["pending"] is not None or n % every == 0:
                yield state, waiting[0]
            preferred = [a for a in actions if a["type"] in PREFERRED] or actions
            if n % 40 == 39:                     # now and then a catastrophe, to draw one
                preferred = [a for a in actions if a["type"] == "place_catastrophe"] or preferred
            state = RULES_T.apply(state, waiting[0], rng.choice(preferred))


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """An app to render the game's templates with (no server, no mail)."""
    return make_app(f"sqlite:///{tmp_path_factory.mktemp('tigris') / 'pages.db'}", 25)


def render(view, seat, actions, template=PAGE):
    presenter = presenter_for("tigris")
    choices = present.choices(presenter, actions, view, lambda a: a["type"])
    names = [f"Player {i}" for i in range(len(view["players"]))]
    html = render_template_string(template, view=view, seat=seat, choices=choices,
                                  names=names, presenter=presenter, payload={})
    return html, choices


def assert_drawn(view, html):
    """Every piece of the view is on the board, as often as the view has it."""
    tiles = [t for t in view["tiles"] if not t["face_down"]]
    assert html.count('class="tg-tile"') == len(tiles)
    assert html.count('class="tg-down"') == len(view["tiles"]) - len(tiles)
    assert html.count('class="tg-monument"') == sum(1 for at in view["monuments"].values() if at)
    assert html.count('class="tg-catastrophe"') == len(view["catastrophes"])
    assert html.count('class="tg-treasure') == len(view["treasures"])
    assert html.count(" tg-framed") == sum(t["corner"] for t in view["treasures"])
    assert html.count('class="tg-leader ') == len(view["leaders"])
    assert html.count('class="tg-unification"') == (view["unification"] is not None)
    assert html.count('data-tap="sq:') + html.count('class="tg-own"') == 16 * 11


# -- every legal action can be tapped --------------------------------------------------------------

def test_every_action_has_its_own_taps_and_they_are_on_the_page(pages):
    seen = collections.Counter()
    with pages.test_request_context("/"):
        for state, seat in positions():
            view = RULES_T.view(state, seat)
            actions = RULES_T.legal_actions(state, seat)
            html, choices = render(view, seat, actions)
            assert_drawn(view, html)
            on_page = TAP.findall(html)
            assert len(on_page) == len(set(on_page)), "a token is drawn twice"
            on_page = set(on_page)
            by_taps = {}
            for action, choice in zip(actions, choices):
                seen[action["type"]] += 1
                taps = tuple(choice["taps"])
                assert set(taps) <= on_page, (action, set(taps) - on_page)
                if taps:
                    assert taps not in by_taps, (action, by_taps.get(taps))
                    by_taps[taps] = action
            # no sequence of taps stops short on another action's complete taps by mistake:
            # a complete sequence is never the proper prefix of a different action's taps,
            # except a swap, which may go on with more colours
            prefixes = {t[:k] for t in by_taps for k in range(1, len(t))}
            for taps, action in by_taps.items():
                assert action["type"] == "swap" or taps not in prefixes, action
    assert set(seen) == {"place_leader", "move_leader", "withdraw_leader", "place_tile",
                         "place_catastrophe", "swap", "pass", "commit", "choose_war",
                         "build_monument", "decline_monument", "take_treasures",
                         "standing"}, seen


def test_buttons_are_only_for_decisions_that_need_no_place(pages):
    with pages.test_request_context("/"):
        for state, seat in positions(seeds=range(3), moves=200):
            view = RULES_T.view(state, seat)
            for action in RULES_T.legal_actions(state, seat):
                taps = presenter_for("tigris").taps(action, view)
                tapped = action["type"] not in ("pass", "commit", "choose_war",
                                                "decline_monument", "take_treasures",
                                                "standing")
                assert bool(taps) == tapped, action


def button_labels(pages, language):
    """Per position: each button's action type and label, in `language`."""
    out = []
    with pages.test_request_context(f"/?lang={language}"), speaking(language):
        for state, seat in positions(seeds=range(4), moves=220):
            view = RULES_T.view(state, seat)
            presenter = presenter_for("tigris")
            out.append([(a["type"], presenter.label(a, view))
                        for a in RULES_T.legal_actions(state, seat) if not presenter.taps(a, view)])
    return out


def test_button_labels_are_instructions_and_exist_in_hungarian(pages):
    english, hungarian = button_labels(pages, "en"), button_labels(pages, "hu")
    kinds = set()
    for page_en, page_hu in zip(english, hungarian):
        for (kind, en), (_, hu) in zip(page_en, page_hu):
            kinds.add(kind)
            assert en and hu, kind                      # never the log line's fallback
            assert not en.endswith(".") and not hu.endswith("."), (en, hu)
            assert "{p" not in en and "Player" not in en, en
            assert en != hu, en                         # translated
        assert len({label for _, label in page_en}) == len(page_en), page_en
        assert len({label for _, label in page_hu}) == len(page_hu), page_hu
    assert kinds == {"pass", "commit", "choose_war", "decline_monument", "take_treasures",
                     "standing"}, kinds
    flat = {label for page in english for _, label in page}
    assert {"Commit 2 temples", "Commit no temples", "Build no monument"} <= flat, flat
    assert flat & {"Pass: end your turn without acting", "Pass: end your turn"}, flat


def test_the_swap_confirms_the_colours_it_gives_back(pages):
    presenter = presenter_for("tigris")
    action = {"type": "swap", "tiles": ["red", "black", "red"]}
    with pages.test_request_context("/?lang=en"), speaking("en"):
        assert presenter.label(action, {}) == "Swap 3 tiles: 2 red, 1 black"
    with pages.test_request_context("/?lang=hu"), speaking("hu"):
        assert presenter.label(action, {}) == "Cserélj le 3 lapkát: 2 piros, 1 fekete"


def test_spectators_and_waiting_seats_see_the_board_with_nothing_to_tap(pages):
    with pages.test_request_context("/"):
        for state, seat in list(positions(seeds=[3], moves=150, every=20)):
            for who in (None, (seat + 1) % state["players"]):
                view = RULES_T.view(state, who)
                html, choices = render(view, who, RULES_T.legal_actions(state, who)
                                       if who is not None else [])
                assert len(choices) == 0 and "<svg" in html
                assert "tg-tray" not in html if who is None else "tg-tray" in html
                assert 'viewBox="0 0 ' in html


def test_the_email_picture_is_a_table_of_coloured_cells(pages):
    state, seat = list(positions(seeds=[1], moves=120, every=40))[-1]
    view = RULES_T.view(state, seat)
    with pages.test_request_context("/"):
        html, _ = render(view, seat, [], EMAIL)
    assert "<svg" not in html and "<img" not in html and "http" not in html
    assert html.count("<tr>") == 12 and html.count("bgcolor=") == 16 * 11
    for tile in view["tiles"]:
        if not tile["face_down"]:
            assert {"red": "#cf3d2e", "blue": "#2f6fc4", "green": "#2f8a3e",
                    "black": "#33302c"}[tile["color"]] in html


# -- in the browser, from the emails ---------------------------------------------------------

LINK = re.compile(r"http://127\.0\.0\.1:\d+/turn/[A-Za-z0-9_.\-]+")
PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}]
SEED = 2        # Ann holds 2 red tiles, Bob 3: a revolt between them is a real choice for both


def links_for(smtp, address):
    return [m for msg in smtp.inbox.to(address) for m in LINK.findall(smtp.inbox.text(msg))]


def tap(page, *tokens):
    for token in tokens:
        page.locator(f'[data-tap="{token}"]').first.click()


def confirm(page):
    assert page.locator("#confirm").is_visible()
    with page.expect_navigation():
        page.locator("#confirm-yes").click()


def play_button(page, text):
    page.locator("button[data-choice]", has_text=text).first.click()
    confirm(page)


def legal(game, seat, action):
    state = store.state_of(store.get_game(game.id))
    assert action in RULES_T.legal_actions(state, seat), action
    return action


def test_place_a_leader_and_a_tile_by_tapping_and_the_turn_passes(live, smtp, phone):
    game, _ = creation.create_game("tigris", PLAYERS, seed=SEED)
    live.deliver()
    mail = smtp.inbox.to("ann@example.org")[-1]
    assert "Your turn" in smtp.inbox.headline(mail)
    picture = mail.get_body(preferencelist=("html",)).get_content()
    assert picture.count("bgcolor=") == 16 * 11 and "<svg" not in picture

    phone.goto(links_for(smtp, "ann@example.org")[-1])
    assert "Your turn: action 1 of 2" in phone.content()
    assert_no_sideways_scroll(phone)
    screenshot(phone, "tigris-1-ann-first-action")
    legal(game, 0, {"type": "place_leader", "leader": "king", "at": [6, 7]})
    tap(phone, "leader:king")
    assert "tappable" in phone.locator('[data-tap="sq:6-7"]').get_attribute("class")
    assert "tappable" not in (phone.locator('[data-tap="sq:6-8"]').get_attribute("class") or "")
    tap(phone, "sq:6-7")
    expect(phone.locator("#confirm-label")).to_have_text("Place your king on H7")
    expect(phone.locator("#confirm-says")).to_contain_text("Ann placed their king on H7")
    confirm(phone)

    assert "Your turn: action 2 of 2" in phone.content()
    assert phone.locator('[data-tap="leader:king"]').count() == 1      # now on the board
    assert_no_sideways_scroll(phone)
    screenshot(phone, "tigris-2-ann-second-action")
    legal(game, 0, {"type": "place_tile", "colour": "red", "at": [5, 7]})
    tap(phone, "hand:red", "sq:5-7")
    expect(phone.locator("#confirm-label")).to_have_text("Place a temple on H6")
    expect(phone.locator("#confirm-says")).to_contain_text("Ann scored 1 red point")
    confirm(phone)

    assert "Your move is in" in phone.content()
    assert "Ann placed a red tile (temple) on H6; Ann scored 1 red point." in phone.content()
    points = phone.locator(".holdings .tg-score .tg-pt")
    # each read with its colour's name (a screen reader said "1 0 0 0")
    assert [" ".join(points.nth(i).inner_text().split()) for i in range(4)] == [
        "red 1", "blue 0", "green 0", "black 0"]
    assert_no_sideways_scroll(phone)
    screenshot(phone, "tigris-3-ann-recorded")

    before = len(links_for(smtp, "bob@example.org"))
    live.deliver()
    assert len(links_for(smtp, "bob@example.org")) == before + 1
    phone.goto(links_for(smtp, "bob@example.org")[-1])
    assert "You are Bob" in phone.content() and "Your turn: action 1 of 2" in phone.content()
    assert phone.locator('svg [data-tap="sq:5-7"]').count() == 1
    assert_no_sideways_scroll(phone)
    screenshot(phone, "tigris-4-bob-turn")


def test_a_revolt_the_defender_answers_from_her_own_email_in_hungarian(live, smtp, phone):
    players = [dict(PLAYERS[0], language="hu"), PLAYERS[1]]
    game, _ = creation.create_game("tigris", players, seed=SEED)
    playing.act(game.id, 0, legal(game, 0, {"type": "place_leader", "leader": "priest",
                                             "at": [6, 7]}), 0)
    playing.act(game.id, 0, legal(game, 0, {"type": "pass"}), 1)
    live.deliver()

    phone.goto(links_for(smtp, "bob@example.org")[-1])
    legal(game, 1, {"type": "place_leader", "leader": "priest", "at": [6, 9]})
    tap(phone, "leader:priest", "sq:6-9")
    expect(phone.locator("#confirm-says")).to_contain_text("a revolt follows")
    confirm(phone)
    assert "Revolt: commit red temple tiles as the attacker" in phone.content()
    assert phone.locator("button[data-choice]").count() == 5    # 0 to 3 temples, standing
    assert_no_sideways_scroll(phone)
    screenshot(phone, "tigris-5-revolt-bob-attacks")
    play_button(phone, "Commit 3 temples")
    assert "Your move is in" in phone.content()

    live.deliver()
    mail = smtp.inbox.to("ann@example.org")[-1]                      # Ann reads Hungarian
    assert "Belső konfliktus: adj be piros lapkákat (templom) védekezőként" in smtp.inbox.headline(mail)
    assert ("Bob 3 piros lapkát adott be támadóként a belső konfliktusban"
            in smtp.inbox.text(mail))
    phone.goto(links_for(smtp, "ann@example.org")[-1])
    conflict = phone.locator(".tg-conflict").inner_text()
    assert "Támadó: Bob, erő: 1 + 3" in conflict and "Védekező: Ann, erő: 1" in conflict
    assert phone.locator("button[data-choice]").count() == 4    # 0 to 2 temples, standing
    assert_no_sideways_scroll(phone)
    screenshot(phone, "tigris-6-revolt-ann-defends-hu")
    play_button(phone, "Adj be 2 templomot")
    content = phone.content()
    assert "Bob 4:3 arányban megnyerte a belső konfliktust; Bob 1 piros győzelmi pontot kapott; " \
           "Ann papja visszakerült a tulajdonosához." in content
    assert_no_sideways_scroll(phone)
    screenshot(phone, "tigris-7-revolt-decided")

    state = store.state_of(store.get_game(game.id))
    assert state["leaders"][0]["red"] is None and state["points"][1]["red"] == 1
    live.deliver()
    phone.goto(links_for(smtp, "bob@example.org")[-1])
    assert "Your turn: action 2 of 2" in phone.content()


def test_swapping_tiles_opens_the_counts_and_asks_to_confirm(live, smtp, phone):
    creation.create_game("tigris", PLAYERS, seed=SEED)
    live.deliver()
    phone.goto(links_for(smtp, "ann@example.org")[-1])
    counts = phone.locator(".tg-swap-counts")
    assert not counts.is_visible()
    tap(phone, "swap")
    assert counts.is_visible()
    tap(phone, "swap:red:2")
    expect(phone.locator("#confirm-label")).to_have_text("Swap 2 tiles: 2 red")
    tap(phone, "swap:black:1")
    expect(phone.locator("#confirm-label")).to_have_text("Swap 3 tiles: 2 red, 1 black")
    assert "chosen" in phone.locator('[data-tap="swap:red:2"]').get_attribute("class")
    assert_no_sideways_scroll(phone)
    screenshot(phone, "tigris-8-swap")
    phone.locator("#confirm-no").click()
    assert not counts.is_visible()
