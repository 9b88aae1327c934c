"""Table talk: short messages between a game's players, kept beside the log.

Messages are not game events: the hash-chained log stays the rules' record. They are plain
text, length- and rate-limited, exported with the game, and reach the other players in their
next mail (turn, reminder or digest) under "Messages" — never in a mail of their own.
"""
from __future__ import annotations

import datetime as dt
import unicodedata

from peewee import fn

from ..db.database import write_transaction
from ..errors import Refusal
from ..db.models import Game, Message, Seat, utcnow
from ..db.prepared import Prepared
from . import limits
from ..log import store

MAX_LENGTH = 500                         # characters in one message
MAX_LINES = 12
RATE_COUNT, RATE_WINDOW = 6, dt.timedelta(minutes=10)   # per seat
SHOWN = 200                              # the latest messages a page or the API shows


class TalkError(Refusal, ValueError):
    """A message that cannot be posted; `status` is the HTTP answer (400 or 429)."""

    def __init__(self, status: int, message: str):
        super().__init__(message, status)


def clean(text) -> str:
    """The message as it will be kept, or TalkError(400) saying what is wrong with it."""
    if not isinstance(text, str):
        raise TalkError(400, "a message is a text")
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        raise TalkError(400, "the message is empty")
    if len(text) > MAX_LENGTH:
        raise TalkError(400, f"a message has at most {MAX_LENGTH} characters")
    if "\x00" in text:                  # before the rest: no database can keep a NUL
        raise TalkError(400, "the message contains a NUL character")
    if text.count("\n") >= MAX_LINES:
        raise TalkError(400, f"a message has at most {MAX_LINES} lines")
    for char in text:
        if char not in "\n\t" and unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Cs"):
            raise TalkError(400, "the message contains control characters")
    return text


def post(game_id: int, seat: int, text, now: dt.datetime | None = None) -> Message:
    """Keep one message by `seat`; TalkError when it is malformed or the seat posts too often."""
    text = clean(text)
    now = now or utcnow()
    with write_transaction():
        game = Game.get_by_id(game_id)
        if not 0 <= seat < game.players:
            raise TalkError(400, "no such seat")
        limits.serialize("talk", f"{game.id}:{seat}")   # parallel posts count one another
        recent = (Message.select()
                  .where(Message.game == game, Message.seat == seat,
                         Message.created_at > now - RATE_WINDOW).count())
        if recent >= RATE_COUNT:
            raise TalkError(429, "too many messages: wait a few minutes before the next one")
        return Message.create(game=game, seat=seat, text=text, created_at=now)


def _names(game: Game) -> list[str]:
    return [store.seat_name(s) for s in game.seats.order_by(Seat.index)]


def as_dict(message: Message, names: list[str]) -> dict:
    author = names[message.seat] if message.seat is not None and message.seat < len(names) else ""
    return {"author": author, "text": message.text,
            "at": message.created_at.replace(microsecond=0).isoformat() + "Z"}


LATEST = Prepared(Message, lambda game_id: Message.select().where(Message.game == game_id)
                  .order_by(Message.id.desc()).limit(SHOWN))


def listing(game: Game, names: list[str] | None = None) -> list[dict]:
    """The game's latest messages, oldest first, as {"author", "text", "at"}."""
    names = _names(game) if names is None else names
    latest = LATEST.models(game.id)
    return [as_dict(m, names) for m in reversed(latest)]


def from_others(game: Game, seat_index: int) -> int:
    """How many of the game's messages are not `seat_index`'s own (the home page's count)."""
    return (Message.select().where(Message.game == game,
                                   Message.seat.is_null() | (Message.seat != seat_index))
            .count())


def from_others_in(seats: list[Seat]) -> dict[tuple[int, int], int]:
    """`from_others` for many seats at once, in one query: {(game id, seat index): count}."""
    games = sorted({seat.game_id for seat in seats})
    totals: dict[int, int] = {}
    own: dict[tuple[int, int], int] = {}
    if games:
        for row in (Message.select(Message.game, Message.seat, fn.COUNT(Message.id).alias("n"))
                    .where(Message.game.in_(games)).group_by(Message.game, Message.seat)
                    .namedtuples()):
            totals[row.game] = totals.get(row.game, 0) + row.n
            if row.seat is not None:
                own[(row.game, row.seat)] = row.n
    return {(seat.game_id, seat.index): totals.get(seat.game_id, 0)
            - own.get((seat.game_id, seat.index), 0) for seat in seats}


def mark_mailed(game: Game, seat: Seat) -> list[int]:
    """The messages `seat` has not had in a mail yet, as the id range [after, upto] that the
    mail carrying them shows (`mailed_between`); marks them mailed (inside the caller's
    transaction, beside the outbox row that carries them)."""
    after = seat.talk_mailed_upto
    last = (Message.select(Message.id).where(Message.game == game)
            .order_by(Message.id.desc()).first())
    upto = last.id if last is not None else after
    if upto > after:
        Seat.update(talk_mailed_upto=upto).where(Seat.id == seat.id).execute()
        seat.talk_mailed_upto = upto
    return [after, max(upto, after)]


def mailed_between(game: Game, seat_index: int, span, names: list[str]) -> list[dict]:
    """The other players' messages that a mail marked as carried (`mark_mailed`'s range)."""
    after, upto = span or (0, 0)
    return [as_dict(m, names) for m in MAILED_BETWEEN.models(game.id, after, upto, seat_index)]


# read for every mail that may carry messages: its SQL built once
MAILED_BETWEEN = Prepared(Message, lambda game_id, after, upto, seat: Message.select()
                          .where(Message.game == game_id, Message.id > after, Message.id <= upto,
                                 Message.seat != seat)
                          .order_by(Message.id).limit(SHOWN))


# -- export and import -------------------------------------------------------------------------

def export(game: Game) -> list[dict]:
    return [{"seat": m.seat, "text": m.text,
             "at": m.created_at.isoformat(timespec="microseconds")}
            for m in Message.select().where(Message.game == game).order_by(Message.id)]


def restore(game: Game, records) -> None:
    """Messages from an exported record (validated like new ones); ValueError when malformed."""
    if records is None:
        return
    if not isinstance(records, list):
        raise ValueError("\"messages\" must be a list")
    for number, raw in enumerate(records):
        if not isinstance(raw, dict):
            raise ValueError(f"message {number}: not an object")
        seat = raw.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.players:
            raise ValueError(f"message {number}: no such seat")
        try:
            at = dt.datetime.fromisoformat(str(raw.get("at")))
        except ValueError:
            raise ValueError(f"message {number}: \"at\" is not an ISO time") from None
        try:
            text = clean(raw.get("text"))
        except TalkError as exc:
            raise ValueError(f"message {number}: {exc}") from None
        Message.create(game=game, seat=seat, text=text, created_at=at.replace(tzinfo=None))
