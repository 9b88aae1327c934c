"""No usable credential at rest and no body kept: a mail once sent keeps no body and a context
without tokens, so that a leaked backup of the outbox opens nothing and the outbox stays small;
the mail itself went out whole, and the host page still lists it."""
from __future__ import annotations

import json
import re

from peewee import fn

from pbem.db.models import DoneOnce, Outbox, db
from pbem.mail import mailer
from pbem.play import moves as playing
from pbem.play import creation
from tests.mail.test_outbox_smtp import play_some_moves

# whatever could be a token: every run of token characters long enough to be one
CANDIDATE = re.compile(r"[A-Za-z0-9_\-.]{20,}")
ROUTES = ("/turn/{}", "/replay/{}", "/host/{}", "/me/{}", "/optout/{}", "/new/confirm/{}")
HOST = re.compile(r"http://pbem\.test(/host/[A-Za-z0-9_.\-]+)")
CONFIRM = re.compile(r"http://pbem\.test(/new/confirm/[A-Za-z0-9_.\-]+)")
PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]


def raw_outbox() -> str:
    """The outbox table as a backup holds it: every column of every row, read by SQL."""
    cursor = db.execute_sql("SELECT * FROM outbox")
    return "\n".join(json.dumps(list(row), default=str) for row in cursor.fetchall())


def working(client, text: str) -> list[str]:
    """The pages that open with a token found in `text`."""
    opened = []
    for candidate in sorted(set(CANDIDATE.findall(text))):
        for route in ROUTES:
            path = route.format(candidate)
            if client.get(path).status_code == 200:
                opened.append(path)
    return opened


def test_tokens_read_from_the_outbox_after_sending_open_nothing(app_with, smtp):
    app = app_with(smtp.port, SIGNUP_CONFIRM=True)
    client = app.test_client()
    form = {"rules": "duel", "name0": "Ann", "email0": "ann@example.org", "name1": "Bob",
            "email1": "bob@example.org", "host_email": "host@example.org"}
    assert client.post("/new", data=form).status_code == 303
    before = working(client, raw_outbox())
    assert any(p.startswith("/new/confirm/") for p in before)   # unsent: the link is there
    mailer.send_due()
    assert working(client, raw_outbox()) == []

    confirm = CONFIRM.search(smtp.inbox.text(smtp.inbox.messages[0])).group(1)
    assert client.get(confirm).status_code == 200                # the mail went out whole
    started = client.post(confirm)
    assert started.status_code == 303
    game = playing.Game.select().get()
    play_some_moves(game, 3)
    assert client.post("/me", data={"email": "ann@example.org"}).status_code == 200
    unsent = working(client, raw_outbox())
    # (a host row keeps no token even unsent: it is rendered with the game's live host link)
    assert {p.split("/")[1] for p in unsent} >= {"turn", "me", "optout"}
    counts = mailer.send_due()
    assert counts["sent"] == Outbox.select().count() - 1 and not counts["failed"]

    assert working(client, raw_outbox()) == []
    assert Outbox.select().where(Outbox.sent_at.is_null()).count() == 0
    # what was mailed still works: the mail carried its links, only the stored copy lost them
    mailed = "\n".join(smtp.inbox.text(m) + m.get_body(preferencelist=("html",)).get_content()
                       for m in smtp.inbox.messages)
    assert {p.split("/")[1] for p in working(client, mailed)} >= {"turn", "host", "me",
                                                                   "optout", "replay"}
    host = client.get(HOST.search(mailed).group(1))
    page = host.get_data(as_text=True)
    assert host.status_code == 200
    assert "ann@example.org" in page and "bob@example.org" in page
    assert page.count("<td>sent ") == Outbox.select().where(Outbox.game == game.id).count()
    row = Outbox.select().where(Outbox.kind == "turn").first()
    assert row.body_text == row.body_html == "" and row.context["token"] == "redacted"
    assert row.subject and row.template == "turn" and row.message_id   # what the host needs


def test_a_row_that_failed_is_not_redacted_so_the_host_can_send_it_again(app, smtp):
    smtp.inbox.refuse["bob@example.org"] = "550 5.1.1 no such user"
    creation.create_game("duel", PLAYERS, seed=3)
    mailer.send_due()
    bob = Outbox.get(Outbox.recipient == "bob@example.org")
    assert bob.failed_at is not None and "/optout/" in bob.body_text   # whole, to send again
    ann = Outbox.get(Outbox.recipient == "ann@example.org")
    assert ann.sent_at is not None and ann.body_text == ann.body_html == ""


def test_mail_sent_by_an_older_version_is_redacted_by_the_next_pass(app, smtp, client):
    creation.create_game("duel", PLAYERS, seed=3, host_email="host@example.org")
    rows = Outbox.select().count()
    # as a version before the redaction left them: sent, with every link in place
    Outbox.update(sent_at=playing.utcnow()).execute()
    assert {p.split("/")[1] for p in working(client, raw_outbox())} >= {"turn", "me", "optout"}
    mailer._redacted_before.clear()                  # a process started after the upgrade
    assert mailer.redact_sent_before(batch=2) == rows
    assert working(client, raw_outbox()) == []
    assert mailer.redact_sent_before() == 0          # once per process
    # and once per database: a process started later only reads the marker, scans nothing
    Outbox.update(body_text="sent before: http://pbem.test/me/abcdefghijklmnopqrstuvwx").where(
        Outbox.id == Outbox.select(fn.MIN(Outbox.id))).execute()
    mailer._redacted_before.clear()
    assert mailer.redact_sent_before() == 0
    assert DoneOnce.select().where(DoneOnce.name == mailer.REDACTED_BEFORE).exists()
