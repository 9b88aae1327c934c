"""Pace: reminders and timeouts driven by the database and the clock, vacations, and pauses.

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
import math

from flask import current_app

from . import announce, clock, links, moves, outbox, webhooks
from ..log import store
from ..db.database import database_now, is_sqlite, lost_connection
from ..errors import Refusal
from ..db.models import Game, Seat, Vacation, utcnow
from ..validate import address_key

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
    counts["digests"] = announce.digest_pass(now)
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
                    clock.sync_hold(game, seat, clock.vacation_of(seat.email), now):
                continue                # nobody waits for a computer (pbem/play/computers.py)
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
        if _play_default(game, seat, now):
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


def _play_default(game: Game, seat: Seat, now: dt.datetime, count_miss: bool = True,
                  why: str | None = None) -> bool:
    """Play the seat's default move; under `auto`, the drop_after-th miss in a row drops it.
    `why`: what the log line says (chain.TIMEOUT_MARKS); by default the deadline, or for a
    dropped seat whether the host handed it over or its player stopped answering."""
    absent = bool(seat.dropped)
    if why is None and absent:
        why = "handover" if seat.handed_over else "absent"
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


# -- what a host may do ---------------------------------------------------------------------------

def _host_change(game_id: int, change, now: dt.datetime | None = None):
    now = now or utcnow()
    with outbox.transaction():
        game = store.locked_game(game_id)
        if game.status != "running":
            raise PaceError("the game is over")
        return change(game, now)


class TooEarly(PaceError):
    """A default move or a hand-over asked of the host before the seat's deadline passed (or,
    in a game without a pace, before it waited PBEM_HOST_WAIT_DAYS): `name` waits until
    `when`; `paced` says which rule applies."""

    def __init__(self, name: str, when: dt.datetime | None, paced: bool,
                 held: str | None = None):
        super().__init__(f"{name}'s clock stands still ({held})" if held else
                         f"{name}'s {'deadline' if paced else 'wait'} has not passed: "
                         f"this can be done from {clock.iso(when)}")
        self.name, self.when, self.paced, self.held = name, when, paced, held


def host_wait_days() -> float:
    return float(current_app.config["HOST_WAIT_DAYS"])


def _late_seat(game: Game, seat_index: int) -> Seat:
    rules = store.rules_of(game)
    seat = Seat.get_or_none(Seat.game == game, Seat.index == seat_index)
    if seat is None or seat_index not in rules.to_act(rules.load(game.state)):
        raise PaceError("that seat is not asked anything now")
    return seat


def host_may_act_from(game: Game, seat: Seat, now: dt.datetime) -> dt.datetime | None:
    """From when the host may play the seat's default move or hand it over: its deadline in
    force (later by every hold), or in a game without a pace PBEM_HOST_WAIT_DAYS after it was
    asked; None while its clock stands still (a vacation, a pause) or it is not asked. A seat
    already reported late may be dealt with at once."""
    if seat.asked_at is None:
        return None
    if seat.late_at is not None:
        return seat.late_at
    if game.pace_days is None:
        return seat.asked_at + dt.timedelta(days=host_wait_days())
    in_force = clock.clock_of(game, seat, now)
    if in_force is None or in_force.held is not None or in_force.deadline is None:
        return None
    return in_force.deadline


def _check_host_may_act(game: Game, seat: Seat, now: dt.datetime) -> None:
    """Default moves and hand-overs only for a seat whose deadline passed (or, without a
    pace, that waited PBEM_HOST_WAIT_DAYS), else TooEarly: nothing is written."""
    since = host_may_act_from(game, seat, now)
    if since is None:
        in_force = clock.clock_of(game, seat, now)
        raise TooEarly(seat.name, in_force.away_until if in_force else None,
                       game.pace_days is not None, in_force.held if in_force else "paused")
    if since > now:
        raise TooEarly(seat.name, since, game.pace_days is not None)


def extend(game_id: int, seat_index: int, now: dt.datetime | None = None) -> dt.datetime:
    """Give a late seat one more pace from now (a new reminder, and a new notice if missed);
    its player is mailed the new deadline. Returns that deadline."""
    def change(game, now):
        seat = _late_seat(game, seat_index)
        pace = clock.pace_delta(game)
        if pace is None or seat.deadline is None:
            raise PaceError("this game has no deadlines")
        seat.deadline = max(seat.deadline, now) + pace
        seat.remind_at = seat.deadline - pace * (1 - clock.REMIND_AT)
        seat.reminded_at = seat.late_at = None
        seat.save()
        in_force = clock.clock_of(game, seat, now)
        deadline = in_force.deadline if in_force and in_force.deadline else seat.deadline
        announce.more_time(game, seat, deadline)
        return deadline
    return _host_change(game_id, change, now)


def play_default_once(game_id: int, seat_index: int, now: dt.datetime | None = None) -> None:
    """The host plays the late seat's default move, once (logged as played by the host)."""
    def change(game, now):
        seat = _late_seat(game, seat_index)
        _check_host_may_act(game, seat, now)
        if not _play_default(game, seat, now, why="host"):
            raise PaceError("this game offers no default move here")
    _host_change(game_id, change, now)


