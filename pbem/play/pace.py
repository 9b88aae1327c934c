"""Pace: reminders and timeouts driven by the database and the clock (a host's choices for a late
seat and the pause are in hosting.py, vacations in vacations.py).

`run_pass(now)` is the pace pass that `pbem pace`, `pbem mail send` and every loop of
`pbem mail worker` start with. It is idempotent and race-free: each game is settled in its own
write transaction holding the game's lock (SELECT ... FOR UPDATE SKIP LOCKED on PostgreSQL, so a
second worker passes a game the first one holds; BEGIN IMMEDIATE on SQLite, so the second waits
and then finds the work done), and every step is recorded on the seat (`reminded_at`,
`late_at`, `missed`, `dropped`) in the same transaction as the mail or the move it causes.
Every function takes `now`, so tests move the clock instead of sleeping.
"""
from __future__ import annotations

import datetime as dt
import logging

from . import announce, clock, digest, moves, outbox, quiet, webhooks
from ..log import ending, store
from ..db.database import database_now, is_sqlite, lost_connection
from ..errors import Refusal
from ..db.models import Game, Seat

log = logging.getLogger(__name__)


class PaceError(Refusal, ValueError):
    """A request that cannot be granted (said plainly to the player or the host)."""

    status = 409


# -- the pass -----------------------------------------------------------------------------------

def run_pass(now: dt.datetime | None = None) -> dict:
    """Send the reminders and play (or report) the timeouts due at `now`, then the daily
    digests that are due; counts of each. Each game is settled on its own: one that fails is
    recorded with its error (`failed`) and skipped until it moves, and the others go on.
    Without `now`, the database's clock: a host whose own clock jumps ahead plays no deadline
    early (it says so: pbem/play/health.py)."""
    now = now or database_now()
    counts = {"reminders": 0, "timeouts": 0, "late": 0, "dropped": 0, "failed": 0}
    for game_id in _games_with_work(now):
        try:
            with outbox.transaction():
                game = _lock(game_id)
                if game is not None and game.status == "running":
                    settle(game, now, counts)
            if game is not None and game.pace_error:
                _record_failure(game_id, None)          # it moved, and settles again
        except Exception as exc:  # noqa: BLE001 - one game's failure is that game's alone
            if lost_connection(exc):
                raise                   # the database went away: the whole pass fails
            log.exception("pace: game %s could not be settled", game_id)
            _record_failure(game_id, exc)
            counts["failed"] += 1
    counts["digests"] = digest.digest_pass(now)
    return counts


def _record_failure(game_id: int, exc: BaseException | None) -> None:
    """Keep the error (or clear it) with the move it happened at: the pass skips the game
    until that changes, and /health and pbem check name it."""
    error = "" if exc is None else f"{type(exc).__name__}: {exc}"[:500]
    with outbox.transaction():
        (Game.update(pace_error=error, pace_error_seq=None if exc is None else Game.seq)
         .where(Game.id == game_id).execute())


def failed_games() -> list[Game]:
    """The games the pace pass failed on and skips until they move."""
    return list(Game.select().where(Game.pace_error != "", Game.status == "running")
                .order_by(Game.id))


def _games_with_work(now: dt.datetime) -> list[int]:
    due = ((Seat.remind_at <= now) & Seat.reminded_at.is_null()) | \
          ((Seat.deadline <= now) & Seat.late_at.is_null()) | (Seat.dropped == True)  # noqa: E712
    query = (Seat.select(Seat.game).join(Game)
             .where(Game.status == "running", Game.paused_at.is_null(),
                    Game.pace_error_seq.is_null() | (Game.pace_error_seq != Game.seq),
                    Seat.asked_at.is_null(False), due)
             .distinct())
    return sorted({row.game_id for row in query})


def _lock(game_id: int) -> Game | None:
    """The game row, locked for this transaction; None when another pass holds it."""
    query = Game.select().where(Game.id == game_id)
    if not is_sqlite():
        query = query.for_update(skip_locked=True)   # SQLite: BEGIN IMMEDIATE serialises
    return query.first()


