"""No dead ends on a phone (375 x 667), from the emailed links: after the last action of a turn a
reload shows the move is in (never "already played", never a second post), the spent link's
"Replay the game as you saw it" and an older mail's replay link open the replay, and the replay's
way back leads to a page that works — the turn itself when the seat is to act on a live link."""
from __future__ import annotations

import re

from pbem.play import creation
from pbem.play import moves as playing
from pbem.log import store
from pbem.db.models import Event
from tests.e2e.conftest import assert_no_sideways_scroll, screenshot

TURN = re.compile(r"http://127\.0\.0\.1:\d+/turn/[A-Za-z0-9_.\-]+")
REPLAY = re.compile(r"http://127\.0\.0\.1:\d+/replay/[A-Za-z0-9_.\-]+")
PLAYERS = [{"name": "Ann", "email": "dead-ann@example.org"},
           {"name": "Bob", "email": "dead-bob@example.org"}]


def found(smtp, address, pattern):
    return [m for msg in smtp.inbox.to(address) for m in pattern.findall(smtp.inbox.text(msg))]


def play_by_list(page, index=0):
    """Choose an action from the full list and submit it (works with or without JavaScript)."""
    page.locator("details.all-actions summary").click()
    if page.locator("ul.picks a").count():               # hundreds of moves: first what...
        with page.expect_navigation():
            page.locator("ul.picks a").first.click()
    page.select_option("#action-list", index=index)      # ...then where
    with page.expect_navigation():
        page.click("form.act.list button[type=submit]")


def follow(page, selector):
    """Click a link and wait until the page it leads to has loaded: reading the page while the
    browser is still between the two would read an empty document."""
    with page.expect_navigation():
        page.click(selector)


def test_reload_replay_and_back_after_a_turn(live, smtp, phone):
    game, _ = creation.create_game("tigris", PLAYERS, seed=12)
    live.deliver()
    first = found(smtp, "dead-ann@example.org", TURN)[-1]
    phone.goto(first)
    play_by_list(phone, 1)                               # action 1 of 2: the turn stays open
    assert "Your turn: action 2 of 2" in phone.locator(".who").inner_text()
    play_by_list(phone, 0)                               # action 2: the turn passes to Bob
    assert phone.url.endswith("/done?done=1")           # what the turn did: both actions
    assert phone.locator("ul.done li").count() >= 2
    events = Event.select().where(Event.game == game).count()
    for _ in range(2):
        phone.reload()
        assert "Your move is in." in phone.locator("#seat-status").inner_text()
        assert "Waiting for: Bob." in phone.locator(".who").inner_text()
        assert phone.locator("section.board svg").count() >= 1
    assert Event.select().where(Event.game == game).count() == events   # nothing re-posted
    assert_no_sideways_scroll(phone)
    screenshot(phone, "dead-ends-move-is-in")

    phone.goto(first)                                    # the spent link itself
    assert "no longer works" in phone.content()
    follow(phone, "text=Replay the game as you saw it")
    assert "what you, Ann, saw" in phone.content()
    follow(phone, "#replay-back")
    assert "no longer works" not in phone.content()
    assert "Waiting for: Bob." in phone.locator(".who").inner_text()

    # Bob plays his turn (through the server: his pages are not what this test is about); Ann
    # is sent a newer link
    game = store.get_game(game.id)
    bob_passes = {"type": "pass"}
    assert bob_passes in store.rules_of(game).legal_actions(store.state_of(game), 1)
    playing.act(game.id, 1, bob_passes, game.seq)
    live.deliver()
    newest = found(smtp, "dead-ann@example.org", TURN)[-1]
    assert newest != first
    old_replay = found(smtp, "dead-ann@example.org", REPLAY)[0]     # the first mail's replay
    phone.goto(old_replay)
    assert "what you, Ann, saw" in phone.content()
    follow(phone, "#replay-back")                          # "Back to your turn" from an old link
    assert "A newer link was emailed to you" in phone.locator("#seat-status").inner_text()
    assert phone.locator("form.act").count() == 0
    assert phone.locator("text=Email me a fresh link").count() == 0   # it would answer 410
    screenshot(phone, "dead-ends-newer-link")
    phone.goto(first)                                    # the first link itself, Ann to act
    assert "A newer link was emailed to you on" in phone.locator("main").inner_text()
    assert phone.locator("text=Email me a fresh link").count() == 0
    screenshot(phone, "dead-ends-old-link")
    for way in ("#seat-page", "#home-link", "text=Replay the game as you saw it"):
        phone.goto(first)
        with phone.expect_navigation() as opened:
            phone.click(way)
        assert opened.value.status == 200, way          # every way out of the old link works
    phone.goto(found(smtp, "dead-ann@example.org", REPLAY)[-1])      # the newest mail's replay
    follow(phone, "#replay-back")
    assert phone.url == newest and "Your turn" in phone.locator(".who").inner_text()
