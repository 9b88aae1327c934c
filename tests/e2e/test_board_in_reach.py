"""The board in reach, on a 375 x 667 phone, from the links in the emails: every highlighted
square, hex, card and piece is at least 40 CSS px when it is to be tapped, the confirm bar sits
at the bottom of the screen with what was tapped still in view, and a wrong tap says why."""
from __future__ import annotations

import random
import re

import pytest

from playwright.sync_api import expect

from pbem.play import moves as playing
from pbem.play import creation
from pbem.log import store
from tests.conftest import play_at_random
from tests.e2e.conftest import PHONE, assert_no_sideways_scroll, screenshot

LINK = re.compile(r"http://127\.0\.0\.1:\d+/turn/[A-Za-z0-9_.\-]+")
PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"},
           {"name": "Cy", "email": "cy@example.org"}, {"name": "Di", "email": "di@example.org"}]
MIN = 40

# every highlighted element that is shown now, with its size and place on the screen
HIGHLIGHTED = """() => [...document.querySelectorAll('[data-tap].tappable')]
  .filter(el => el.checkVisibility())     // a closed <details> hides what it holds until opened
  .map(el => {
    const r = el.getBoundingClientRect();
    return {token: el.getAttribute('data-tap'), w: r.width, h: r.height, top: r.top,
            bottom: r.bottom, left: r.left, right: r.right};
  }).filter(r => r.w > 0 && r.h > 0)"""


def latest_link(smtp, address):
    found = [m for msg in smtp.inbox.to(address) for m in LINK.findall(smtp.inbox.text(msg))]
    assert found, f"no turn link was mailed to {address}"
    return found[-1]


def highlighted(page) -> list[dict]:
    return page.evaluate(HIGHLIGHTED)


def assert_big_enough(page, where: str) -> list[dict]:
    shown = highlighted(page)
    small = [(r["token"], round(r["w"]), round(r["h"])) for r in shown
             if r["w"] < MIN - 0.5 or r["h"] < MIN - 0.5]
    assert not small, f"{where}: highlighted elements smaller than {MIN} px: {small[:8]}"
    return shown


