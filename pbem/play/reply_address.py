"""Each turn mail's reply address: the policy the turn mail and a reply both follow.

With PBEM_REPLY_ADDRESS=turns@example.org every turn mail (and reminder) says
Reply-To: turns+<id>@example.org. The id is made from the mail's turn link with the secret key
(`Keys.reply_id`: 130 bits, lowercase letters and digits), so the outbox keeps nothing more than it
kept before, and only the id's hash is stored (`ReplyAddress`), bound to that link: a reply
works while the link works, and a newer mail (a newer link) replaces it.
"""
from __future__ import annotations

import hashlib
import re

from flask import current_app

from ..db.models import ReplyAddress
from .keys import REPLY_ID_LENGTH, keys

REPLY_ID = re.compile(r"^[a-z2-7]{%d}$" % REPLY_ID_LENGTH)


def enabled() -> bool:
    return bool(current_app.config.get("REPLY_ADDRESS"))


def hash_id(reply: str) -> str:
    return hashlib.sha256(reply.encode()).hexdigest()


def address_of(reply: str) -> str:
    """turns+<id>@example.org for PBEM_REPLY_ADDRESS turns@example.org."""
    local, _sep, domain = current_app.config["REPLY_ADDRESS"].rpartition("@")
    return f"{local}+{reply}@{domain}"


def reply_to(token: str) -> str | None:
    """The Reply-To of a turn mail carrying `token` (None when replies are off)."""
    if not enabled() or not token:
        return None
    return address_of(keys().reply_id(token))


def id_in(address: str) -> str | None:
    """The reply id in an address turns+<id>@domain of our reply address, else None."""
    if not enabled() or not isinstance(address, str):
        return None
    local, _sep, domain = current_app.config["REPLY_ADDRESS"].lower().rpartition("@")
    found_local, _sep, found_domain = address.strip().lower().rpartition("@")
    base, plus, reply = found_local.partition("+")
    if not plus or base != local or found_domain != domain or not REPLY_ID.match(reply):
        return None
    return reply


def bind(link_id: int, token: str) -> None:
    """Keep the hash of the reply id of the mail carrying `token` (inside the caller's
    transaction); nothing when replies are off."""
    if enabled():
        ReplyAddress.create(id_hash=hash_id(keys().reply_id(token)),
                            link=link_id)
