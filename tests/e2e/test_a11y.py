"""Screen readers and keyboards in a real browser: axe-core finds no serious or critical
violation on each game's turn page, before and after a piece is picked, nor on the home,
replay, host and new-game pages; and in each game a move is chosen and confirmed with the
keyboard alone (Tab into the board, arrows, Enter), the focus visible at every step."""
from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import DEFAULT_OPTIONS as AXE_OPTIONS, Axe

from pbem.db.models import Game
from pbem.log import store
from pbem.play import creation
from pbem.play import moves as playing

TURN = re.compile(r"http://127\.0\.0\.1:\d+/turn/[A-Za-z0-9_.\-]+")
HOST = re.compile(r"http://127\.0\.0\.1:\d+/host/[A-Za-z0-9_.\-]+")
HOME = re.compile(r"http://127\.0\.0\.1:\d+/me/[A-Za-z0-9_.\-]+")
REPLAY = re.compile(r"http://127\.0\.0\.1:\d+/replay/[A-Za-z0-9_.\-]+")
AXE = Axe()
# the piece each game's player picks first, and the board its places are on
PIECES = {"tigris": ".tg-tray [data-tap^='hand:']", "tigris_cards": ".tc-hand [data-tap]",
          "assyria": None}
BOARDS = {"tigris": "svg.tg-board", "tigris_cards": "svg.tc-board", "assyria": "svg.asy-map"}
# the focused element's ring: an outline or a box-shadow; on a board's SVG a dark stroke (the
# focus colour, 6 units wide) on the target or its cell (an Assyria hex is a group)
RING = """() => { const el = document.activeElement, s = getComputedStyle(el);
  const shape = el.querySelector && el.querySelector('.cell') || el, t = getComputedStyle(shape);
  return {tag: el.tagName, tap: el.getAttribute('data-tap'), id: el.id,
          outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2,
          shadow: s.boxShadow !== 'none',
          stroke: el instanceof SVGElement && t.stroke === 'rgb(20, 33, 61)' && parseFloat(t.strokeWidth) >= 4,
          name: el.getAttribute('aria-label') || el.textContent.trim()}; }"""


