"""`pbem mail prune` deletes the reply addresses of the turn links past their age, and the
replies handled longer ago than both its --older-than and a link's age (a reply handled is
remembered while its address may still take the same message again)."""
from __future__ import annotations

import datetime as dt

from pbem.db.models import InboundMail, Link, ReplyAddress, utcnow
from pbem.mail import inbound
from tests.fuzz import mails
from tests.mail.test_replies import asked, email_of, replying  # noqa: F401


def test_mail_prune_deletes_old_reply_addresses_and_replies_handled(asked, smtp, replying):
    game, seat, mail, codes = asked
    assert inbound.receive(mails.reply(mail["Reply-To"], email_of(seat), [codes[0]])) == "played"
    addresses, links = ReplyAddress.select().count(), Link.select().count()
    assert addresses >= 2 and InboundMail.select().count() == 1
    bound = ReplyAddress.select().order_by(ReplyAddress.id).first()
    Link.update(expires_at=utcnow() - dt.timedelta(seconds=1)).where(
        Link.id == bound.link_id).execute()
    link_age = dt.timedelta(seconds=replying.config["LINK_MAX_AGE"])
    InboundMail.update(received_at=utcnow() - link_age - dt.timedelta(days=1)).execute()
    InboundMail.create(key_hash="0" * 64, outcome="played",       # within a link's age: kept
                       received_at=utcnow() - link_age + dt.timedelta(days=1))
    out = replying.test_cli_runner().invoke(args=["mail", "prune", "--older-than", "30"])
    assert out.exit_code == 0, out.output
    assert "1 reply addresses, 1 replies handled and 1 expired links" in out.output, out.output
    assert ReplyAddress.get_or_none(ReplyAddress.id == bound.id) is None
    assert ReplyAddress.select().count() == addresses - 1 and Link.select().count() == links - 1
    assert [row.key_hash for row in InboundMail.select()] == ["0" * 64]
