"""PBEM_REPLY_TRUSTED_AUTHSERV: a reply plays only when the topmost Authentication-Results of the
trusted authserv-id says dkim=pass for the From domain (header.d) or spf=pass for it
(smtp.mailfrom), read as RFC 8601 says; text the sender controls (a property value, a comment,
a header below the MTA's own) never vouches for anyone."""
from __future__ import annotations

import pytest

from pbem.db.models import InboundMail, Outbox
from pbem.mail import authresults, inbound, mailer
from tests.fuzz import mails
from tests.mail.test_replies import asked, email_of, events, nothing_written, replying  # noqa: F401
from tests.conftest import on_sqlite

# whom a header vouches for, not storage (tests/mail/test_replies.py runs on both): SQLite alone
database_url = on_sqlite

TRUSTED = "mx.pbem.test"


@pytest.fixture
def trusting(asked, replying):
    replying.config["REPLY_TRUSTED_AUTHSERV"] = TRUSTED
    return asked


@pytest.mark.parametrize("number", range(len(mails.forged_authentication("a@example.org",
                                                                         TRUSTED))))
def test_a_forged_authentication_result_plays_nothing(trusting, smtp, number):
    game, seat, mail, codes = trusting
    before = events(game)
    headers = mails.forged_authentication(email_of(seat), TRUSTED)[number]
    raw = mails.reply(mail["Reply-To"], email_of(seat), [codes[0]], authentication=headers)
    assert inbound.receive(raw) == "ignored: the sender is not authenticated", headers
    mailer.send_due()
    assert nothing_written(game, before) and InboundMail.select().count() == 0
    assert Outbox.select().where(Outbox.template == "reply").count() == 0


@pytest.mark.parametrize("headers", [
    ["mx.pbem.test; dkim=pass (2048-bit key; unprotected) header.d=example.org "
     "header.s=one header.b=\"ab+c/d=\""],
    ["mx.pbem.test 1; spf=pass (sender SPF authorized) smtp.mailfrom=ann@Example.ORG; "
     "dkim=none"],
    ["mx.pbem.test;\r\n\tdkim=fail header.d=evil.example;\r\n\tdkim=pass header.d=example.org"],
    ["spamfilter.pbem.test; dkim=fail", "mx.pbem.test; dkim=pass header.d=example.org",
     "mx.pbem.test; dkim=fail header.d=example.org"]])
def test_the_trusted_authservs_own_pass_for_the_from_domain_plays(trusting, smtp, headers):
    game, seat, mail, codes = trusting
    before = events(game)
    raw = mails.reply(mail["Reply-To"], f"Ann <{email_of(seat)}>", [codes[0]],
                      authentication=headers)
    assert inbound.receive(raw) == "played"
    assert events(game) > before


def test_results_are_the_method_result_tokens_only():
    [dkim, spf] = authresults.results(
        "mx.example; dkim=pass (good signature: header.d=x) header.d=\"a.example\" "
        "header.b=dkim=pass; spf=fail reason=\"no; really\" smtp.mailfrom=spf=pass@b.example")
    assert (dkim.method, dkim.result, dkim.properties["header.d"]) == ("dkim", "pass", "a.example")
    assert (spf.method, spf.result) == ("spf", "fail")
    assert authresults.results("mx.example; none") == []
    assert authresults.results("mx.example; dkim=pass (unclosed header.d=a.example") is None
    assert authresults.results("mx.example; dkim=pass header.d=a.example junk") == []
    assert authresults.authserv_id("(comment) MX.Example 1; spf=pass") == "mx.example"
