"""The outbox against a real SMTP server: down, slow, refusing for now, refusing for good."""
from __future__ import annotations

import datetime as dt
import socket

from pbem.play import moves as playing
from pbem.play import creation
from pbem.mail import mailer
from pbem.log import store
from pbem.db.models import Outbox, utcnow
from tests.conftest import SMTPServer, free_port

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]
LATER = dt.timedelta(days=1)


def play_some_moves(game, moves=4):
    rules = store.rules_of(game)
    for _ in range(moves):
        game = store.get_game(game.id)
        state = store.state_of(game)
        seat = rules.to_act(state)[0]
        playing.act(game.id, seat, rules.legal_actions(state, seat)[-1], game.seq)


def test_smtp_down_then_back_delivers_every_mail_exactly_once(app_with):
    port = free_port()                      # nothing listens here yet
    app_with(port)
    game, _ = creation.create_game("duel", PLAYERS, seed=3)
    play_some_moves(game)                   # every action succeeds while mail is down
    waiting = Outbox.select().count()
    assert waiting >= 5
    counts = mailer.send_due()
    assert counts == {"sent": 0, "retry": waiting, "failed": 0}
    row = Outbox.select().first()
    assert row.attempts == 1 and "Connection" in row.last_error and row.next_try_at > utcnow()
    assert mailer.send_due() == {"sent": 0, "retry": 0, "failed": 0}   # backing off

    server = SMTPServer(port).start()
    try:
        assert mailer.send_due(now=utcnow() + LATER)["sent"] == waiting
        assert mailer.send_due(now=utcnow() + 2 * LATER) == {"sent": 0, "retry": 0, "failed": 0}
    finally:
        server.stop()
    received = [m["Message-ID"] for m in server.inbox.messages]
    assert len(received) == waiting == len(set(received))
    assert set(received) == {row.message_id for row in Outbox.select()}


def test_temporary_refusal_retries_and_permanent_refusal_is_marked(app, smtp):
    smtp.inbox.refuse["ann@example.org"] = "450 4.2.1 mailbox busy, try later"
    smtp.inbox.refuse["bob@example.org"] = "550 5.1.1 no such user"
    creation.create_game("duel", PLAYERS, seed=3, host_email="host@example.org")
    assert mailer.send_due() == {"sent": 1, "retry": 2, "failed": 1}
    bob = Outbox.get(Outbox.recipient == "bob@example.org")
    assert bob.failed_at is not None and "550" in bob.last_error
    del smtp.inbox.refuse["ann@example.org"]
    assert mailer.send_due(now=utcnow() + LATER) == {"sent": 2, "retry": 0, "failed": 0}
    assert mailer.send_due(now=utcnow() + 2 * LATER)["sent"] == 0    # never doubled
    assert [m["Subject"] for m in smtp.inbox.to("bob@example.org")] == []
    assert len(smtp.inbox.to("ann@example.org")) == 2


def test_a_server_that_never_answers_times_out_and_is_retried(app_with):
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(5)                        # accepts the connection, never greets
    try:
        app_with(silent.getsockname()[1], MAIL_TIMEOUT=1)
        creation.create_game("duel", PLAYERS, seed=3)
        counts = mailer.send_due()
    finally:
        silent.close()
    assert counts["retry"] == 3 and counts["sent"] == 0
    assert "timed out" in Outbox.select().first().last_error


def test_permanent_failures_are_shown_on_the_host_page(app, client, smtp):
    smtp.inbox.refuse["bob@example.org"] = "550 5.1.1 no such user"
    game, host_token = creation.create_game("duel", PLAYERS, seed=3)
    mailer.send_due()
    page = client.get(f"/host/{host_token}").get_data(as_text=True)
    assert "failed" in page and "550" in page and "bob@example.org" in page


def test_backoff_grows_and_is_capped():
    delays = [mailer.backoff(n).total_seconds() for n in range(1, 12)]
    assert delays[0] == 60 and delays[1] == 120 and delays == sorted(delays)
    assert max(delays) == mailer.MAX_DELAY


def test_long_lines_and_accents_survive_smtp(app, smtp):
    from pbem.db.models import Outbox
    Outbox.create(message_id="<long.1@pbem.test>", kind="test", recipient="ann@example.org",
                  subject="Árvíztűrő tükörfúrógép", body_text="Lépj!\n" + "x" * 3000,
                  body_html="<p>Lépj!</p><p>" + "x" * 3000 + "</p>")
    assert mailer.send_due() == {"sent": 1, "retry": 0, "failed": 0}
    message = smtp.inbox.messages[0]
    assert message["Subject"] == "Árvíztűrő tükörfúrógép"
    assert "x" * 3000 in smtp.inbox.text(message)
