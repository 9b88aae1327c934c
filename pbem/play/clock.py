"""Each seat's decision clock: when it was asked, its reminder time and deadline, and what
stops it (the host paused the game, the player is on vacation).

Pure bookkeeping on the models, in the caller's transaction: the store starts and stops the
clocks as seats are asked, pbem/play/pace.py acts on them, and pages and mails read them.

A clock that stops keeps its deadline and notes `held_at`; when it runs again the deadline and
the reminder move later by exactly the time it stood, taken from the recorded start and end of
the vacation or pause (so a pace pass that runs late still shifts by the right amount).
"""
from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

from .. import validate
from ..db.models import Game, PlayerSettings, Seat, Vacation, utcnow
from ..db.prepared import Prepared, save_whole
from ..log.store import seat_name
from ..validate import address_key
from . import bank as banks, quiet as quiet_hours

REMIND_AT = 0.75           # the reminder goes out when this share of the seat's time has passed
POLICIES = ("wait", "auto", "bot")   # at a missed deadline: the host, the default, the computer
STAND_IN_LEVEL = 2         # the computer that plays for a player who is late or away
MAX_PACE_DAYS = 365
MAX_DROP_AFTER = 100


def pace_delta(game: Game) -> dt.timedelta | None:
    return None if game.pace_days is None else dt.timedelta(days=game.pace_days)


def check_pace(days=None, on_timeout: str | None = "wait", drop_after=3,
               quiet_hours=True, bank=None) -> dict:
    """A game's pace, or ValueError naming the option at fault. `quiet_hours`: whether each
    player's quiet hours stop their clock (pbem/play/quiet.py); `bank`: a clock with a bank
    ({"days", "increment", "cap"}, pbem/play/bank.py) instead of `days` per decision."""
    if not isinstance(quiet_hours, bool):
        raise validate.Invalid(f"quiet_hours is true or false, not {quiet_hours!r}")
    if bank is not None:
        if not isinstance(bank, dict) or not set(bank) <= {"days", "increment", "cap"}:
            raise validate.Invalid("a bank is {\"days\", \"increment\", \"cap\"}")
        bank = banks.check(bank.get("days"), bank.get("increment"), bank.get("cap"))
        days = bank["days"]
    if days is not None:
        if isinstance(days, bool) or not isinstance(days, (int, float)) or \
                not math.isfinite(days) or not 0 < days <= MAX_PACE_DAYS:
            raise validate.Invalid(f"--pace takes a positive number of days (at most {MAX_PACE_DAYS}), "
                             f"not {days!r}")
        days = float(days)
    if on_timeout not in POLICIES:
        raise validate.Invalid(f"--on-timeout takes wait, auto or bot, not {on_timeout!r}")
    if isinstance(drop_after, bool) or not isinstance(drop_after, int) or \
            not 1 <= drop_after <= MAX_DROP_AFTER:
        raise validate.Invalid(f"--drop-after takes a whole number from 1 to {MAX_DROP_AFTER}, "
                         f"not {drop_after!r}")
    return {"days": days, "on_timeout": on_timeout, "drop_after": drop_after,
            "quiet_hours": quiet_hours, "bank": bank}


