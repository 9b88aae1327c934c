"""The turn page around a move, in a real browser from the emailed link: after an action that
leaves the turn open the refreshed page says what it did; when the turn passes, the page shows
the board, the log and that the move is recorded. Without JavaScript, the same by plain forms."""
from __future__ import annotations

import re

from pbem.play import moves as playing
from pbem.play import creation
from pbem.log import store
from tests.e2e.conftest import PHONE, assert_no_sideways_scroll, screenshot

LINK = re.compile(r"http://127\.0\.0\.1:\d+/turn/[A-Za-z0-9_.\-]+")


def last_link(smtp, address):
    return [m for msg in smtp.inbox.to(address) for m in LINK.findall(smtp.inbox.text(msg))][-1]


def test_a_turn_of_two_actions_without_javascript(live, smtp, browser):
    game, _ = creation.create_game("tigris", [{"name": "Ann", "email": "flow-ann@example.org"},
                                           {"name": "Bob", "email": "flow-bob@example.org"}],
                                seed=12)
    live.deliver()
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    link = last_link(smtp, "flow-ann@example.org")
    page.goto(link)
    assert "Your turn: action 1 of 2" in page.locator(".who").inner_text()
    assert page.locator("#confirm").is_hidden()          # confirming is the script's step
    page.locator("details.all-actions summary").click()  # first what to play...
    assert page.locator("#action-list").count() == 0     # not one list of hundreds of moves
    page.locator("ul.picks a", has_text="Place a temple").click()
    page.wait_for_url(re.compile(r"\?pick=hand%3Ared"))
    options = page.locator("#action-list option")        # ...then where
    assert 1 < options.count() < 200
    label = options.nth(1).inner_text()
    assert label.startswith("Place a temple on ")
    page.select_option("#action-list", index=1)
    page.click("form.act.list button[type=submit]")
    page.wait_for_url(re.compile(r"\?done=1$"))
    notice = page.locator(".notice").inner_text()
    square = label.rsplit(" ", 1)[1]
    assert "What your move did:" in notice and f"Ann placed a red tile (temple) on {square}" in notice
    assert "Your turn: action 2 of 2" in page.locator(".who").inner_text()
    assert_no_sideways_scroll(page)
    screenshot(page, "turn-flow-1-done-notice")
    page.locator("details.all-actions summary").click()
    page.locator("ul.picks a").first.click()
    page.wait_for_url(re.compile(r"\?pick="))
    page.select_option("#action-list", index=0)
    with page.expect_navigation():
        page.click("form.act.list button[type=submit]")
    page.wait_for_load_state()
    assert "Your move is in" in page.locator(".notice").inner_text()
    assert page.locator("section.board svg").count() >= 1
    assert page.locator(".log li").count() >= 3
    assert page.locator("form.act").count() == 0 and "Waiting for: Bob" in page.content()
    screenshot(page, "turn-flow-2-recorded")
    context.close()
    assert store.get_game(game.id).seq >= 2


def test_the_log_highlights_what_happened_since_the_last_turn(live, smtp, phone):
    game, _ = creation.create_game("tigris", [{"name": "Ann", "email": "log-ann@example.org"},
                                           {"name": "Bob", "email": "log-bob@example.org"}],
                                seed=12)
    rules = store.rules_of(game)
    moves = 0
    while moves < 4 or rules.to_act(store.state_of(store.get_game(game.id))) != [0]:
        # Ann's two actions, then Bob's two (and his commitment in the revolt they start)
        game = store.get_game(game.id)
        state = store.state_of(game)
        seat = rules.to_act(state)[0]
        action = next(a for a in rules.legal_actions(state, seat)
                      if a["type"] not in ("pass", "standing"))
        playing.act(game.id, seat, action, game.seq)
        moves += 1
    live.deliver()
    phone.goto(last_link(smtp, "log-ann@example.org"))
    new = phone.locator(".log li.new")
    assert new.count() >= 2 and all("Bob" in t for t in new.all_inner_texts())
    assert all("Bob" not in t for t in phone.locator(".log li:not(.new)").all_inner_texts()
               if not t.startswith("The game"))
    assert_no_sideways_scroll(phone)


def test_undo_a_quiet_action_without_javascript(live, smtp, browser):
    """After the first action of a turn the page offers Undo (a plain form); it
    brings the turn back to its start, and then offers it no more."""
    game, _ = creation.create_game("tigris", [{"name": "Ann", "email": "undo-ann@example.org"},
                                           {"name": "Bob", "email": "undo-bob@example.org"}],
                                seed=12)
    live.deliver()
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.goto(last_link(smtp, "undo-ann@example.org"))
    assert page.locator("form.undo").count() == 0
    page.locator("details.all-actions summary").click()
    page.locator("ul.picks a", has_text="Place a temple").click()
    page.wait_for_url(re.compile(r"\?pick=hand%3Ared"))
    page.select_option("#action-list", index=1)
    page.click("form.act.list button[type=submit]")
    page.wait_for_url(re.compile(r"\?done=1$"))
    assert "Your turn: action 2 of 2" in page.locator(".who").inner_text()
    undo = page.locator("form.undo button")
    assert undo.inner_text() == "Undo my last action"
    assert_no_sideways_scroll(page)
    screenshot(page, "turn-flow-undo-offered")
    with page.expect_navigation():
        undo.click()
    assert "Your turn: action 1 of 2" in page.locator(".who").inner_text()
    assert page.locator("form.undo").count() == 0
    assert "Ann took back their last action." in page.locator(".log").inner_text()
    context.close()
    assert store.verify(store.get_game(game.id)) == []
