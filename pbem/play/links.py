"""Signed one-time turn links: the token in the URL is the only credential a player has.

The token signs {game, seat, nonce} with a salt of its own; only the nonce's hash is stored,
in `Link`, with the turn it belongs to. A link works while its seat is to act in that turn.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from ..errors import Refusal
from ..db.models import Game, Link, Prepared, utcnow

TURN_SALT = "pbem.turn-link.v1"
HOST_SALT = "pbem.host-link.v1"
NONCE_BYTES = 24  # 192 bits


class LinkError(Refusal):
    """A link that cannot be used; `status` is the HTTP answer (403 or 410), `why` the kind
    (played, revoked, expired, tampered, ...)."""

    def __init__(self, status: int, reason: str, message: str, link: Link | None = None,
                 game_id: int | None = None, seat: int | None = None):
        super().__init__(message, status)
        self.reason, self.message = reason, message
        self.link, self.game_id, self.seat = link, game_id, seat


LINK_BY_NONCE = Prepared(Link, lambda nonce_hash: Link.select()
                         .where(Link.nonce_hash == nonce_hash).limit(1))


def hash_nonce(nonce: str) -> str:
    return hashlib.sha256(nonce.encode()).hexdigest()


def _serializer(secret_key: str, salt: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret_key, salt=salt)


def issue(secret_key: str, game: Game, seat: int, max_age: int) -> str:
    """A fresh link for `seat`: spends that seat's older links (inside the caller's transaction)."""
    now = utcnow()
    (Link.update(spent_at=now, spent_reason="replaced")
     .where(Link.game == game, Link.seat == seat, Link.spent_at.is_null())
     .execute())
    nonce = secrets.token_urlsafe(NONCE_BYTES)
    Link.create(game=game, seat=seat, turn_seq=game.seq, nonce_hash=hash_nonce(nonce),
                created_at=now, expires_at=now + dt.timedelta(seconds=max_age))
    return _serializer(secret_key, TURN_SALT).dumps({"g": game.id, "s": seat, "n": nonce})


def spend(game: Game, seats, reason: str) -> None:
    """Spend the live links of `seats` (their turn is over)."""
    seats = list(seats)
    if seats:
        (Link.update(spent_at=utcnow(), spent_reason=reason)
         .where(Link.game == game, Link.seat.in_(seats), Link.spent_at.is_null())
         .execute())


SPENT_MESSAGES = {
    "played": "This link has been used: the turn it was sent for is over.",
    "turn_over": "This link belongs to a turn that is over.",
    "replaced": "A newer link has been emailed for this seat: use the latest email.",
    "revoked": "The host has revoked this link.",
}


@dataclass
class Access:
    link: Link
    game_id: int
    seat: int


def check(secret_key: str, token: str, max_age: int) -> Access:
    """The live link behind `token`, or LinkError (403 tampered, 410 spent or expired)."""
    serializer = _serializer(secret_key, TURN_SALT)
    try:
        data = serializer.loads(token, max_age=max_age)
    except SignatureExpired as exc:
        data = _payload(exc.payload, serializer)
        raise LinkError(410, "expired", "This link has expired.",
                        game_id=data.get("g"), seat=data.get("s")) from None
    except BadSignature:
        raise LinkError(403, "tampered", "This link is not valid: it may have been cut short "
                                         "or altered. Open it again from the email.") from None
    if not isinstance(data, dict) or not {"g", "s", "n"} <= set(data):
        raise LinkError(403, "tampered", "This link is not valid.")
    link = LINK_BY_NONCE.first(hash_nonce(str(data["n"])))
    if link is None or link.game_id != data["g"] or link.seat != data["s"]:
        raise LinkError(403, "unknown", "This link is not known here.")
    if link.spent_at is not None:
        raise LinkError(410, link.spent_reason or "spent",
                        SPENT_MESSAGES.get(link.spent_reason, "This link has been used."),
                        link=link, game_id=link.game_id, seat=link.seat)
    if link.expires_at <= utcnow():
        raise LinkError(410, "expired", "This link has expired.", link=link,
                        game_id=link.game_id, seat=link.seat)
    return Access(link=link, game_id=link.game_id, seat=link.seat)


def check_readable(secret_key: str, token: str, max_age: int) -> Access:
    """Any turn link the seat was sent, spent or not, while younger than `max_age` (counted
    from when it was issued): it opens that seat's read-only pages (its replay, where the game
    stands) and never acts. A host's revoke cuts every link of the seat issued before it."""
    serializer = _serializer(secret_key, TURN_SALT)
    try:
        data = serializer.loads(token, max_age=max_age)
    except SignatureExpired as exc:
        data = _payload(exc.payload, serializer)
        raise LinkError(410, "expired", "This link has expired.",
                        game_id=data.get("g"), seat=data.get("s")) from None
    except BadSignature:
        raise LinkError(403, "tampered", "This link is not valid: it may have been cut short "
                                         "or altered. Open it again from the email.") from None
    if not isinstance(data, dict) or not {"g", "s", "n"} <= set(data):
        raise LinkError(403, "tampered", "This link is not valid.")
    link = LINK_BY_NONCE.first(hash_nonce(str(data["n"])))
    if link is None or link.game_id != data["g"] or link.seat != data["s"]:
        raise LinkError(403, "unknown", "This link is not known here.")
    if link.expires_at <= utcnow():
        raise LinkError(410, "expired", "This link has expired.", link=link,
                        game_id=link.game_id, seat=link.seat)
    revoked = (Link.select(Link.id).where(Link.game == link.game_id, Link.seat == link.seat,
                                          Link.spent_reason == "revoked", Link.id >= link.id)
               .exists())
    if revoked:
        raise LinkError(410, "revoked", SPENT_MESSAGES["revoked"], link=link,
                        game_id=link.game_id, seat=link.seat)
    return Access(link=link, game_id=link.game_id, seat=link.seat)