def hand_over(game_id: int, seat_index: int, now: dt.datetime | None = None) -> None:
    """The late seat's default moves are played for it from now on, until its player acts
    again or the host undoes it (`undo_hand_over`); its player is told at once."""
    def change(game, now):
        seat = _late_seat(game, seat_index)
        _check_host_may_act(game, seat, now)
        seat.dropped, seat.handed_over, seat.late_at = True, True, None
        seat.save()
        announce.dropped(game, seat, seat.missed, by_host=True)
        settle(game, now)
    _host_change(game_id, change, now)


def undo_hand_over(game_id: int, seat_index: int, now: dt.datetime | None = None) -> None:
    """The host takes back a hand-over: the seat's player plays their own moves again. When it
    is asked something now, its clock starts afresh and it is mailed its turn."""
    def change(game, now):
        seat = Seat.get_or_none(Seat.game == game, Seat.index == seat_index)
        if seat is None or not (seat.dropped and seat.handed_over):
            raise PaceError("that seat was not handed over")
        seat.dropped, seat.handed_over, seat.missed = False, False, 0
        seat.save()
        rules = store.rules_of(game)
        if seat.index in rules.to_act(rules.load(game.state)):
            clock.start(game, seat, now)
            announce.turn_mail(game, seat)
        else:
            announce.given_back(game, seat)
    _host_change(game_id, change, now)


def pause(game_id: int, now: dt.datetime | None = None) -> bool:
    """Stop every clock of the game; False when it was paused already."""
    return _host_change(game_id, clock.pause, now)


def resume(game_id: int, now: dt.datetime | None = None) -> bool:
    """Let the clocks run again, each deadline later by the time the game stood still."""
    def change(game, now):
        if game.paused_at is None:
            return False
        game.paused_at, game.resumed_at = None, now
        game.pace_error, game.pace_error_seq = "", None      # the host asks for another try
        game.save()
        if clock.nobody_plays(list(game.seats)):     # paused as nobody played: all back,
            Seat.update(dropped=False, handed_over=False, missed=0, default_turn=None).where(
                Seat.game == game).execute()
            for seat in game.seats.where(Seat.asked_at.is_null(False)):
                clock.start(game, seat, now)                # with a whole pace from now
        for seat in game.seats.where(Seat.asked_at.is_null(False)):
            clock.sync_hold(game, seat, clock.vacation_of(seat.email), now)
            if seat.bot_level is None and not seat.dropped and not links.has_live(game, seat):
                announce.turn_mail(game, seat, now=now)     # its last link was spent for it
        settle(game, now)
        return True
    return _host_change(game_id, change, now)


def come_back(game_id: int, seat_index: int) -> bool:
    """The player of a dropped seat is back (through any of their links): they play for
    themselves again. True when the seat had been dropped."""
    with outbox.transaction():
        return bool(Seat.update(dropped=False, handed_over=False, missed=0, stand_in=False)
                    .where(Seat.game == game_id, Seat.index == seat_index,
                           (Seat.dropped == True) | (Seat.stand_in == True))  # noqa: E712
                    .execute())


