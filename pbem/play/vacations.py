"""Vacations: each address has a bank of days a year (PBEM_VACATION_DAYS) during which its
deadlines stand still in every game, or the computer plays its seats meanwhile (no days used).
Unused days do not carry over to the next year."""
from __future__ import annotations

import datetime as dt
import math

from flask import current_app

from ..db.database import is_sqlite
from ..db.models import Game, Seat, Vacation, utcnow
from ..validate import address_key
from . import clock, outbox, pace


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
        raise pace.PaceError(f"{address!r} is not an email address")
    if isinstance(days, bool) or not isinstance(days, (int, float)) or not math.isfinite(days) \
            or days <= 0:
        raise pace.PaceError(f"days away must be a positive number, not {days!r}")
    with outbox.transaction():
        row = _vacation_row(address, given or utcnow())      # locked: one request at a time
        now = given or utcnow()    # read after the lock: a request that waited sees the one before
        if clock.is_away(row, now):
            raise pace.PaceError(f"{address} is away already, until {clock.iso(row.away_until)}")
        left = bank_days() - row.used_days
        if bot and days > clock.MAX_PACE_DAYS:
            raise pace.PaceError(f"the computer stands in for at most {clock.MAX_PACE_DAYS} days")
        if not bot and days > left + 1e-9:
            raise pace.PaceError(f"only {days_text(left)} vacation days are left this year, not {days}")
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