def sizes_while_choosing(page, where: str, firsts: int = 6) -> list[float]:
    """Measure the highlighted elements at the first tap, then after each of a few first taps
    (what the second tap can choose, the board enlarged or not); the smallest sides seen."""
    shown = assert_big_enough(page, where)
    seen = [min(r["w"], r["h"]) for r in shown]
    tokens = [r["token"] for r in shown]
    step = max(1, len(tokens) // firsts)
    for token in tokens[::step][:firsts]:
        target = page.locator(f'[data-tap="{token}"]')
        target.click()
        if page.locator("#confirm").is_visible():          # a one-tap action: confirm it?
            assert_in_view(page, [token])
        else:
            seen += [min(r["w"], r["h"]) for r in assert_big_enough(page, f"{where} after {token}")]
        page.locator(f'[data-tap="{token}"]').click()     # tapping it again undoes it
        if page.locator("#confirm-no").is_visible():
            page.locator("#confirm-no").click()
    return seen


# the confirm bar's place on the screen, then each tapped element's: [left, top, right, bottom]
PLACES = """tokens => [document.getElementById('tap-bar'),
                     ...tokens.map(t => document.querySelector(`[data-tap="${t}"]`))]
  .map(el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"""


def assert_in_view(page, tokens: list[str]) -> None:
    """The confirm bar is on screen, and so is each tapped element, above the bar."""
    bar, *boxes = page.evaluate(PLACES, tokens)          # one look: the bar and what was tapped
    assert page.locator("#confirm").is_visible()
    assert bar[1] >= 0 and bar[3] <= PHONE["height"] + 1, bar
    for token, box in zip(tokens, boxes):
        left, top, right, bottom = box
        assert top >= -1 and bottom <= bar[1] + 1, f"{token} is not above the bar: {box}, {bar}"
        assert left >= -1 and right <= PHONE["width"] + 1, f"{token} is off the screen: {box}"


def tap(page, token: str) -> None:
    target = page.locator(f'[data-tap="{token}"]')
    assert "tappable" in (target.get_attribute("class") or ""), f"{token} is not highlighted"
    target.click()


def confirm(page) -> None:
    with page.expect_navigation():
        page.locator("#confirm-yes").click()


def in_viewport(page, name: str) -> None:
    """A screenshot of what the phone shows now (not the whole page)."""
    screenshot(page, name, full_page=False)


# -- Tigris ------------------------------------------------------------------------------------

def test_tigris_squares_are_enlarged_to_tap_and_the_confirm_bar_keeps_them_in_view(live, smtp, phone):
    game, _ = creation.create_game("tigris", PLAYERS[:2], seed=2)
    live.deliver()
    phone.goto(latest_link(smtp, "ann@example.org"))
    screenshot(phone, "reach-tigris-1-turn")
    first = assert_big_enough(phone, "Tigris, first tap")
    assert {"hand:red", "leader:king"} <= {r["token"] for r in first}

    tap(phone, "hand:red")
    squares = [r for r in assert_big_enough(phone, "Tigris, a red tile chosen")
               if r["token"].startswith("sq:")]
    assert len(squares) > 100 and min(min(r["w"], r["h"]) for r in squares) >= 43
    in_viewport(phone, "reach-tigris-2-squares-enlarged")

    # a river square cannot take a temple: the bar says so, and the tile stays chosen
    phone.locator('[data-tap="sq:0-4"]').click()
    assert "cannot go there" in phone.locator("#tap-message").inner_text()
    assert "chosen" in phone.locator('[data-tap="hand:red"]').get_attribute("class")
    assert not phone.locator("#confirm").is_visible()

    tap(phone, "sq:5-7")
    assert_in_view(phone, ["sq:5-7"])
    assert phone.locator("svg .tap-preview").count() == 1      # the tile drawn on its square
    assert phone.locator("#confirm-preview .tg-red").count() == 1
    in_viewport(phone, "reach-tigris-3-confirm")
    # another square for the same tile: the choice moves there
    other = next(a["at"] for a in store.rules_of(game).legal_actions(
        store.state_of(store.get_game(game.id)), 0)
        if a["type"] == "place_tile" and a["colour"] == "red" and a["at"] != [5, 7])
    phone.locator(f'[data-tap="sq:{other[0]}-{other[1]}"]').click()
    assert phone.locator("#confirm").is_visible()
    # the words come from the server (/says), which plays the chosen move through
    expect(phone.locator("#confirm-label")).to_contain_text(
        "ABCDEFGHIJKLMNOP"[other[1]] + str(other[0] + 1))
    phone.locator('[data-tap="sq:5-7"]').click()
    expect(phone.locator("#confirm-label")).to_contain_text("H6")
    confirm(phone)
    assert "Your turn: action 2 of 2" in phone.content()
    assert_no_sideways_scroll(phone)


def test_tigris_a_tap_on_the_whole_board_enlarges_it_first(live, smtp, phone):
    creation.create_game("tigris", PLAYERS[:2], seed=2)
    live.deliver()
    phone.goto(latest_link(smtp, "ann@example.org"))
    tap(phone, "leader:king")
    assert phone.locator("#tg-zoom").is_checked()
    phone.locator("label[for=tg-zoom]").click()                   # the player wants it all
    assert not phone.locator("#tg-zoom").is_checked()
    small = phone.locator('[data-tap="sq:6-7"]').bounding_box()
    assert small["width"] < MIN
    phone.locator('[data-tap="sq:6-7"]').click()
    assert phone.locator("#tg-zoom").is_checked()                 # enlarged, nothing chosen yet
    assert not phone.locator("#confirm").is_visible()
    assert "larger" in phone.locator("#tap-message").inner_text()
    assert phone.locator('[data-tap="sq:6-7"]').bounding_box()["width"] >= MIN
    tap(phone, "sq:6-7")
    assert_in_view(phone, ["leader:king", "sq:6-7"][1:])
    expect(phone.locator("#confirm-label")).to_contain_text("H7")


def test_tigris_targets_later_in_a_game(live, smtp, phone):
    game, _ = creation.create_game("tigris", PLAYERS[:3], seed=5)
    game = play_at_random(game, 40, random.Random(5))
    live.deliver()
    state = store.state_of(store.get_game(game.id))
    seat = store.rules_of(game).to_act(state)[0]
    phone.goto(latest_link(smtp, PLAYERS[seat]["email"]))
    seen = sizes_while_choosing(phone, "Tigris after 40 moves")
    assert min(seen) >= MIN


# -- the card game -----------------------------------------------------------------------------

def test_card_game_cards_are_big_enough_and_hand_and_column_fit_one_screen(live, smtp, phone):
    game, _ = creation.create_game("tigris_cards", PLAYERS[:2], seed=4)   # seed 4: Ann begins
    assert store.state_of(game)["active"] == 0
    live.deliver()
    phone.goto(latest_link(smtp, "ann@example.org"))
    screenshot(phone, "reach-tigris_cards-turn")
    seen = sizes_while_choosing(phone, "card game, first turn")
    assert min(seen) >= MIN
    hand = phone.locator(".tc-hand [data-tap]").first.get_attribute("data-tap")
    tap(phone, hand)
    ends = [r["token"] for r in assert_big_enough(phone, "card game, a card chosen")]
    assert "col:0" in ends
    tap(phone, "col:3")
    assert_in_view(phone, [hand, "col:3"])
    in_viewport(phone, "reach-tigris_cards-confirm")
    confirm(phone)
    # later: leaders on the table are tapped on their whole card
    game = play_at_random(store.get_game(game.id), 30, random.Random(3))
    live.deliver()
    state = store.state_of(store.get_game(game.id))
    to_act = store.rules_of(game).to_act(state)
    if to_act:
        phone.goto(latest_link(smtp, PLAYERS[to_act[0]]["email"]))
        assert min(sizes_while_choosing(phone, "card game after 30 moves")) >= MIN


# -- Assyria -----------------------------------------------------------------------------------

def toward_wells(state, seat, actions, rng):
    """A random legal action, but one that builds wells: a well when it may, and each hut where
    it makes the most well sites (three hexes around a corner) all the player's own."""
    from pbem.games.assyria import engine as R
    from pbem.games.assyria.board import key
    wells = [a for a in actions if a["type"] == "well"]
    if wells:
        return wells[0]
    huts = [a for a in actions if a["type"] == "hut"]
    if not huts:
        return rng.choice(actions)
    sites = R.b(state).well_sites

    def owned(action):
        at = key(*action["hex"])
        return max([sum(state["huts"].get(h) == seat or h == at for h in site)
                    for site in sites if at in site] or [0])
    best = max(map(owned, huts))
    return rng.choice([a for a in huts if owned(a) == best])


ON_THE_MAP = ("build", "extend")
ASSYRIA_DECISIONS = {"start", "draft", "harvest", "huts", "feed", "wells",
                     "actions: a ziggurat on the map"}


def decision(state, actions) -> str:
    """The kind of decision: the phase; in the actions phase, whether a ziggurat is on the map."""
    if state["phase"] == "actions" and any(a["type"] in ON_THE_MAP for a in actions):
        return "actions: a ziggurat on the map"
    return state["phase"]


def tap_to_confirm(page, taps: list[str], name: str) -> bool:
    """From the whole map, tap an action's targets in turn, again when a tap only enlarged the
    map: the confirm bar and the last place tapped are then on screen together. Whether the
    map was enlarged by a tap."""
    if page.locator("#asy-zoom").is_checked():          # enlarged on arrival: the player
        page.locator("label[for=asy-zoom]").click()     # wants it all first
    enlarged = False
    for token in taps:
        target = page.locator(f'[data-tap="{token}"]').first     # a card: the one by the map
        target.click()
        if "larger" in page.locator("#tap-message").inner_text():
            enlarged = True
            assert page.locator("#asy-zoom").is_checked()
            assert not page.locator("#confirm").is_visible()
            in_viewport(page, f"{name}-enlarged")
            target.click()
    assert_in_view(page, taps[-1:])
    in_viewport(page, f"{name}-confirm")
    return enlarged


# the smallest board (its hexes drawn largest) and the largest one (the smallest hexes): the
# 3-player board lies between them
@pytest.mark.parametrize("players", [2, 4])
def test_assyria_every_decision_has_big_enough_targets(live, smtp, phone, players):
    """Each kind of decision, from the start hexes to wells and ziggurats: every highlighted
    target is at least 40 px when it is to be tapped (the map enlarging itself first), and the
    place tapped is on screen above the confirm bar."""
    from pbem.present import presenter_for
    presenter = presenter_for("assyria")
    game, _ = creation.create_game("assyria", PLAYERS[:players], seed=11)
    rng = random.Random(players)
    rules = store.rules_of(game)
    arrival, small = {}, {}
    for _ in range(150):
        game = store.get_game(game.id)
        state = store.state_of(game)
        waiting = rules.to_act(state)
        if not waiting or ASSYRIA_DECISIONS <= set(arrival):
            break
        seat = waiting[0]
        actions = rules.legal_actions(state, seat)
        kind = decision(state, actions)
        action = toward_wells(state, seat, actions, rng)
        if kind in arrival:
            playing.act(game.id, seat, action, game.seq)
            continue
        live.deliver()
        link = latest_link(smtp, PLAYERS[seat]["email"])
        phone.goto(link)
        if kind == "start":
            screenshot(phone, f"reach-assyria-{players}p-turn")
        shown = highlighted(phone)
        arrival[kind] = round(min(min(r["w"], r["h"]) for r in shown)) if shown else None
        try:
            sizes_while_choosing(phone, f"Assyria {players}p, {kind}")
        except AssertionError as e:
            small[kind] = str(e).splitlines()[0]
        # then play it on the phone, the tapped place on screen with the confirm bar
        if kind in ASSYRIA_DECISIONS - {"draft", "harvest"}:
            if kind.startswith("actions"):
                action = next(a for a in actions if a["type"] in ON_THE_MAP)
            phone.goto(link)
            taps = presenter.taps(action, rules.view(state, seat))
            enlarged = tap_to_confirm(phone, taps, f"reach-assyria-{players}p-{kind.split(':')[0]}")
            assert enlarged or kind != "wells"              # a well site is small on the whole map
            confirm(phone)
            assert store.get_game(game.id).seq > game.seq
        else:
            playing.act(game.id, seat, action, game.seq)
    print(f"Assyria, {players} players: the smallest target on arrival, in CSS px:", arrival)
    assert ASSYRIA_DECISIONS <= set(arrival), arrival
    assert not small, small


# -- the last moves of the others, on the board and in the mail ---------------------------------

RING = "border:2px solid #d81b60"


MIN_RING = 3            # CSS px: a last-move ring as drawn on a 375 px phone


def ring_width(ring) -> float:
    """The ring's stroke as drawn, in CSS px (its stroke width in board units times the board's
    scale, unless the stroke does not scale)."""
    return ring.evaluate("""el => {
        const style = getComputedStyle(el), width = parseFloat(style.strokeWidth);
        return style.vectorEffect === "non-scaling-stroke" ? width
            : width * el.ownerSVGElement.getScreenCTM().a; }""")


def play(game, seat, action):
    state = store.state_of(store.get_game(game.id))
    assert action in store.rules_of(game).legal_actions(state, seat), action
    playing.act(game.id, seat, action, store.get_game(game.id).seq)


def mail_html(smtp, address) -> str:
    return smtp.inbox.to(address)[-1].get_body(preferencelist=("html",)).get_content()


def show_mail(page, html: str, name: str) -> None:
    page.goto("about:blank")
    page.set_content(html)
    screenshot(page, name)


def test_tigris_last_moves_of_the_others_are_ringed(live, smtp, phone):
    game, _ = creation.create_game("tigris", PLAYERS[:2], seed=2)
    play(game, 0, {"type": "place_tile", "colour": "red", "at": [5, 7]})
    play(game, 0, {"type": "place_leader", "leader": "king", "at": [6, 7]})
    live.deliver()
    picture = mail_html(smtp, "bob@example.org")
    assert picture.count(RING) == 2 + 1                      # two squares and the key
    show_mail(phone, picture, "reach-tigris-mail-bob")
    phone.goto(latest_link(smtp, "bob@example.org"))
    rings = phone.locator("svg.tg-board .tg-last")
    assert rings.count() == 2
    # on the board where the tile and the king went: H6 and H7
    boxes = [phone.locator(f'[data-tap="{t}"]').bounding_box() for t in ("sq:5-7", "sq:6-7")]
    for i, box in enumerate(boxes):
        ring = rings.nth(i).bounding_box()
        assert abs(ring["x"] - box["x"]) < 3 and abs(ring["y"] - box["y"]) < 3, (ring, box)
    for i in range(2):                                      # plain to see on the whole board
        assert ring_width(rings.nth(i)) >= MIN_RING, ring_width(rings.nth(i))
    in_viewport(phone, "reach-tigris-last-moves-bob")
    phone.locator("label[for=tg-zoom]").click()             # and no heavier when enlarged
    assert MIN_RING <= ring_width(rings.first) <= 8, ring_width(rings.first)
    in_viewport(phone, "reach-tigris-last-moves-bob-larger")

    # Bob's moves ring on Ann's page; her own do not
    state = store.state_of(store.get_game(game.id))
    play(game, 1, next(a for a in store.rules_of(game).legal_actions(state, 1)
                       if a["type"] == "place_leader"))
    play(game, 1, {"type": "pass"})
    live.deliver()
    assert mail_html(smtp, "ann@example.org").count(RING) == 1 + 1
    phone.goto(latest_link(smtp, "ann@example.org"))
    assert phone.locator("svg.tg-board .tg-last").count() == 1


def test_card_game_last_moves_of_the_others_are_ringed(live, smtp, phone):
    game, _ = creation.create_game("tigris_cards", PLAYERS[:2], seed=4)   # seed 4: Ann begins
    rules = store.rules_of(game)
    state = store.state_of(game)
    card = next(a for a in rules.legal_actions(state, 0) if a["type"] == "card" and "column" in a)
    play(game, 0, card)
    state = store.state_of(store.get_game(game.id))
    leader = next(a for a in rules.legal_actions(state, 0) if a["type"] == "leader")
    play(game, 0, leader)
    live.deliver()
    to_act = rules.to_act(store.state_of(store.get_game(game.id)))
    assert to_act == [1], to_act
    picture = mail_html(smtp, "bob@example.org")
    assert picture.count(RING) == 2 + 1
    show_mail(phone, picture, "reach-tigris_cards-mail-bob")
    phone.goto(latest_link(smtp, "bob@example.org"))
    assert phone.locator("svg.tc-board .tc-last").count() == 2
    assert phone.locator(".tc-last-key").is_visible()
    in_viewport(phone, "reach-tigris_cards-last-moves-bob")


def test_assyria_last_moves_of_the_others_are_ringed(live, smtp, phone):
    game, _ = creation.create_game("assyria", PLAYERS[:2], seed=11)
    rules = store.rules_of(game)
    state = store.state_of(game)
    seat = state["active"]
    start = rules.legal_actions(state, seat)[0]
    assert start["type"] == "start"
    play(game, seat, start)
    live.deliver()
    other = 1 - seat
    picture = mail_html(smtp, PLAYERS[other]["email"])
    assert picture.count(RING) == 1 + 1
    show_mail(phone, picture, "reach-assyria-mail")
    phone.goto(latest_link(smtp, PLAYERS[other]["email"]))
    assert phone.locator("svg.asy-map .asy-last").count() == 1
    in_viewport(phone, "reach-assyria-last-moves")


def test_assyria_hexes_carry_the_coordinates_the_log_names(live, smtp, phone):
    game, _ = creation.create_game("assyria", PLAYERS[:3], seed=4)
    rules = store.rules_of(game)
    state = store.state_of(game)
    seat = state["active"]
    start = rules.legal_actions(state, seat)[0]
    play(game, seat, start)
    live.deliver()
    q, r = start["hex"]
    line = store.get_game(game.id).events.order_by(store.Event.seq.desc()).first().summary
    assert f"{q},{r} (" in line, line                    # the log names the hex "q,r"
    other = rules.to_act(store.state_of(store.get_game(game.id)))[0]
    picture = mail_html(smtp, PLAYERS[other]["email"])
    assert f">{q},{r}</span>" in picture                  # and so does the mail's map
    phone.goto(latest_link(smtp, PLAYERS[other]["email"]))
    label = phone.locator(f'[data-tap="hex:{q},{r}"] text.asy-xy')
    assert label.text_content() == f"{q},{r}" and label.is_visible()
    hexes = phone.locator("svg.asy-map g.hex")
    assert phone.locator("svg.asy-map text.asy-xy").count() == hexes.count() > 30
    box = label.bounding_box()
    assert box["height"] >= 6                             # readable on the phone
    in_viewport(phone, "reach-assyria-coordinates")


# -- every action of the card game reads as an instruction, in both languages -------------------

@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    from tests.conftest import make_app
    return make_app(f"sqlite:///{tmp_path_factory.mktemp('labels') / 'pages.db'}", 25)


def card_game_labels(pages, language):
    from pbem.games import RULES
    from pbem.present import presenter_for
    rules, presenter = RULES["tigris_cards"], presenter_for("tigris_cards")
    out = []
    from pbem.games.base import speaking
    with pages.test_request_context(f"/?lang={language}"), speaking(language):
        for seed in range(3):
            rng = random.Random(seed)
            state = rules.setup(2 + seed % 2, seed)
            for _ in range(160):
                waiting = rules.to_act(state)
                if not waiting:
                    break
                view = rules.view(state, waiting[0])
                actions = rules.legal_actions(state, waiting[0])
                out.append([(a["type"], presenter.label(a, view)) for a in actions])
                state = rules.apply(state, waiting[0], rng.choice(actions))
    return out


def test_card_game_actions_are_instructions_in_both_languages(pages):
    english, hungarian = card_game_labels(pages, "en"), card_game_labels(pages, "hu")
    kinds = set()
    for page_en, page_hu in zip(english, hungarian):
        for (kind, en), (_, hu) in zip(page_en, page_hu):
            kinds.add(kind)
            assert en and hu, kind                       # never the log line's fallback
            assert en != hu and "{p" not in en and "{p" not in hu, (en, hu)
            assert not en.endswith(".") and not re.search(r"\b(placed|played|took)\b", en), en
    assert {"card", "leader", "pass", "standing"} <= kinds, kinds
