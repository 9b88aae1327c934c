"""A host starts a game from a phone as production does it (375 x 667): the form at /new mails
only the host; the link in that mail shows what will start, and only its button starts it; a
reload or a second tap starts nothing more; the first player plays from the invitation mail."""
from __future__ import annotations

import re

import pytest

from pbem.log import store
from pbem.db.models import Game, Outbox, db
from tests.conftest import free_port, make_app
from tests.e2e.conftest import LiveServer, assert_no_sideways_scroll, screenshot

CONFIRM = re.compile(r"http://127\.0\.0\.1:\d+/new/confirm/[A-Za-z0-9_.\-]+")
TURN = re.compile(r"http://127\.0\.0\.1:\d+/turn/[A-Za-z0-9_.\-]+")
PLAYERS = [("Ann", "signup-ann@example.org"), ("Bob", "signup-bob@example.org"),
           ("Cy", "signup-cy@example.org")]
HOST = "signup-host@example.org"


@pytest.fixture
def confirming(tmp_path, smtp):
    """A live server that confirms sign-ups by mail, as production does."""
    port = free_port()
    app = make_app(f"sqlite:///{tmp_path / 'signup.db'}", smtp.port,
                   BASE_URL=f"http://127.0.0.1:{port}", SIGNUP_CONFIRM=True)
    server = LiveServer(app, port).start()
    ctx = app.app_context()
    ctx.push()
    db.connect(reuse_if_open=True)
    yield server
    ctx.pop()
    server.stop()


def links(smtp, address, pattern):
    return [m for msg in smtp.inbox.to(address) for m in pattern.findall(smtp.inbox.text(msg))]


def test_a_host_starts_a_game_from_the_mailed_link_on_a_phone(confirming, smtp, phone):
    phone.goto(f"{confirming.url}/new")
    phone.check('input[name="rules"][value="tigris"]')
    for i, (name, email) in enumerate(PLAYERS):
        phone.fill(f'input[name="name{i}"]', name)
        phone.fill(f'input[name="email{i}"]', email)
    phone.fill('input[name="title"]', "Sunday river")
    phone.fill('input[name="host_email"]', HOST)
    assert_no_sideways_scroll(phone)
    screenshot(phone, "signup-1-form")
    with phone.expect_navigation():
        phone.click("form.new-game button[type=submit]")
    assert phone.url.endswith("/new/sent")
    assert "Check your mail" in phone.locator("h1").inner_text()
    screenshot(phone, "signup-2-sent")
    phone.reload()                                        # a reload of "sent" posts nothing
    assert Game.select().count() == 0
    assert [(r.recipient, r.kind) for r in Outbox.select()] == [(HOST, "confirm")]

    confirming.deliver()
    assert [m["To"] for m in smtp.inbox.messages] == [HOST]   # nobody else is mailed yet
    confirm = links(smtp, HOST, CONFIRM)[-1]
    phone.goto(confirm)                                   # opening the link starts nothing
    phone.reload()
    assert Game.select().count() == 0
    page = phone.locator("main").inner_text()
    assert "Sunday river" in page and all(name in page for name, _ in PLAYERS)
    assert_no_sideways_scroll(phone)
    screenshot(phone, "signup-3-confirm")
    with phone.expect_navigation():
        phone.click("form button[type=submit]")
    assert "/host/" in phone.url and "The game is created" in phone.content()
    screenshot(phone, "signup-4-created")
    phone.reload()                                        # a reload of the host page: still one
    assert Game.select().count() == 1

    phone.goto(confirm)                                   # the link again: started already
    assert "started already" in phone.content()
    assert phone.locator("form button[type=submit]").count() == 0
    assert Game.select().count() == 1

    confirming.deliver()
    invited = {m["To"] for m in smtp.inbox.messages}
    assert invited == {HOST} | {email for _, email in PLAYERS}
    game = Game.get()
    first = store.rules_of(game).to_act(store.state_of(game))[0]
    turn = links(smtp, PLAYERS[first][1], TURN)[-1]
    phone.goto(turn)
    assert "It is your turn" in phone.content() or "Your turn" in phone.content()
    assert PLAYERS[first][0] in phone.locator(".who").inner_text()
    screenshot(phone, "signup-5-first-turn")
