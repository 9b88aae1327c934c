"""Signed one-time turn links: the token in the URL is the only credential a player has.

The token signs {game, seat, nonce} with a salt of its own; only the nonce's hash is stored,
in `Link`, with the turn it belongs to. A link works while its seat is to act in that turn.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from peewee import fn
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from ..errors import Refusal
from ..db.models import Event, Game, Link, Seat, utcnow
from ..db.prepared import Prepared

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


# Where a newer link comes from, kept on the links it replaces (`spent_by`), so that their
# pages say what happened: "mail" (a turn mail, a reminder, the digest), "renew" (the player
# asked), "resend" and "revoke" (the host), "play_now" (opened on the home page: never mailed).
SOURCES = ("mail", "renew", "resend", "revoke", "play_now")
# The link of the mail telling a player their moves are played for them (`issue_back`): it
# reads and brings them back, never acts, and replaces no link: it is never the seat's newest.
BACK = "dropped"
# The link of the mail asking a player to agree to abandon the game (`issue_aside`): like a
# drop mail's, it reads, never acts and replaces no link; it answers the proposal
# (`speaks_for_ending`).
ASKED = "asked"
ASIDE = (BACK, ASKED)
_source: ContextVar[str] = ContextVar("pbem_link_source", default="mail")


@contextmanager
def issued_by(source: str):
    """The links issued inside say they came from `source` (one of SOURCES)."""
    token = _source.set(source)
    try:
        yield
    finally:
        _source.reset(token)


def issue(secret_key: str, game: Game, seat: int, max_age: int, source: str | None = None) -> str:
    """A fresh link for `seat`: spends that seat's older links (inside the caller's transaction),
    noting where the newer one came from (`source`, else the one `issued_by` set)."""
    now = utcnow()
    source = source or _source.get()
    (Link.update(spent_at=now, spent_reason="replaced", spent_seq=game.seq, spent_by=source)
     .where(Link.game == game, Link.seat == seat, Link.spent_at.is_null())
     .execute())
    nonce = secrets.token_urlsafe(NONCE_BYTES)
    Link.create(game=game, seat=seat, turn_seq=game.seq, nonce_hash=hash_nonce(nonce),
                created_at=now, expires_at=now + dt.timedelta(seconds=max_age), source=source)
    return _serializer(secret_key, TURN_SALT).dumps({"g": game.id, "s": seat, "n": nonce})


def issue_back(secret_key: str, game: Game, seat: int, max_age: int) -> str:
    """The link of a drop mail (BACK): it opens the seat's read-only pages and brings its
    player back ("I am back", `speaks_for_seat`), like every link the seat is sent after it.
    Born spent, it never acts, and the seat's links stay as they were (its newest is still
    the one it plays with)."""
    return issue_aside(secret_key, game, seat, max_age, BACK)


def issue_aside(secret_key: str, game: Game, seat: int, max_age: int, source: str) -> str:
    """A link born spent for one purpose (`source`, one of ASIDE): it opens the seat's
    read-only pages, never acts, and is never the seat's newest."""
    now = utcnow()
    nonce = secrets.token_urlsafe(NONCE_BYTES)
    Link.create(game=game, seat=seat, turn_seq=game.seq, nonce_hash=hash_nonce(nonce),
                created_at=now, expires_at=now + dt.timedelta(seconds=max_age), source=source,
                spent_at=now, spent_reason=source, spent_seq=game.seq, spent_by=source)
    return _serializer(secret_key, TURN_SALT).dumps({"g": game.id, "s": seat, "n": nonce})


def spend(game: Game, seats, reason: str, by: str = "") -> None:
    """Spend the live links of `seats` (their turn is over, or the host revoked them), noting
    the move they last saw and, for a turn that ended, who made its last move (`how_ended`)."""
    seats = list(seats)
    now = utcnow()
    for seat in seats:
        live = (Link.select(Link.id, Link.turn_seq)
                .where(Link.game == game, Link.seat == seat, Link.spent_at.is_null()))
        for link in live:
            (Link.update(spent_at=now, spent_reason=reason, spent_seq=game.seq,
                         spent_by=by or (how_ended(game, seat, link.turn_seq)
                                         if reason in ("played", "turn_over") else ""))
             .where(Link.id == link.id, Link.spent_at.is_null()).execute())


def revoke(game: Game, seat: int) -> None:
    """The host's revoke: the seat's live links are spent as revoked, and its latest link (a
    drop mail's too, `issue_back`) is marked revoked all the same, so that every link issued
    up to now stops opening the seat's read-only pages (`check_readable`)."""
    live = (Link.select(Link.id)
            .where(Link.game == game, Link.seat == seat, Link.spent_at.is_null()).exists())
    if live:
        spend(game, [seat], "revoked", by="host")
    latest = (Link.select(Link.id, Link.spent_reason).where(Link.game == game, Link.seat == seat)
              .order_by(Link.id.desc()).first())
    if latest is not None and latest.spent_reason != "revoked":
        (Link.update(spent_at=utcnow(), spent_reason="revoked", spent_by="host",
                     spent_seq=fn.COALESCE(Link.spent_seq, game.seq))
         .where(Link.id == latest.id).execute())