def settle(game: Game, now: dt.datetime, counts: dict | None = None) -> None:
    """Everything due in one game (the caller holds its lock): reminders, then deadlines one
    at a time (a timeout move changes who is asked next)."""
    counts = counts if counts is not None else {"reminders": 0, "timeouts": 0, "late": 0,
                                                "dropped": 0}
    for _step in range(store.MAX_FORCED_MOVES):
        if game.status != "running" or game.paused_at is not None:
            return
        rules = store.rules_of(game)
        state = rules.load(game.state)
        seats = list(game.seats.order_by(Seat.index))
        if moves.pause_if_nobody_plays(game, seats, now):
            return
        acted = False
        for seat in (seats[i] for i in rules.to_act(state)):
            if seat.asked_at is None or seat.bot_level is not None or \
                    (game.on_timeout == "bot" and seat.dropped) or \
                    clock.sync_hold(game, seat, clock.vacation_of(seat.email), now) or \
                    (not seat.dropped and quiet.is_quiet(clock.quiet_of(game, seat), now)):
                continue    # nobody waits for a computer (pbem/play/computers.py), nor wakes
                            # a player in their quiet hours (pbem/play/quiet.py)
            if seat.late_at is None and (seat.dropped or (seat.deadline is not None
                                                          and seat.deadline <= now)):
                acted = _deadline(game, rules, state, seat, seats, now, counts)
                if acted:
                    break
            elif seat.remind_at is not None and seat.remind_at <= now and \
                    seat.reminded_at is None:
                _remind(game, rules, state, seat, seats, now)
                counts["reminders"] += 1
        if not acted:
            return
        game = Game.get_by_id(game.id)


def _remind(game, rules, state, seat, seats, now) -> None:
    seat.reminded_at = now
    seat.save()
    announce.turn_mail(game, seat, kind="reminder", now=now)


def _deadline(game, rules, state, seat, seats, now, counts) -> bool:
    """The seat's deadline passed (or it was dropped): True when a move was played."""
    if not seat.dropped:        # a dropped seat's moves are played at once: no news
        webhooks.post(game, "late", seats, seat=seat.index, asked_at=clock.iso(seat.asked_at))
    if game.on_timeout == "bot":
        _stand_in(game, seat, now, counts)
        return False
    if game.on_timeout == "auto" or seat.dropped:
        was_dropped = bool(seat.dropped)
        if play_seat_default(game, seat, now):
            counts["timeouts"] += 1
            counts["dropped"] += bool(seat.dropped) and not was_dropped
            return True
    seat.late_at = now                  # wait (or no safe default): the host decides
    seat.save()
    counts["late"] += 1
    announce.host_notice(game, seat, "late")
    return False


def _stand_in(game: Game, seat: Seat, now: dt.datetime, counts: dict) -> None:
    """`bot`: the computer answers the missed decision (the next bot pass plays it, outside
    this lock); the drop_after-th miss in a row hands it the seat until its player is back."""
    missed = seat.missed + 1
    drop = missed >= game.drop_after
    Seat.update(missed=missed, dropped=drop, stand_in=True, late_at=now) \
        .where(Seat.id == seat.id).execute()
    seat.missed, seat.dropped, seat.stand_in, seat.late_at = missed, drop, True, now
    counts["computer"] = counts.get("computer", 0) + 1
    if drop:
        announce.host_notice(game, seat, "dropped")
        announce.dropped(game, seat, missed)


def play_seat_default(game: Game, seat: Seat, now: dt.datetime, count_miss: bool = True,
                      why: str | None = None) -> bool:
    """Play the seat's default move; under `auto`, the drop_after-th miss in a row drops it.
    `why`: what the log line says (chain.TIMEOUT_MARKS); by default the deadline, or for a
    dropped seat whether the host handed it over or its player stopped answering."""
    absent = bool(seat.dropped)
    if why is None and absent:
        why = moves.why_dropped(game, seat)
    counted = not seat.dropped and count_miss
    before = (seat.missed, seat.dropped)
    if counted:     # first, so that the mails this move causes know the count
        missed = seat.missed + 1
        drop = game.on_timeout == "auto" and missed >= game.drop_after
        Seat.update(missed=missed, dropped=drop).where(Seat.id == seat.id).execute()
        seat.missed, seat.dropped = missed, drop
    if moves.play_default(game, seat.index, now, absent=absent, why=why) is None:
        if counted:
            Seat.update(missed=before[0], dropped=before[1]).where(Seat.id == seat.id).execute()
            seat.missed, seat.dropped = before
        return False
    if counted and seat.dropped:
        announce.host_notice(game, seat, "dropped")
        announce.dropped(game, seat, seat.missed)
    return True


# -- a dropped player is back -----------------------------------------------------------------

def come_back(game_id: int, seat_index: int) -> bool:
    """The player of a dropped seat is back (through any of their links): they play for
    themselves again. True when the seat had been dropped. A player who resigned is not back:
    their seat stays played for them (pbem/log/ending.py)."""
    with outbox.transaction():
        game = Game.get_or_none(Game.id == game_id)
        if game is None or seat_index in ending.resigned(game.ending):
            return False
        return bool(Seat.update(dropped=False, handed_over=False, missed=0, stand_in=False)
                    .where(Seat.game == game_id, Seat.index == seat_index,
                           (Seat.dropped == True) | (Seat.stand_in == True))  # noqa: E712
                    .execute())
