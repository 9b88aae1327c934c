"""Every page at a phone's 375 px, reached from the links in real emails: nothing scrolls
sideways, and a screenshot of each is saved with the test results."""
from __future__ import annotations

import random
import re

import pytest

from pbem.play import creation
from pbem.log import store
from tests.e2e.conftest import PHONE, assert_no_sideways_scroll, screenshot
from tests.conftest import play_at_random

TURN = re.compile(r"http://127\.0\.0\.1:\d+/turn/[A-Za-z0-9_.\-]+")
HOST = re.compile(r"http://127\.0\.0\.1:\d+/host/[A-Za-z0-9_.\-]+")
REPLAY = re.compile(r"http://127\.0\.0\.1:\d+/(?:replay/[A-Za-z0-9_.\-]+|games/\d+/replay)")


def found(smtp, address, pattern):
    return [m for msg in smtp.inbox.to(address) for m in pattern.findall(smtp.inbox.text(msg))]


def players(prefix, languages=("en", "hu")):
    return [{"name": name, "email": f"{prefix}-{name.lower()}@example.org", "language": lang}
            for name, lang in zip(("Ann", "Bob"), languages)]




def visit(phone, url, name):
    answer = phone.goto(url)
    assert answer is not None and answer.status < 500, (url, answer and answer.status)
    assert_no_sideways_scroll(phone)
    screenshot(phone, f"page-{name}")
    return answer


@pytest.fixture
def console_errors(phone):
    """The errors the page logs from now to the end of the test (then the listener goes: the
    page goes on to other tests)."""
    errors = []

    def log(message):
        if message.type == "error":
            errors.append(f"{phone.url}: {message.text}")
    phone.on("console", log)
    yield errors
    phone.remove_listener("console", log)


def test_no_page_scrolls_sideways_on_a_phone(live, smtp, phone, duel, console_errors):
    refused = console_errors    # among them what the Content-Security-Policy blocked
    games = {}
    for rules_name, moves in (("tigris", 25), ("tigris_cards", 30), ("assyria", 40)):
        game, _ = creation.create_game(rules_name, players(rules_name), seed=4,
                                    host_email=f"{rules_name}-host@example.org")
        games[rules_name] = play_at_random(game, moves, random.Random(rules_name))
    finished, _ = creation.create_game("duel", players("duel"), seed=3)
    finished = play_at_random(finished, 40, random.Random(3))
    assert finished.status == "over"
    live.deliver()

    for path, name in (("/", "index"), ("/new", "new"), ("/games", "archive"),
                       ("/new?lang=hu", "new-hu"), ("/?lang=en", "index-again")):
        visit(phone, live.url + path, name)
    visit(phone, f"{live.url}/turn/not-a-real-link", "link-error")
    assert "not valid" in phone.content()
    for rules_name, game in games.items():
        visit(phone, f"{live.url}/games/{game.id}", f"game-{rules_name}")
        visit(phone, found(smtp, f"{rules_name}-host@example.org", HOST)[-1], f"host-{rules_name}")
        seat = store.rules_of(game).to_act(store.state_of(game))[0]
        who = players(rules_name)[seat]
        turn = found(smtp, who["email"], TURN)[-1]
        visit(phone, turn, f"turn-{rules_name}-{who['language']}")
        # the same page in the other language, and the replay from the turn email
        visit(phone, turn + "?lang=" + ("en" if who["language"] == "hu" else "hu"),
              f"turn-{rules_name}-switched")
        visit(phone, found(smtp, who["email"], REPLAY)[-1] + "?step=3", f"replay-{rules_name}")
        visit(phone, f"{live.url}/games/{game.id}/replay?step={game.seq}",
              f"replay-{rules_name}-spectator")
    visit(phone, f"{live.url}/games/{finished.id}", "game-finished")
    assert "Final ranking" in phone.content() and phone.locator("figure.chart svg").count() == 1
    visit(phone, f"{live.url}/games/{finished.id}/replay?step=2", "replay-finished")
    visit(phone, f"{live.url}/games?lang=hu", "archive-hu")
    assert "Befejezett játékok" in phone.content()
    visit(phone, f"{live.url}/games/999", "not-found")
    blocked = [line for line in refused if "Content Security Policy" in line]
    assert not blocked, "\n".join(blocked[:10])


def test_emails_read_on_a_phone(live, smtp, phone, duel):
    """The turn emails with their board pictures, and the game-over email, as a phone shows
    them (their HTML part, loaded as a page)."""
    for rules_name, moves in (("tigris", 6), ("tigris_cards", 6), ("assyria", 12)):
        game, _ = creation.create_game(rules_name, players(f"mail-{rules_name}"), seed=4)
        play_at_random(game, moves, random.Random(rules_name))
    finished, _ = creation.create_game("duel", players("mail-duel"), seed=3)
    play_at_random(finished, 40, random.Random(3))
    live.deliver()
    shown = 0
    for message in smtp.inbox.messages:
        kind = message["Message-ID"].split(".")[2]
        if kind not in ("turn", "over"):
            continue
        html = message.get_body(preferencelist=("html",)).get_content()
        assert "<svg" not in html and "http" not in html.replace(live.url, "")
        phone.set_content(html)
        name = f"email-{message['To'].split('@')[0]}-{kind}"
        screenshot(phone, name)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{name} is {width}px wide"
        shown += 1
    assert shown >= 6