# the seat's last move after a seq, read on every spent link: its SQL built once
LAST_MOVE_SINCE = Prepared(Event, lambda game_id, seat, since_seq: Event.select(
    Event.automatic, Event.timeout, Event.summary, Event.played_by)
    .where(Event.game == game_id, Event.seat == seat, Event.seq > since_seq)
    .order_by(Event.seq.desc()).limit(1))

# what a turn link's page says of the move that ended it (`spent_by`), from the event's
# played_by (chain.PLAYED_BY); "deadline" is "dropped" when that miss dropped the seat
ENDED_BY = {"player": "you", "forced": "forced", "deadline": "default", "host": "host",
            "absent": "dropped", "handover": "dropped", "computer": "computer",
            "stand_in": "computer"}


def how_ended(game: Game, seat: int, since_seq: int) -> str:
    """Who made the seat's last move after `since_seq`, in the caller's transaction: "you" (its
    player), "default" (its default at the deadline), "host" (a default the host chose: the
    game waits for the host at a deadline), "dropped" (played at once: the seat is dropped or
    handed over, or that deadline dropped it), "forced" (its only move, played by the server),
    "computer" (the computer played for its player) or "" (no move of its own: another
    player's move ended its turn, or the game ended)."""
    event = LAST_MOVE_SINCE.first(game.id, seat, since_seq)
    if event is None:
        return ""
    if event.played_by is None:     # recorded before 0.3.1
        return _how_ended_before(game, seat, event)
    ended = ENDED_BY.get(event.played_by, "other")
    if ended == "default" and _is_dropped(game, seat):
        return "dropped"
    return ended


def _how_ended_before(game: Game, seat: int, event: Event) -> str:
    """`how_ended` of an event from before `played_by`, read from its flags and log line."""
    if event.timeout:       # the log line (chain.TIMEOUT_MARKS, in English) says why
        if "(played by the host for" in event.summary:
            return "host"
        return "dropped" if _is_dropped(game, seat) else "default"
    return "forced" if event.automatic else "you"


def _is_dropped(game: Game, seat: int) -> bool:
    row = Seat.get_or_none(Seat.game == game, Seat.index == seat)
    return row is not None and bool(row.dropped)


SPENT_MESSAGES = {
    "played": "This link has been used: the turn it was sent for is over.",
    "turn_over": "This link belongs to a turn that is over.",
    "replaced": "A newer link has been emailed for this seat: use the latest email.",
    "revoked": "The host has revoked this link.",
    "resigned": "You resigned from this game: this link no longer plays.",
    BACK: "This link brings you back to the game (“I am back”); your moves are made through "
          "the links of your turn mails.",
}


@dataclass
class Access:
    link: Link
    game_id: int
    seat: int

    @property
    def seen_upto(self) -> int | None:
        """The last move this link's read-only pages show: the move it was spent at (what its
        seat saw then), or None while it is live (the game as it stands)."""
        return seen_upto(self.link)


def seen_upto(link: Link) -> int | None:
    """What a link's read-only pages show: None (the game now) while it is live or still the
    seat's newest (the one its player moved with, waiting for the next turn: its "move is in"
    page and the table talk stay current), else — once a newer link was issued — the move it
    was spent at (links spent before that was kept show the move they were sent at)."""
    if link.spent_at is None or (link.spent_reason != "revoked" and is_newest(link)):
        return None
    return link.spent_seq if link.spent_seq is not None else link.turn_seq


def check(secret_key: str, token: str, max_age: int, found: Link | None = None) -> Access:
    """The live link behind `token`, or LinkError (403 tampered, 410 spent or expired).
    `found`: its row as `find` read it earlier in the same request (not read again)."""
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
    nonce = hash_nonce(str(data["n"]))
    link = found if found is not None and found.nonce_hash == nonce else LINK_BY_NONCE.first(nonce)
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


def check_newest(secret_key: str, token: str, max_age: int) -> Access:
    """A link that still speaks for its seat: signed, known, not expired, not revoked, and the
    newest the seat was sent (spent by a move is fine: a dropped seat's last link is spent by
    the default played for it). What "I am back" asks (`/turn/<t>/back`)."""
    access = check_readable(secret_key, token, max_age)
    if not is_newest(access.link):
        raise LinkError(410, "replaced", SPENT_MESSAGES["replaced"], link=access.link,
                        game_id=access.game_id, seat=access.seat)
    return access


