"""Assyria's turn pages: every legal action can be tapped, and a phone plays the first turn
(start hex, draft, farming column, huts, feeding) from the links in the emails."""
from __future__ import annotations

import random
import re

import pytest
from flask import render_template

from pbem.play import moves as playing
from pbem.play import creation
from pbem.games.assyria import rules
from pbem.games.base import speaking
from pbem.present import choices as make_choices, presenter_for

@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """Templates need an app, not a database: one SQLite app for the whole module."""
    from tests.conftest import make_app
    app = make_app(f"sqlite:///{tmp_path_factory.mktemp('assyria') / 'pages.db'}", 1)
    yield app
    from pbem.db.models import db
    if not db.is_closed():
        db.close()


TAP = re.compile(r'data-tap="([^"]+)"')
PAGES = ("board_template", "public_template", "holdings_template")


def rendered(app, view, seat, choices, language="en"):
    """The game's part of the turn page: board, public facts and holdings."""
    presenter = presenter_for("assyria")
    names = [f"P{i}" for i in range(view["players"])]
    with app.test_request_context(f"/?lang={language}"), speaking(language):
        return "".join(render_template(getattr(presenter, part), view=view, seat=seat,
                                       choices=choices, names=names, presenter=presenter,
                                       payload={}, game=None)
                       for part in PAGES)


def positions(players, seed, every=1):
    """(state, seat) of a random game to its end, every `every`-th decision."""
    state = rules.setup(players, seed)
    rng = random.Random(seed)
    step = 0
    while rules.to_act(state):
        seat = rules.to_act(state)[0]
        if step % every == 0:
            yield state, seat
        state = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
        step += 1
    yield state, None


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (4, 8)])
def test_every_legal_action_has_its_own_taps_on_the_page(app, players, seed):
    presenter = presenter_for("assyria")
    kinds = set()
    for state, seat in positions(players, seed, every=2):
        if seat is None:
            break
        view = rules.view(state, seat)
        actions = rules.legal_actions(state, seat)
        choices = make_choices(presenter, actions, view, lambda a: a["type"])
        page = set(TAP.findall(rendered(app, view, seat, choices)))
        taps = [tuple(c["taps"]) for c in choices]
        assert len(set(taps)) == len(taps), f"two actions share their taps: {actions}"
        for action, tap in zip(actions, taps):
            kinds.add(action["type"])
            if action["type"] in ("end_wells", "end_actions"):
                assert tap == (), action
                continue
            assert tap, f"{action} would be a button"
            missing = [t for t in tap if t not in page]
            assert not missing, f"{action}: {missing} are not on the page"
    assert {"start", "draft", "column", "hut", "feed", "end_actions"} <= kinds


def test_spectators_and_finished_games_render_without_choices(app):
    for state, seat in positions(3, 5, every=40):
        for language in ("en", "hu"):
            html = rendered(app, rules.view(state, None), None, [], language)
            assert "<svg" in html and "tappable" not in html


def test_the_page_speaks_hungarian(app):
    state = rules.setup(2, 3)
    seat = state["active"]
    with speaking("hu"):
        view = rules.view(state, seat)
        line = rules.describe(state, seat, {"type": "start", "hex": [1, 0]})
    assert view["prompt"] == "Válassz kezdő mezőt a ziggurat alapodnak"
    assert line.endswith("kezdő mezőre: 1,0 (árpa, a folyókon kívül).")
    html = rendered(app, view, seat, [], "hu")
    assert "Legmagasabb méltóság" in html and "Áldozat az isteneknek" in html
    assert "Offerings to the gods" not in html


def labels(app, language, players=3, seed=4, every=1):
    """Per position: (action, label, is a button) for every legal action, in `language`."""
    presenter = presenter_for("assyria")
    out = []
    with app.test_request_context(f"/?lang={language}"), speaking(language):
        for state, seat in positions(players, seed, every=every):
            if seat is None:
                break
            view = rules.view(state, seat)
            out.append([(a, presenter.label(a, view), not presenter.taps(a, view))
                        for a in rules.legal_actions(state, seat)])
    return out


def test_labels_are_instructions_and_exist_in_hungarian(app):
    english, hungarian = labels(app, "en"), labels(app, "hu")
    kinds, buttons = set(), set()
    for page_en, page_hu in zip(english, hungarian):
        for (action, en, button), (_, hu, _) in zip(page_en, page_hu):
            kinds.add(action["type"])
            assert en and hu, action                     # never the log line's fallback
            assert not en.endswith(".") and not hu.endswith("."), (en, hu)
            assert "{p" not in en and "{p" not in hu and not re.match(r"P\d", en), en
            assert en != hu, en
            if button:
                buttons.add(en)
        for page in (page_en, page_hu):
            shown = [label for _, label, _ in page]
            assert len(set(shown)) == len(shown), shown
    assert buttons == {"End your actions", "Build no more wells"}, buttons
    assert {"start", "draft", "column", "hut", "feed", "offering", "end_actions"} <= kinds


