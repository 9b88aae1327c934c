"""Quiet hours: when a player does not play, in the time zone they chose on their home page —
a daily window (22:00–08:00) and/or whole days of the week (Saturday, Sunday).

While a seat's player is in quiet hours their decision's clock stands still: a deadline or a
reminder falls where the pace's time has passed *outside* the player's quiet hours
(`after_active`), so no reminder, default move or computer stand-in ever comes during them.
The windows are wall-clock times of the player's zone: a night across a daylight-saving change
is an hour shorter or longer in real time, as the player lives it.

Bounded so that a game always moves (our ruling): a daily window of at most 16 hours, and at
most 3 quiet days a week. A host may turn quiet hours off for a game (`Game.quiet_hours`).
Arithmetic on naive UTC datetimes, as the models keep them (only `check`'s messages speak the
reader's language); nothing here reads a hand.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from flask_babel import gettext as _

from .. import validate

MAX_WINDOW_MINUTES = 16 * 60
MAX_QUIET_DAYS = 3
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
DAY = dt.timedelta(days=1)


@dataclass(frozen=True)
class Quiet:
    """A player's quiet hours: `start`–`end` minutes after local midnight each day (None: no
    daily window; `end` before `start`: across midnight), `days` weekdays quiet all day
    (0 Monday), all in `zone` (an IANA name)."""
    zone: str
    start: int | None = None
    end: int | None = None
    days: frozenset = frozenset()

    @property
    def empty(self) -> bool:
        return self.start is None and not self.days

    def window_text(self) -> str:
        """"22:00–08:00" ("" without a daily window)."""
        if self.start is None:
            return ""
        return f"{_hhmm(self.start)}–{_hhmm(self.end)}"

    def days_text(self) -> str:
        return ",".join(DAYS[d] for d in sorted(self.days))


def kept(zone: str, start: int | None, end: int | None, days: str) -> Quiet:
    """Quiet hours as a player's settings keep them (`days`: "sat,sun")."""
    return Quiet(zone or "", start, end,
                 frozenset(DAYS.index(day) for day in (days or "").split(",") if day in DAYS))


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def parse_time(raw: str, what: str) -> int:
    """Minutes after midnight of "HH:MM" (ASCII, 00:00 to 23:59), else validate.Invalid."""
    text = (raw or "").strip()
    parts = text.split(":")
    if len(text) > 5 or len(parts) != 2 or not all(p.isascii() and p.isdigit() and
                                                   1 <= len(p) <= 2 for p in parts):
        raise validate.Invalid(_("%(what)s is a time like 22:00, not “%(text)s”", what=what,
                                 text=text[:10]))
    hours, minutes = int(parts[0]), int(parts[1])
    if hours > 23 or minutes > 59:
        raise validate.Invalid(_("%(what)s is a time from 00:00 to 23:59, not “%(text)s”",
                                 what=what, text=text))
    return hours * 60 + minutes


def check(zone: str, start: str = "", end: str = "", days=()) -> Quiet:
    """Quiet hours from what a player wrote (both times or neither; days among DAYS), bounded:
    validate.Invalid naming what is wrong."""
    if bool((start or "").strip()) != bool((end or "").strip()):
        raise validate.Invalid(_("give both times of the quiet window, or neither"))
    begin = parse_time(start, _("the start")) if (start or "").strip() else None
    finish = parse_time(end, _("the end")) if begin is not None else None
    if begin is not None and begin == finish:
        raise validate.Invalid(_("the quiet window starts and ends at the same time"))
    if begin is not None and (finish - begin) % (24 * 60) > MAX_WINDOW_MINUTES:
        raise validate.Invalid(_("a quiet window lasts at most %(hours)s hours a day, so that "
                                 "the game moves", hours=MAX_WINDOW_MINUTES // 60))
    if len(days) > len(DAYS) or any(day not in DAYS for day in days):
        raise validate.Invalid(_("quiet days are among %(days)s", days=", ".join(DAYS)))
    chosen = frozenset(DAYS.index(day) for day in days)
    if len(chosen) > MAX_QUIET_DAYS:
        raise validate.Invalid(_("at most %(days)s quiet days a week, so that the game moves",
                                 days=MAX_QUIET_DAYS))
    if (begin is not None or chosen) and not zone:
        raise validate.Invalid(_("choose your time zone first: quiet hours are in your own "
                                 "time"))
    return Quiet(zone=zone, start=begin, end=finish, days=chosen)


# -- the arithmetic ---------------------------------------------------------------------------

def _utc(day: dt.date, minutes: int, zone: ZoneInfo) -> dt.datetime:
    """The naive UTC moment of local `day` + `minutes` in `zone` (a wall time skipped by a
    daylight-saving change counts as the moment after the gap)."""
    local = dt.datetime.combine(day, dt.time()) + dt.timedelta(minutes=minutes)
    return local.replace(tzinfo=zone).astimezone(dt.timezone.utc).replace(tzinfo=None)


def _day_spans(quiet: Quiet, day: dt.date, zone: ZoneInfo) -> list[tuple]:
    spans = []
    if day.weekday() in quiet.days:
        spans.append((_utc(day, 0, zone), _utc(day + DAY, 0, zone)))
    if quiet.start is not None:
        end_day = day + DAY if quiet.end <= quiet.start else day
        spans.append((_utc(day, quiet.start, zone), _utc(end_day, quiet.end, zone)))
    return sorted(spans)


def spans_from(quiet: Quiet, at: dt.datetime):
    """The player's quiet spans (naive UTC, merged, in order) that end after `at`, for ever."""
    if quiet.empty:
        return
    zone = ZoneInfo(quiet.zone)
    day = at.replace(tzinfo=dt.timezone.utc).astimezone(zone).date() - DAY
    pending = None
    while True:
        for start, end in _day_spans(quiet, day, zone):
            if pending is not None and start <= pending[1]:
                pending = (pending[0], max(pending[1], end))
                continue
            if pending is not None and pending[1] > at:
                yield pending
            pending = (start, end)
        day += DAY


def awake_at(quiet: Quiet | None, at: dt.datetime) -> dt.datetime:
    """`at`, or the end of the quiet span it falls in."""
    if quiet is None or quiet.empty:
        return at
    for start, end in spans_from(quiet, at):
        return end if start <= at else at
    return at


def is_quiet(quiet: Quiet | None, at: dt.datetime) -> bool:
    return awake_at(quiet, at) != at


def after_active(quiet: Quiet | None, start: dt.datetime, span: dt.timedelta) -> dt.datetime:
    """The moment `span` of the player's time outside quiet hours has passed since `start`."""
    if quiet is None or quiet.empty:
        return start + span
    now, left = start, span
    for begin, end in spans_from(quiet, start):
        if begin > now:
            if now + left < begin:
                return now + left
            left -= begin - now
        now = max(now, end)
    return now + left       # not reached: the spans go on for ever


def active_between(quiet: Quiet | None, start: dt.datetime, end: dt.datetime) -> dt.timedelta:
    """The player's time outside quiet hours from `start` to `end` (zero when end <= start)."""
    if end <= start:
        return dt.timedelta(0)
    if quiet is None or quiet.empty:
        return end - start
    total, now = dt.timedelta(0), start
    for begin, finish in spans_from(quiet, start):
        if begin >= end:
            break
        if begin > now:
            total += begin - now
        now = max(now, finish)
        if now >= end:
            return total
    return total + max(end - now, dt.timedelta(0))