def check_back(secret_key: str, token: str, max_age: int) -> Access:
    """A link that may bring its dropped seat's player back ("I am back"): readable (signed,
    known, not expired, not revoked) and speaking for the seat (`speaks_for_seat`); else
    LinkError (410 for an older link)."""
    access = check_readable(secret_key, token, max_age)
    if not speaks_for_seat(access.link):
        raise LinkError(410, "replaced", SPENT_MESSAGES["replaced"], link=access.link,
                        game_id=access.game_id, seat=access.seat)
    return access


def speaks_for_seat(link: Link) -> bool:
    """Whether `link` may bring its seat's player back: the newest link the seat was sent, or
    any sent since its drop was mailed, the drop mail's own link included (moves played or
    asked after the drop issue newer links; the drop mail's must still work). A link from
    before the drop — an old or forwarded mail — may not, unless it is the newest."""
    if is_newest(link):
        return True
    drop = (Link.select(Link.id).where(Link.game == link.game_id, Link.seat == link.seat,
                                       Link.source == BACK)
            .order_by(Link.id.desc()).first())
    return drop is not None and link.id >= drop.id


def speaks_for_ending(link: Link) -> bool:
    """Whether `link` may resign its seat or answer a proposal to abandon the game: the newest
    link the seat was sent, or the newest that asked it to agree (ASKED). An older or
    forwarded mail's link only reads."""
    if is_newest(link):
        return True
    asked = (Link.select(Link.id).where(Link.game == link.game_id, Link.seat == link.seat,
                                        Link.source == ASKED)
             .order_by(Link.id.desc()).first())
    return asked is not None and asked.id == link.id


def check_ending(secret_key: str, token: str, max_age: int) -> Access:
    """A link that may end the game for its seat (`speaks_for_ending`), else LinkError."""
    access = check_readable(secret_key, token, max_age)
    if not speaks_for_ending(access.link):
        raise LinkError(410, "replaced", SPENT_MESSAGES["replaced"], link=access.link,
                        game_id=access.game_id, seat=access.seat)
    return access


def has_live(game: Game, seat: Seat) -> bool:
    """Whether the seat holds a link that acts now (issued, not spent, not expired)."""
    return (Link.select(Link.id).where(Link.game == game, Link.seat == seat.index,
                                       Link.spent_at.is_null(), Link.expires_at > utcnow())
            .exists())


def newest(game_id: int, seat: int) -> Link | None:
    """The latest link issued to `seat` in the game to play with (a drop mail's is not)."""
    return (Link.select().where(Link.game == game_id, Link.seat == seat,
                                Link.source.not_in(ASIDE))
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
#
# The game keeps a random value (`host_nonce_hash`); the host link's nonce is made from it with
# the secret key, so that every host mail can carry the game's live host link without any row
# keeping a usable token (the database alone cannot make one). Issuing anew replaces the value:
# every older host link stops working. (Links issued before this kept the nonce's hash there;
# they go on working until the link is issued anew.)

def _host_nonce(secret_key: str, game_id: int, value: str) -> str:
    return hmac.new(secret_key.encode(), f"{HOST_SALT}:{game_id}:{value}".encode(),
                    hashlib.sha256).hexdigest()


def issue_host(secret_key: str, game: Game) -> str:
    """A new host link for `game` (the caller saves the game): older host links stop."""
    game.host_nonce_hash = secrets.token_hex(32)
    return host_token(secret_key, game)


def host_token(secret_key: str, game: Game) -> str:
    """The game's live host link (a fresh signature over the same nonce: it revokes nothing)."""
    nonce = _host_nonce(secret_key, game.id, game.host_nonce_hash)
    return _serializer(secret_key, HOST_SALT).dumps({"g": game.id, "n": nonce})


def check_host(secret_key: str, token: str, max_age: int) -> int:
    """The game id of a valid host token, or LinkError(403)."""
    try:
        data = _serializer(secret_key, HOST_SALT).loads(token, max_age=max_age)
    except SignatureExpired:
        raise LinkError(410, "expired", "This host link has expired.") from None
    except BadSignature:
        raise LinkError(403, "tampered", "This host link is not valid.") from None
    game = Game.get_or_none(Game.id == data.get("g")) \
        if isinstance(data, dict) and isinstance(data.get("g"), int) else None
    nonce = str(data.get("n")) if isinstance(data, dict) else ""
    if game is None or not game.host_nonce_hash or not (
            hmac.compare_digest(_host_nonce(secret_key, game.id, game.host_nonce_hash).encode(),
                                nonce.encode())
            or hmac.compare_digest(game.host_nonce_hash.encode(), hash_nonce(nonce).encode())):
        raise LinkError(403, "unknown", "This host link is not known here.")
    return game.id
