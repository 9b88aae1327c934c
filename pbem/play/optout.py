"""Opting out: every mail carries a signed link with which its recipient stops all mail from
this server. An opted-out address is never sent anything again (the outbox does not queue for it,
the mailer skips what was queued before).

Each link is the mail's own (it names the outbox row: its body's link and its List-Unsubscribe
header are the same) and expires PBEM_OPTOUT_LINK_MAX_AGE (90 days) after the mail was built; a newer mail
carries a newer one, and the home page has its own. Links of the older form (no nonce, no
expiry) are refused like a damaged one.
"""
from __future__ import annotations

import datetime as dt
import secrets

from itsdangerous import BadSignature, URLSafeSerializer

from ..db.models import OptOut, utcnow
from ..db.prepared import Prepared
from ..validate import address_key

SALT = "pbem.opt-out.v2"


class Expired(Exception):
    """An opt-out link older than PBEM_OPTOUT_LINK_MAX_AGE."""


def _serializer(secret_key: str) -> URLSafeSerializer:
    return URLSafeSerializer(secret_key, salt=SALT)


def token(secret_key: str, email: str, mail_id: int | None = None,
          made_at: dt.datetime | None = None) -> str:
    """The opt-out token of one mail (`mail_id`, the outbox row, queued at `made_at`): the same
    for the mail's body and its List-Unsubscribe header; it only opts out that address, and
    expires (checked by `address_of`). Without a mail (the home page's link): a nonce of its
    own, from now."""
    made_at = made_at or utcnow()
    mail = mail_id if mail_id is not None else secrets.token_urlsafe(6)
    return _serializer(secret_key).dumps({"e": address_key(email), "m": mail,
                                          "t": int(made_at.replace(tzinfo=dt.timezone.utc)
                                                   .timestamp())})


def address_of(secret_key: str, token_text: str, max_age: int) -> str | None:
    """The address a token was issued for; None for a forged or damaged token; Expired for one
    older than `max_age` seconds."""
    try:
        data = _serializer(secret_key).loads(token_text)
    except BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("t"), int):
        return None
    email = data.get("e")
    if not isinstance(email, str) or "@" not in email:
        return None
    made = dt.datetime.fromtimestamp(data["t"], dt.timezone.utc).replace(tzinfo=None)
    if made + dt.timedelta(seconds=max_age) <= utcnow():
        raise Expired()
    return email


def is_opted_out(email: str) -> bool:
    return bool(email) and OPTED_OUT.value(address_key(email)) is not None


# asked before every mail: its SQL built once
OPTED_OUT = Prepared(OptOut, lambda address: OptOut.select(OptOut.email)
                     .where(OptOut.email == address).limit(1))


def opted_out(emails) -> set[str]:
    """Which of `emails` opted out (compared in lower case; returned as given)."""
    wanted = {address_key(e): e for e in emails if e}
    if not wanted:
        return set()
    found = OptOut.select(OptOut.email).where(OptOut.email.in_(list(wanted)))
    return {wanted[row.email] for row in found}