def test_the_hungarian_buttons(app):
    presenter = presenter_for("assyria")
    with app.test_request_context("/?lang=hu"), speaking("hu"):
        assert presenter.label({"type": "end_actions"}, {}) == "Fejezd be az akcióidat"
        assert presenter.label({"type": "end_wells"}, {}) == "Ne építs több kutat"
        assert presenter.label({"type": "offering", "camels": 2}, {}) == \
            "Áldozz 2 tevét az isteneknek"


# -- in a real browser, from the emails ------------------------------------------------------------

LINK = re.compile(r"http://127\.0\.0\.1:\d+/turn/[A-Za-z0-9_.\-]+")
PLAYERS = [{"name": "Ann", "email": "ann@example.org", "language": "en"},
           {"name": "Bea", "email": "bea@example.org", "language": "hu"}]


def emailed_link(smtp, address):
    found = [m for msg in smtp.inbox.to(address) for m in LINK.findall(smtp.inbox.text(msg))]
    assert found, f"no turn link was mailed to {address}"
    return found[-1]


def tap(page, selector):
    """Tap the first highlighted element matching `selector`; return its token."""
    element = page.locator(f"{selector}.tappable").first
    token = element.get_attribute("data-tap")
    element.click()
    assert page.locator(f'[data-tap="{token}"].chosen').count() >= 1
    return token


def confirm(page):
    assert page.locator("#confirm").is_visible()
    assert page.locator("#confirm-label").inner_text().strip()
    page.locator("#confirm-yes").click()
    page.wait_for_load_state()


def test_first_turn_played_by_tapping_from_the_emails(live, smtp, phone):
    from pbem.log import store
    from tests.e2e.conftest import assert_no_sideways_scroll, screenshot

    game, _ = creation.create_game("assyria", PLAYERS, seed=11)
    played, fed, shots = [], 0, 0
    feeder = None                       # the first player of the new turn order
    while True:
        game = store.get_game(game.id)
        state = store.state_of(game)
        phase, seat = state["phase"], state["active"]
        if feeder is not None and (seat != feeder or phase != "feed") and fed:
            break
        live.deliver()
        phone.goto(emailed_link(smtp, PLAYERS[seat]["email"]))
        assert PLAYERS[seat]["name"] in phone.content()
        assert_no_sideways_scroll(phone)
        screenshot(phone, f"assyria-{shots:02d}-{phase}-{PLAYERS[seat]['name']}")
        shots += 1
        if phase == "start":
            tap(phone, ".asy-map g.hex")
        elif phase == "draft":
            tap(phone, "[data-tap^='draft:']")
        elif phase == "harvest":
            tap(phone, ".asy-farming .column")
        elif phase == "huts":
            feeder = seat
            tap(phone, ".asy-map g.hex")
        elif phase == "feed":
            hut = tap(phone, ".asy-map g.hex")
            assert phone.locator(f'[data-tap="{hut}"] .hut.hungry').count() == 1
            tap(phone, ".asy-feed .fcard")
            fed += 1
        else:
            pytest.fail(f"unexpected phase {phase}")
        confirm(phone)
        assert "not allowed" not in phone.content()
        played.append(phase)
        assert store.get_game(game.id).seq > game.seq
    # the other decisions of the expansion straight into the store, then an action by tapping
    while state["phase"] != "actions":
        game = store.get_game(game.id)
        state = store.state_of(game)
        if state["phase"] != "actions":
            actions = store.rules_of(game).legal_actions(state, state["active"])
            playing.act(game.id, state["active"], actions[-1], game.seq)
    seat = state["active"]
    assert {"type": "offering", "camels": 1} in store.rules_of(game).legal_actions(state, seat)
    live.deliver()
    phone.goto(emailed_link(smtp, PLAYERS[seat]["email"]))
    screenshot(phone, f"assyria-{shots:02d}-actions-{PLAYERS[seat]['name']}")
    assert_no_sideways_scroll(phone)
    assert tap(phone, ".asy-public .offering .space") == "offer:1"
    confirm(phone)
    assert store.state_of(store.get_game(game.id))["offering"][seat] == 1
    phone.locator("button[data-choice*='end_actions']").click()
    confirm(phone)
    ended = (store.get_game(game.id).events.where(store.Event.seat == seat)
             .order_by(store.Event.seq))
    assert [e.action["type"] for e in ended][-2:] == ["offering", "end_actions"]

    live.deliver()
    mail = smtp.inbox.to(PLAYERS[1]["email"])[-1].get_body(preferencelist=("html",)).get_content()
    assert "Z1" in mail and "<svg" not in mail and "<img" not in mail
    phone.goto("about:blank")           # a fresh document: no page CSP over the mail's styles
    phone.set_content(mail)
    widths = phone.evaluate("[...document.querySelectorAll('table')].map(t => t.offsetWidth)")
    assert widths and max(widths) <= 360, widths          # the picture fits a phone's mail app
    screenshot(phone, "assyria-email-hu")
    for phase in ("start", "draft", "harvest", "huts", "feed"):
        assert phase in played, f"no {phase} decision was played in the browser: {played}"
    game = store.get_game(game.id)
    state = store.state_of(game)
    feedings = [e for e in game.events if e.seat == feeder and e.action.get("type") == "feed"]
    assert len(feedings) >= fed >= 1
    assert sum(s == feeder for s in state["huts"].values()) == len(feedings)   # the rest starved