# -- vacations ------------------------------------------------------------------------------------

def bank_days() -> float:
    return float(current_app.config["VACATION_DAYS"])


def _vacation_row(address: str, now: dt.datetime) -> Vacation:
    """The address's row, created or turned to this year's bank (unused days do not carry)."""
    address = address_key(address)
    # the first vacation of an address, asked twice at once: one row, and the second waits
    # for the first to commit (its row locked), then sees it
    Vacation.insert(email=address, year=now.year, used_days=0).on_conflict_ignore().execute()
    query = Vacation.select().where(Vacation.email == address)
    row = query.get() if is_sqlite() else query.for_update().get()
    if row.year != now.year and not clock.is_away(row, now):
        row.year, row.used_days = now.year, 0
        row.save()
    return row


def vacation(address: str, now: dt.datetime | None = None) -> dict:
    """The address's bank this year: {"days_per_year", "used", "left", "away_until"}."""
    now = now or utcnow()
    row = clock.vacation_of(address)
    used = 0.0 if row is None or (row.year != now.year and not clock.is_away(row, now)) \
        else row.used_days
    return {"days_per_year": bank_days(), "used": used, "left": max(bank_days() - used, 0.0),
            "away_until": row.away_until if clock.is_away(row, now) else None,
            "bot": bool(clock.away_with_bot(row, now))}


def _seats_of(address: str):
    address = address_key(address)
    return [s for s in Seat.select().join(Game).where(Game.status == "running",
                                                      Seat.asked_at.is_null(False))
            if address_key(s.email) == address]


def _sync_seats(address: str, row: Vacation, now: dt.datetime) -> None:
    for seat in _seats_of(address):
        clock.sync_hold(seat.game, seat, row, now)


def go_away(address: str, days, now: dt.datetime | None = None, bot: bool = False) -> Vacation:
    """Start a vacation of `days` (a positive number within the bank): the address's deadlines
    stand still meanwhile, in every game. `bot`: the computer plays the address's seats
    meanwhile instead (nobody waits, so no days of the bank are used; at most a year)."""
    given = now
    address = address_key(address)
    if "@" not in address:
        raise PaceError(f"{address!r} is not an email address")
    if isinstance(days, bool) or not isinstance(days, (int, float)) or not math.isfinite(days) \
            or days <= 0:
        raise PaceError(f"days away must be a positive number, not {days!r}")
    with outbox.transaction():
        row = _vacation_row(address, given or utcnow())      # locked: one request at a time
        now = given or utcnow()    # read after the lock: a request that waited sees the one before
        if clock.is_away(row, now):
            raise PaceError(f"{address} is away already, until {clock.iso(row.away_until)}")
        left = bank_days() - row.used_days
        if bot and days > clock.MAX_PACE_DAYS:
            raise PaceError(f"the computer stands in for at most {clock.MAX_PACE_DAYS} days")
        if not bot and days > left + 1e-9:
            raise PaceError(f"only {days_text(left)} vacation days are left this year, not {days}")
        _sync_seats(address, row, now)       # first end the holds of an earlier vacation
        row.away_from, row.away_until = now, now + dt.timedelta(days=days)
        row.bot = bool(bot)
        if not bot:
            row.used_days += days
        row.save()
        _sync_seats(address, row, now)
    return row


def come_home(address: str, now: dt.datetime | None = None) -> bool:
    """End a vacation early; the days not used go back to the bank. False if not away."""
    now = now or utcnow()
    with outbox.transaction():
        row = clock.vacation_of(address)
        if not clock.is_away(row, now):
            return False
        unused = (row.away_until - now) / dt.timedelta(days=1)
        if not row.bot:                  # a computer's stand-in used no days
            row.used_days = max(row.used_days - unused, 0.0)
        row.away_until = now
        row.save()
        _sync_seats(address, row, now)
    return True


def days_text(value: float) -> str:
    """Days as a person reads them: to a tenth of a day (26.9987 -> "27", 2.54 -> "2.5")."""
    return f"{round(value, 1):g}"
