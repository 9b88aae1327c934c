"""How reliably each player answers, as the host page and the home page show it: the median
time from being asked to moving and the deadlines missed, over the player's recent games (as
Rally the Troops and webDiplomacy show them). Read from the links (when a decision's first
link was made, when the player's own move spent one) and the log (the defaults played at a
deadline): what everyone at the table could have timed; never anything that depends on a
hand."""
from __future__ import annotations

import datetime as dt
import statistics
from dataclasses import dataclass

from peewee import fn

from ..db.models import Event, Link, Seat
from ..validate import address_key

RECENT_GAMES = 10           # a player's newest games counted


@dataclass(frozen=True)
class Answers:
    median: dt.timedelta | None     # None: no answer of their own yet
    answered: int                   # decisions they answered themselves
    missed: int                     # deadlines that passed (their default move was played)
    games: int                      # games counted


def answers_of(addresses) -> dict[str, Answers]:
    """`address_key(address)` -> Answers, for every address that has a seat here."""
    keys = sorted({address_key(a) for a in addresses if a})
    if not keys:
        return {}
    recent: dict[str, list[tuple[int, int]]] = {}      # key -> [(game, seat)], newest first
    for game_id, index, email in (Seat.select(Seat.game, Seat.index, Seat.email)
                                  .where(fn.LOWER(Seat.email).in_(keys),
                                         Seat.bot_level.is_null())
                                  .order_by(Seat.game.desc()).tuples()):
        seats = recent.setdefault(address_key(email), [])
        if len(seats) < RECENT_GAMES:
            seats.append((game_id, index))
    wanted = {pair for seats in recent.values() for pair in seats}
    waits, missed = _decisions(sorted({game for game, _seat in wanted}), wanted)
    return {key: Answers(median=_median([w for pair in seats for w in waits.get(pair, [])]),
                         answered=sum(len(waits.get(pair, [])) for pair in seats),
                         missed=sum(missed.get(pair, 0) for pair in seats), games=len(seats))
            for key, seats in recent.items()}


MISSED_BY = ("deadline", "host")    # an event's played_by when a deadline passed (chain.PLAYED_BY)


def _decisions(games: list[int], wanted: set):
    """(game, seat) -> how long each decision the player answered waited (from its first link:
    the turn mail, or the page that opened it, to the move that spent one); and (game, seat)
    -> deadlines missed (a default played at the deadline, or by the host after it)."""
    asked: dict[tuple, dt.datetime] = {}
    moved: dict[tuple, dt.datetime] = {}
    for game, seat, turn, created, spent, by in (
            Link.select(Link.game, Link.seat, Link.turn_seq, Link.created_at, Link.spent_at,
                        Link.spent_by)
            .where(Link.game.in_(games)).tuples()):
        if (game, seat) not in wanted:
            continue
        decision = (game, seat, turn)
        asked[decision] = min(created, asked.get(decision, created))
        if by == "you" and spent is not None:
            moved[decision] = min(spent, moved.get(decision, spent))
    waits: dict[tuple[int, int], list[dt.timedelta]] = {}
    for decision, at in moved.items():
        waits.setdefault(decision[:2], []).append(max(at - asked[decision], dt.timedelta(0)))
    missed = (Event.select(Event.game, Event.seat, fn.COUNT(Event.seq))
              .where(Event.game.in_(games), Event.timeout == True,  # noqa: E712
                     Event.played_by.in_(MISSED_BY) | Event.played_by.is_null())
              .group_by(Event.game, Event.seat).tuples())
    return waits, {(game, seat): n for game, seat, n in missed if (game, seat) in wanted}


def _median(waits: list[dt.timedelta]) -> dt.timedelta | None:
    if not waits:
        return None
    return dt.timedelta(seconds=statistics.median(w.total_seconds() for w in waits))


def at_the_table(seats: list[Seat]) -> list[tuple[str, Answers]]:
    """(name, Answers) of every player (not the computer) seated beside `seats` in their
    running games, the owner of `seats` too, each once: the home page's table."""
    games = sorted({seat.game_id for seat in seats})
    if not games:
        return []
    named: dict[str, str] = {}
    for name, email in (Seat.select(Seat.name, Seat.email)
                        .where(Seat.game.in_(games), Seat.bot_level.is_null())
                        .order_by(Seat.game.desc()).tuples()):
        if email:
            named.setdefault(address_key(email), name)
    answers = answers_of(named)
    return [(named[key], answers[key]) for key in sorted(named, key=lambda k: named[k].lower())
            if key in answers]
