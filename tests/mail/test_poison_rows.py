"""A row that cannot be built or sent is that row's failure: the mail after it still goes out
(through the real SMTP fixture), and the host sees what failed."""
from __future__ import annotations

from pbem.play import creation
from pbem.mail import mailer
from pbem.log import store
from pbem.db.models import Outbox

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]


def poisoned_rows():
    """Rows as an older server (or a bug) could have queued them: a header injection in the
    subject, one in the recipient, and a recipient SMTP cannot carry without SMTPUTF8."""
    rows = [("Hello\r\nBcc: victim@example.net", "ann@example.org"),
            ("Hello", "bob@example.org\r\nBcc: victim@example.net"),
            ("Hello", "ánn@exámple.org")]
    return [Outbox.create(message_id=f"<poison.{i}@pbem.test>", kind="turn", recipient=to,
                          subject=subject, body_text="x", body_html="<p>x</p>")
            for i, (subject, to) in enumerate(rows)]


def test_poisoned_rows_fail_alone_and_every_normal_mail_is_delivered(app, client, smtp):
    poisoned = poisoned_rows()
    game, host_token = creation.create_game("duel", PLAYERS, seed=3, host_email="host@example.org")
    normal = Outbox.select().where(Outbox.id.not_in([r.id for r in poisoned])).count()
    assert normal == 4
    counts = mailer.send_due()
    assert counts == {"sent": normal, "retry": 0, "failed": len(poisoned)}
    for row in poisoned:
        row = Outbox.get_by_id(row.id)
        assert row.failed_at is not None and row.sent_at is None and row.last_error
    received = [m["Message-ID"] for m in smtp.inbox.messages]
    assert sorted(received) == sorted(r.message_id for r in Outbox.select()
                                      .where(Outbox.sent_at.is_null(False)))
    assert not any("victim" in str(m) for m in smtp.inbox.messages)
    assert mailer.send_due() == {"sent": 0, "retry": 0, "failed": 0}


def test_the_worker_carries_on_past_a_poisoned_row(app, smtp):
    poisoned_rows()
    creation.create_game("duel", PLAYERS, seed=3)
    mailer.worker(interval=0, once=True)
    assert len(smtp.inbox.messages) == 3
    assert Outbox.select().where(Outbox.failed_at.is_null(False)).count() == 3


def test_a_failed_poisoned_row_is_shown_on_the_host_page(app, client, smtp):
    game, host_token = creation.create_game("duel", PLAYERS, seed=3)
    Outbox.create(message_id="<poison@pbem.test>", game=game, seat=1, kind="turn",
                  recipient="bob@example.org", subject="Hi\nBcc: victim@example.net",
                  body_text="x", body_html="x")
    mailer.send_due()
    page = client.get(f"/host/{host_token}").get_data(as_text=True)
    assert "BadHeaderError" in page and "failed" in page
