"""Mail that mail providers accept: List-Unsubscribe a client can use, a
plain sender, Auto-Submitted on every mail, and every kind of mail scored by SpamAssassin
(Debian's `spamassassin`, local tests only) at most 1.0 when sent with an https base URL."""
from __future__ import annotations

import re
from email import message_from_bytes, policy

import pytest

from pbem.mail import mailer
from pbem.play import creation
from tests import mail_kinds
from tests.conftest import on_sqlite

database_url = on_sqlite     # what a mail says, not how it is stored: SQLite alone

BASE = "https://pbem.example.org"
ONE_URL = re.compile(r"<https://pbem\.example\.org/optout/[A-Za-z0-9_.\-]+>")


@pytest.fixture
def production(app_with, smtp):
    return app_with(smtp.port, SIGNUP_CONFIRM=True, BASE_URL=BASE,
                    MAIL_SENDER="pbem <pbem@pbem.example.org>")


@pytest.fixture
def mails(production, smtp):
    return mail_kinds.every_kind(production.test_client(), smtp)


def raw(message) -> bytes:
    """The message's lines as they came over SMTP (the inbox parsed them; nothing refolded)."""
    return mail_kinds.as_received(message)


def test_every_mail_has_one_click_unsubscribe_a_plain_sender_and_auto_submitted(mails):
    for message in mails:
        data = raw(message)
        parsed = message_from_bytes(data, policy=policy.default)       # as a mail client does
        header = parsed["List-Unsubscribe"]
        assert ONE_URL.fullmatch(header), header
        assert parsed["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        # on the wire: one line, not RFC 2047-encoded, not folded
        line = re.search(rb"^List-Unsubscribe: (.*)\r\n(?![ \t])", data, re.M)
        assert line and ONE_URL.fullmatch(line.group(1).decode()), data[:600]
        assert b"=?" not in line.group(1)
        # a plain sender name, and RFC 3834's mark of an automatic mail
        assert re.search(rb"^From: pbem <pbem@pbem\.example\.org>\r\n", data, re.M), data[:400]
        assert message["Auto-Submitted"] == "auto-generated"     # RFC 3834
        assert data.count(b"\nAuto-Submitted:") == 1


def test_a_sender_name_that_is_not_ascii_is_encoded_and_reads_back(app_with, smtp):
    app_with(smtp.port, MAIL_SENDER="Társas pbem <pbem@pbem.test>")
    creation.create_game("duel", mail_kinds.people("enc"), seed=3)
    mailer.send_due()
    for message in smtp.inbox.messages:
        assert message["From"] == "Társas pbem <pbem@pbem.test>"
        assert b"From: =?utf-8?" in raw(message)


@pytest.mark.services
def test_spamassassin_scores_every_kind_of_mail_at_most_one(mails):
    assert mail_kinds.SPAMASSASSIN, ("Debian's spamassassin is not installed: apt-get install "
                                     "spamassassin (.ci/run installs it)")
    scored = mail_kinds.spam_scores(mails)
    report = [(mail_kinds.kind_of(m), score, hits) for m, (score, hits) in zip(mails, scored)]
    too_much = [r for r in report if r[1] > 1.0]
    assert not too_much, too_much
    shown = [r for r in report if set(r[2]) & set(mail_kinds.SHOWN_RULES)]
    assert not shown, shown          # one-letter cells, tiny or invisible text
    assert {kind for kind, _score, _hits in report} >= mail_kinds.KINDS
