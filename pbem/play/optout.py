"""Opting out: every mail carries a signed link with which its recipient stops all mail from
this server. An opted-out address is never sent anything again (the outbox does not queue for it,
the mailer skips what was queued before)."""
from __future__ import annotations

from itsdangerous import BadSignature, URLSafeSerializer

from ..db.models import OptOut

SALT = "pbem.opt-out.v1"


def _serializer(secret_key: str) -> URLSafeSerializer:
    return URLSafeSerializer(secret_key, salt=SALT)


def token(secret_key: str, email: str) -> str:
    """The opt-out token of an address: it never expires, and only opts out that address."""
    return _serializer(secret_key).dumps(email.strip().lower())


def address_of(secret_key: str, token_text: str) -> str | None:
    """The address a token was issued for, or None for a forged or damaged token."""
    try:
        email = _serializer(secret_key).loads(token_text)
    except BadSignature:
        return None
    return email if isinstance(email, str) and email else None


def opt_out(email: str) -> None:
    """Record the opt-out (once: a second request changes nothing). The host of each game in
    which the address is to act now is told: that player hears of no turn any more."""
    from . import announce, outbox      # both mail: the outbox itself asks this module
    with outbox.transaction():
        if is_opted_out(email):
            return
        OptOut.insert(email=email.strip().lower()).on_conflict_ignore().execute()
        announce.opted_out(email)


def opt_in(email: str) -> None:
    """Undo an opt-out. The mail skipped meanwhile stays unsent, but each game waiting for the
    address is mailed at once with a fresh link (a digest reader's waits for the digest)."""
    from . import announce, outbox
    with outbox.transaction():
        if not is_opted_out(email):
            return
        OptOut.delete().where(OptOut.email == email.strip().lower()).execute()
        announce.mail_waiting_games(email)


def is_opted_out(email: str) -> bool:
    return bool(email) and OptOut.select().where(OptOut.email == email.strip().lower()).exists()


def opted_out(emails) -> set[str]:
    """Which of `emails` opted out (compared in lower case; returned as given)."""
    wanted = {e.strip().lower(): e for e in emails if e}
    if not wanted:
        return set()
    found = OptOut.select(OptOut.email).where(OptOut.email.in_(list(wanted)))
    return {wanted[row.email] for row in found}