def serious(page) -> list[str]:
    """axe-core's serious and critical violations on the page: one line per rule, with how
    many elements break it and the first two. As `AXE.run` does, but axe-core is put into a
    document once: a run after a pick on the same page reuses it (its 570 kB are not sent
    again)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.axe_script)
    found = page.evaluate("options => axe.run(options)", AXE_OPTIONS)["violations"]
    return [f"{v['id']} ({v['impact']}, {len(v['nodes'])}): "
            + " | ".join(n["html"][:200] for n in v["nodes"][:2])
            for v in found if v["impact"] in ("serious", "critical")]


def found(smtp, address, pattern):
    return [m for msg in smtp.inbox.to(address) for m in pattern.findall(smtp.inbox.text(msg))]


def players(prefix, languages=("en", "hu")):
    return [{"name": name, "email": f"{prefix}-{name.lower()}@example.org", "language": lang}
            for name, lang in zip(("Ann", "Bob"), languages)]


def open_turn(live, smtp, phone, rules_name, seed=4, languages=("en", "hu")):
    """A new two-player game, and the turn page of the seat to act, from its email."""
    who = players(rules_name, languages)
    game, _ = creation.create_game(rules_name, who, seed=seed,
                                host_email=f"{rules_name}-host@example.org")
    live.deliver()
    seat = store.rules_of(game).to_act(store.state_of(game))[0]
    phone.goto(found(smtp, who[seat]["email"], TURN)[-1])
    return game, who[seat]


def names_of_tappable(phone) -> list[str]:
    return phone.locator("[data-tap].tappable").evaluate_all(
        "els => els.map(e => (e.getAttribute('aria-label') || e.textContent).trim())")


@pytest.mark.parametrize("language", ["en", "hu"])
@pytest.mark.parametrize("rules_name", sorted(BOARDS))
def test_axe_finds_nothing_serious_on_a_turn_page_before_and_after_a_pick(
        live, smtp, phone, rules_name, language):
    _game, who = open_turn(live, smtp, phone, rules_name, languages=(language, language))
    assert serious(phone) == []
    assert phone.locator(f"{BOARDS[rules_name]}[role=group][aria-label]").count() == 1
    before = names_of_tappable(phone)
    assert before and all(before), before
    if PIECES[rules_name]:
        piece = phone.locator(f"{PIECES[rules_name]}.tappable").first
        then = piece.get_attribute("data-then")
        piece.click()
        assert serious(phone) == []
        places = phone.locator(f"{BOARDS[rules_name]} [data-tap].tappable")
        assert places.count() > 0
        for name in places.evaluate_all("els => els.map(e => e.getAttribute('aria-label'))"):
            # "Place a temple on F7, river": the piece's words with the place's own name
            head = then.split("%s")[0]
            assert name.startswith(head) and len(name) > len(head), (name, then)
    # a place chosen: the confirm bar, announced
    phone.locator(f"{BOARDS[rules_name]} [data-tap].tappable").first.click()
    assert phone.locator("#confirm").is_visible()
    assert phone.locator("#tap-said").inner_text().strip()
    assert serious(phone) == []


def test_axe_finds_nothing_serious_on_the_home_replay_host_and_new_game_pages(live, smtp, phone):
    everyone = players("tigris")
    game, _ = creation.create_game("tigris", everyone, seed=4,
                                   host_email="tigris-host@example.org")
    # a first action, played through the server: the pages after it are what is checked
    rules, state = store.rules_of(game), store.state_of(game)
    seat = rules.to_act(state)[0]
    playing.act(game.id, seat, next(a for a in rules.legal_actions(state, seat)
                                    if a["type"] == "place_tile"), game.seq)
    who = everyone[seat]
    live.deliver()
    pages = {"new": live.url + "/new", "new-hu": live.url + "/new?lang=hu",
             "index": live.url + "/",
             "home": found(smtp, who["email"], HOME)[-1],
             "replay": found(smtp, who["email"], REPLAY)[-1] + "?step=0",
             "replay-later": found(smtp, who["email"], REPLAY)[-1] + "?step=1",
             "host": found(smtp, "tigris-host@example.org", HOST)[-1],
             "game": f"{live.url}/games/{game.id}", "archive": f"{live.url}/games",
             "ask-home": f"{live.url}/me", "link-error": f"{live.url}/turn/not-a-link",
             "done": found(smtp, who["email"], TURN)[0] + "/done",
             "turn-hu": found(smtp, who["email"], TURN)[-1] + "?lang=hu"}
    broken = {}
    for name, url in pages.items():
        phone.goto(url)
        if serious(phone):
            broken[name] = serious(phone)
    assert broken == {}


def press_until(phone, key: str, test: str, limit: int = 80) -> int:
    """Press `key` until the focused element passes the JS `test` (el => bool); how often."""
    for n in range(1, limit + 1):
        phone.keyboard.press(key)
        if phone.evaluate(f"(({test}))(document.activeElement)"):
            return n
    raise AssertionError(f"{key} x {limit} never reached {test}")


def ring(phone) -> dict:
    focus = phone.evaluate(RING)
    assert focus["outline"] or focus["shadow"] or focus["stroke"], f"no visible focus on {focus}"
    assert focus["name"], f"no name on {focus}"
    return focus


@pytest.mark.parametrize("rules_name", sorted(BOARDS))
def test_a_move_is_chosen_and_confirmed_with_the_keyboard_alone(live, smtp, phone, rules_name):
    game, _who = open_turn(live, smtp, phone, rules_name, languages=("en", "en"))
    seq = game.seq
    board = BOARDS[rules_name]
    in_board = f"el => !!el.closest('{board}')"
    if PIECES[rules_name]:
        press_until(phone, "Tab", f"el => el.matches(\"{PIECES[rules_name]}\")")
        piece = ring(phone)["tap"]
        phone.keyboard.press("Enter")
        focus = ring(phone)                            # focus stays on the piece picked
        assert focus["tap"] == piece
        assert phone.locator(f'[data-tap="{piece}"]').get_attribute("aria-pressed") == "true"
        # the board is one Tab stop away (back up the page: the pieces are under it)
        assert press_until(phone, "Shift+Tab", in_board, limit=3) <= 2
    else:
        press_until(phone, "Tab", in_board)
    # one Tab stop: every other place on the board is out of the Tab order
    assert phone.locator(f"{board} [data-tap][tabindex='0']").count() == 1
    first = ring(phone)
    moved = set()
    for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowDown"):
        phone.keyboard.press(key)
        now = ring(phone)
        assert phone.evaluate(f"(({in_board}))(document.activeElement)")
        moved.add(now["tap"])
    assert moved - {first["tap"]}, "the arrows moved nowhere"
    name = ring(phone)["name"]
    phone.keyboard.press("Enter")
    focus = ring(phone)
    assert focus["id"] == "confirm-yes"               # the confirm bar takes focus
    # the move is read out: the place's own words at once, the server's when they come
    phone.wait_for_function("document.getElementById('tap-said').textContent.includes("
                            "document.getElementById('confirm-label').textContent)")
    move = phone.locator("#confirm-label").inner_text()
    assert move.strip("…") and (move == name or move.split(" ")[0] == name.split(" ")[0]), (
        move, name)
    # Escape cancels, and focus goes back to the board or the piece
    phone.keyboard.press("Escape")
    assert not phone.locator("#confirm").is_visible()
    ring(phone)
    if PIECES[rules_name]:
        phone.keyboard.press("Enter")                 # the piece again
        press_until(phone, "Shift+Tab", in_board, limit=3)
    else:
        press_until(phone, "Tab", in_board, limit=3) if not phone.evaluate(
            f"(({in_board}))(document.activeElement)") else None
    phone.keyboard.press("ArrowRight")
    phone.keyboard.press("Enter")
    assert ring(phone)["id"] == "confirm-yes"
    with phone.expect_navigation():
        phone.keyboard.press("Enter")
    assert Game.get_by_id(game.id).seq > seq
    if rules_name == "tigris":                       # the second action: focus is back
        phone.wait_for_load_state()
        assert phone.evaluate("document.activeElement.matches('[data-tap]')")
        ring(phone)
