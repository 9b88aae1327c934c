"""The generic turn page in a real browser: a Duel played from emailed links, by tapping."""
from __future__ import annotations

import re

from pbem.play import creation
from pbem.log import store
from tests.e2e.conftest import assert_no_sideways_scroll, screenshot

LINK = re.compile(r"http://127\.0\.0\.1:\d+/turn/[A-Za-z0-9_.\-]+")


def last_link(smtp, address):
    found = [m for msg in smtp.inbox.to(address) for m in LINK.findall(smtp.inbox.text(msg))]
    return found[-1]


def test_duel_turn_from_the_email_with_a_confirm_step(live, smtp, phone, duel):
    game, _ = creation.create_game("duel", [{"name": "Ann", "email": "ann@example.org"},
                                         {"name": "Bob", "email": "bob@example.org"}], seed=4)
    live.deliver()
    phone.goto(last_link(smtp, "ann@example.org"))
    assert "Ann" in phone.content()
    assert_no_sideways_scroll(phone)
    screenshot(phone, "duel-turn")
    phone.locator("button[data-choice]").first.click()
    confirm = phone.locator("#confirm")
    assert confirm.is_visible()
    phone.locator("#confirm-no").click()
    assert not confirm.is_visible()
    phone.locator("button[data-choice]").first.click()
    phone.locator("#confirm-yes").click()
    phone.wait_for_load_state()
    assert store.get_game(game.id).seq >= 1