def pace_of_record(raw) -> dict:
    """The pace of an exported record (records from before paces existed have none)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise ValueError("the record's \"pace\" must be an object")
    return {"days": raw.get("days"), "on_timeout": raw.get("on_timeout", "wait"),
            "drop_after": raw.get("drop_after", 3), "quiet_hours": raw.get("quiet_hours", True),
            "bank": raw.get("bank")}


# -- starting and stopping clocks (called by the store inside its write transaction) -------------

def start(game: Game, seat: Seat, now: dt.datetime) -> None:
    """The seat is asked a new decision now: a fresh clock, reminder and deadline (in a game
    with a bank, where what the seat's bank holds runs out: pbem/play/bank.py)."""
    if game.bank and seat.asked_at is not None:     # asked again (a timeout played): the
        _spend_bank(game, seat, now)                 # decision before spent its bank
    pace = banks.left_at_start(game, seat) if game.bank else pace_delta(game)
    seat.asked_at, seat.held_at, seat.reminded_at, seat.late_at = now, None, None, None
    quiet = quiet_of(game, seat) if pace is not None else None
    seat.deadline = None if pace is None else quiet_hours.after_active(quiet, now, pace)
    seat.remind_at = None if pace is None else \
        quiet_hours.after_active(quiet, now, pace * REMIND_AT)
    hold_if_needed(game, seat, vacation_of(seat.email), now)
    save_whole(seat)


def stop(seat: Seat, game: Game | None = None, now: dt.datetime | None = None) -> None:
    """The seat is no longer asked (as of `now`): its clock stops; in a game with a bank
    (`game`), what the decision spent is taken from the seat's bank and the increment given
    back."""
    if game is not None and game.bank and seat.asked_at is not None:
        _spend_bank(game, seat, now or utcnow())
    seat.asked_at = seat.remind_at = seat.deadline = seat.held_at = None
    seat.reminded_at = seat.late_at = None
    save_whole(seat)


def after_change(game: Game, to_act: list[int], before: list[int], restart: set[int],
                 now: dt.datetime, seats: list[Seat] | None = None) -> None:
    """Start the clocks of seats newly asked (or asked again after a timeout move); stop those of
    seats no longer asked. A seat that stays asked after its own move keeps its clock: the turn
    is one decision (`seats`: the game's seats, read under the game's lock by the caller)."""
    for seat in (game.seats.order_by(Seat.index) if seats is None else seats):
        if seat.index in to_act:
            if seat.index not in before or seat.index in restart or seat.asked_at is None:
                start(game, seat, now)
        elif seat.asked_at is not None:
            stop(seat, game, now)


def _spend_bank(game: Game, seat: Seat, now: dt.datetime) -> None:
    """The decision asked of the seat ends now: its bank keeps what was left of it (the time to
    the deadline in force, outside the player's quiet hours) plus the increment."""
    if seat.deadline is None:
        return
    in_force = seat.deadline + stood_still(game, seat, vacation_of(seat.email), now)
    banks.after_decision(game, seat, quiet_hours.active_between(quiet_of(game, seat), now,
                                                               in_force))


# -- holds: vacations and paused games ----------------------------------------------------------

def nobody_plays(seats: list[Seat]) -> bool:
    """Every seat of the game is dropped (its player stopped answering, or the host handed it
    over): default moves would only answer default moves, in some games for ever, so the
    game pauses instead (`pause`) until the host resumes it."""
    return bool(seats) and all(seat.dropped for seat in seats)


def pause(game: Game, now: dt.datetime) -> bool:
    """Stop every clock of the game (the caller holds its lock); False when it was paused
    already."""
    if game.paused_at is not None:
        return False
    for seat in game.seats.where(Seat.asked_at.is_null(False)):
        sync_hold(game, seat, vacation_of(seat.email), now)     # end stale holds
    game.paused_at = now
    game.save()
    for seat in game.seats.where(Seat.asked_at.is_null(False)):
        sync_hold(game, seat, vacation_of(seat.email), now)
    return True


QUIET_OF = Prepared(PlayerSettings, lambda address: PlayerSettings.select(
    PlayerSettings.time_zone, PlayerSettings.quiet_start, PlayerSettings.quiet_end,
    PlayerSettings.quiet_days).where(PlayerSettings.email == address).limit(1))


def quiet_of(game: Game, seat: Seat) -> quiet_hours.Quiet | None:
    """The quiet hours that stop the seat's clock: its player's, where the game honours them
    (the computer's seats have none); None when there are none."""
    address = address_key(seat.email) if seat.email else ""
    if not game.quiet_hours or seat.bot_level is not None or not address:
        return None
    found = QUIET_OF.first(address)
    if found is None or not found.time_zone:
        return None
    chosen = quiet_hours.kept(found.time_zone, found.quiet_start, found.quiet_end,
                              found.quiet_days)
    return None if chosen.empty else chosen


VACATION_OF = Prepared(Vacation, lambda address: Vacation.select()
                       .where(Vacation.email == address).limit(1))


def vacation_of(address: str) -> Vacation | None:
    address = address_key(address)
    return VACATION_OF.first(address) if address else None


def is_away(vacation: Vacation | None, now: dt.datetime) -> bool:
    return (vacation is not None and vacation.away_from is not None
            and vacation.away_from <= now < vacation.away_until)


def computer_level(game: Game, seat: Seat, vacation: Vacation | None,
                   now: dt.datetime) -> int | None:
    """The level of the computer that plays the seat's decisions now, or None: a computer's
    seat; a player's whose missed deadline it answers (`stand_in`), who was dropped in a game
    where the computer stands in, or who handed their seats to it while away."""
    if seat.bot_level is not None:
        return seat.bot_level
    if game.paused_at is not None:
        return None
    if seat.stand_in or (seat.dropped and game.on_timeout == "bot") or \
            away_with_bot(vacation, now):
        return STAND_IN_LEVEL
    return None


def away_with_bot(vacation: Vacation | None, now: dt.datetime) -> bool:
    """The address is away now and handed its seats to the computer meanwhile (--bot)."""
    return bool(vacation is not None and vacation.bot and is_away(vacation, now))


def _hold_starts(game: Game, vacation: Vacation | None, now: dt.datetime) -> list[dt.datetime]:
    starts = [game.paused_at] if game.paused_at is not None else []
    if is_away(vacation, now):
        starts.append(vacation.away_from)
    return starts


def hold_if_needed(game: Game, seat: Seat, vacation: Vacation | None, now: dt.datetime) -> bool:
    """Stop the seat's clock if the game is paused or its player is away (not saved here)."""
    starts = _hold_starts(game, vacation, now)
    if seat.held_at is None and starts and seat.asked_at is not None:
        seat.held_at = max(min(starts), seat.asked_at)
    return seat.held_at is not None


def sync_hold(game: Game, seat: Seat, vacation: Vacation | None, now: dt.datetime) -> bool:
    """Bring the seat's hold up to date and save it; True while its clock stands still."""
    if seat.asked_at is None:
        return False
    if seat.held_at is None:
        if hold_if_needed(game, seat, vacation, now):
            seat.save()
        return seat.held_at is not None
    if _hold_starts(game, vacation, now):
        return True
    stood = _hold_end(game, seat, vacation, now) - seat.held_at
    if seat.deadline is not None:       # later by the hold, never inside quiet hours
        quiet = quiet_of(game, seat)
        seat.deadline = quiet_hours.awake_at(quiet, seat.deadline + stood)
        seat.remind_at = quiet_hours.awake_at(quiet, seat.remind_at + stood)
    seat.held_at = None
    seat.save()
    return False


def _hold_end(game: Game, seat: Seat, vacation: Vacation | None, now: dt.datetime):
    """When the seat's finished hold ended: the recorded end of the vacation or of the pause
    (a pass that notices later still shifts by the right amount), else now."""
    ends = [t for t in (vacation.away_until if vacation else None, game.resumed_at)
            if t is not None and seat.held_at <= t <= now]
    return max(ends) if ends else now


def stood_still(game: Game, seat: Seat, vacation: Vacation | None, now: dt.datetime):
    """How long the seat's clock has stood still and not yet been added to its deadline."""
    starts = _hold_starts(game, vacation, now)
    if seat.held_at is None:
        since = max(min(starts), seat.asked_at) if starts else None
        return max(now - since, dt.timedelta(0)) if since is not None else dt.timedelta(0)
    end = now if starts else _hold_end(game, seat, vacation, now)
    return max(end - seat.held_at, dt.timedelta(0))


# -- reading the clocks (pages, mails, the API) -------------------------------------------------

@dataclass
class Clock:
    seat: int
    name: str
    asked_at: dt.datetime
    waited: dt.timedelta          # how long the seat has had the move
    deadline: dt.datetime | None  # where it falls if the clock ran from now on
    held: str | None              # None, "paused" (the game) or "away" (a vacation)
    away_until: dt.datetime | None
    dropped: bool
    computer: bool = False        # the computer plays this decision for the seat's player
    quiet_until: dt.datetime | None = None  # its player's quiet hours end then (its clock waits)
    quiet_zone: str = ""          # ... in this time zone, the player's
    bank_left: float | None = None  # a game with a bank: the days left in it now


def clocks(game: Game, to_act: list[int], now: dt.datetime | None = None,
           seats: list[Seat] | None = None) -> list[Clock]:
    """The clocks of the seats to act, in seat order (`seats`: all the game's seats, when the
    caller has them already)."""
    now = now or utcnow()
    found = []
    if seats is None:
        seats = game.seats.where(Seat.index.in_(list(to_act))).order_by(Seat.index)
    for seat in (s for s in seats if s.index in to_act):
        if seat.asked_at is None:
            continue
        vacation = vacation_of(seat.email)
        held = "paused" if game.paused_at is not None else "away" if is_away(vacation, now) \
            else None
        deadline = seat.deadline
        if deadline is not None:
            deadline += stood_still(game, seat, vacation, now)
        quiet = quiet_of(game, seat) if held is None and deadline is not None else None
        awake = quiet_hours.awake_at(quiet, now)
        found.append(Clock(
            seat=seat.index, name=seat_name(seat), asked_at=seat.asked_at,
            waited=max(now - seat.asked_at, dt.timedelta(0)), deadline=deadline, held=held,
            away_until=vacation.away_until if held == "away" else None, dropped=seat.dropped,
            computer=seat.bot_level is None and
            computer_level(game, seat, vacation, now) is not None,
            quiet_until=awake if awake != now else None,
            bank_left=quiet_hours.active_between(quiet, now, deadline).total_seconds() / 86400
            if game.bank and deadline is not None else None,
            quiet_zone=quiet.zone if quiet is not None else ""))
    return found


def clock_of(game: Game, seat: Seat, now: dt.datetime | None = None) -> Clock | None:
    """The seat's clock as it stands: the deadline in force (later by every hold so far), and
    whether it stands still now ("paused", "away"); None when the seat is not asked anything.
    The one reading behind mails, pages, the home page, the API and the digest."""
    found = clocks(game, [seat.index], now, [seat])
    return found[0] if found else None


def banks_of(game: Game, seats: list[Seat], now: dt.datetime | None = None) -> dict:
    """{seat: days left in its bank} of every seat of a game with a bank ({} without one):
    while a seat is asked, what is left of it now; else what it keeps between decisions."""
    if not game.bank:
        return {}
    now = now or utcnow()
    running = {c.seat: c.bank_left for c in clocks(game, [s.index for s in seats], now, seats)
               if c.bank_left is not None}
    return {str(s.index): round(running.get(s.index, s.bank_left if s.bank_left is not None
                                             else game.bank["days"]), 4)
            for s in seats if s.bot_level is None}


def iso(moment: dt.datetime) -> str:
    return moment.replace(microsecond=0).isoformat() + "Z"


def deadlines(game: Game, to_act: list[int], now: dt.datetime,
              seats: list[Seat] | None = None) -> dict:
    """{seat: ISO time} of the seats to act ({} for a game without a pace)."""
    if game.pace_days is None:
        return {}
    return {str(c.seat): iso(c.deadline) for c in clocks(game, to_act, now, seats)
            if c.deadline is not None}