def newest(game_id: int, seat: int) -> Link | None:
    """The latest link issued to `seat` in the game."""
    return (Link.select().where(Link.game == game_id, Link.seat == seat)
            .order_by(Link.id.desc()).first())


def identify(secret_key: str, token: str) -> tuple[int, int] | None:
    """(game, seat) of a correctly signed token, expired or spent alike; None if tampered."""
    serializer = _serializer(secret_key, TURN_SALT)
    try:
        ok, data = serializer.loads_unsafe(token)
    except Exception:  # noqa: BLE001 - any garbage is simply "not ours"
        return None
    if not ok or not isinstance(data, dict) or "g" not in data or "s" not in data:
        return None
    return data["g"], data["s"]


def find(secret_key: str, token: str) -> Link | None:
    """The Link row behind a correctly signed token, whatever its age or state; else None."""
    serializer = _serializer(secret_key, TURN_SALT)
    try:
        ok, data = serializer.loads_unsafe(token)
    except Exception:  # noqa: BLE001 - any garbage is simply "not ours"
        return None
    if not ok or not isinstance(data, dict) or not {"g", "s", "n"} <= set(data):
        return None
    link = LINK_BY_NONCE.first(hash_nonce(str(data["n"])))
    if link is None or link.game_id != data["g"] or link.seat != data["s"]:
        return None
    return link


def is_newest(link: Link) -> bool:
    """Whether `link` is the last one issued to its seat: only that one may ask for another."""
    latest = newest(link.game_id, link.seat)
    return latest is not None and latest.id == link.id


def _payload(raw, serializer) -> dict:
    try:
        data = serializer.load_payload(raw)
    except BadSignature:
        return {}
    return data if isinstance(data, dict) else {}


# -- host links: one per game, for the host's page ---------------------------------------------

def issue_host(secret_key: str, game: Game) -> str:
    nonce = secrets.token_urlsafe(NONCE_BYTES)
    game.host_nonce_hash = hash_nonce(nonce)
    return _serializer(secret_key, HOST_SALT).dumps({"g": game.id, "n": nonce})


def check_host(secret_key: str, token: str, max_age: int) -> int:
    """The game id of a valid host token, or LinkError(403)."""
    try:
        data = _serializer(secret_key, HOST_SALT).loads(token, max_age=max_age)
    except SignatureExpired:
        raise LinkError(410, "expired", "This host link has expired.") from None
    except BadSignature:
        raise LinkError(403, "tampered", "This host link is not valid.") from None
    game = Game.get_or_none(Game.id == data.get("g")) if isinstance(data, dict) else None
    if game is None or not secrets.compare_digest(game.host_nonce_hash,
                                                  hash_nonce(str(data.get("n")))):
        raise LinkError(403, "unknown", "This host link is not known here.")
    return game.id
