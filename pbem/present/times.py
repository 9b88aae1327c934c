"""pbem's one way to write a moment for a person: the date and the time to the minute, in the
language being spoken ("Dec 2, 2026, 2:05 PM", "2026. dec. 2. 14:05"). Moments are kept in UTC
(naive datetimes) and written in UTC; the sentence around them names the zone.

A reader who chose a time zone on their home page (an IANA name, "Europe/Budapest") is also
told the moment in that zone: `local(moment)` writes it as a sentence of its own, which mails
put after the sentence that gives the UTC time; it is empty while nobody is `reading_in` a zone
(pbem/mail/compose.py sets it for the recipient of each mail, the home page for its address)."""
from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import functools
import zoneinfo

from babel import Locale
from babel.dates import format_date, format_time
from flask_babel import get_locale

ZONE_MAX = 64
_reader_zone: contextvars.ContextVar[str] = contextvars.ContextVar("pbem_reader_zone",
                                                                  default="")


@functools.cache
def time_zones() -> frozenset[str]:
    """The IANA names this machine knows (read once)."""
    return frozenset(zoneinfo.available_timezones())


def is_time_zone(name: str) -> bool:
    """Whether `name` is a time zone a player may choose (bounded length, then a set lookup:
    a path-like or unknown name is refused without touching the file system)."""
    return isinstance(name, str) and 0 < len(name) <= ZONE_MAX and name in time_zones()


@contextlib.contextmanager
def reading_in(zone: str | None):
    """Moments written meanwhile are also written in `zone` (none for an empty or unknown one)."""
    token = _reader_zone.set(zone if zone and is_time_zone(zone) else "")
    try:
        yield
    finally:
        _reader_zone.reset(token)


def reader_zone() -> str:
    return _reader_zone.get()


def _written(moment: dt.datetime, locale: Locale) -> str:
    date = format_date(moment, "medium", locale=locale)
    time = format_time(moment, "short", locale=locale)
    return locale.datetime_formats["medium"].replace("{1}", date).replace("{0}", time)


def when(moment: dt.datetime | None, _format: str | None = None) -> str:
    """`moment` written for a person (`_format` is ignored: the pages' and mails' old
    `datetimeformat('medium')` calls read the same way as every other time)."""
    if moment is None:
        return ""
    return _written(moment, get_locale() or Locale("en"))


def in_zone(moment: dt.datetime, zone: str) -> dt.datetime:
    """The naive UTC `moment` as the wall clock of `zone` shows it (naive)."""
    return (moment.replace(tzinfo=dt.timezone.utc)
            .astimezone(zoneinfo.ZoneInfo(zone)).replace(tzinfo=None))


def bank_days(days: float | None) -> str:
    """What is left in a clock's bank, in the reader's language ("3 days 4 hours")."""
    from . import ngettext
    if days is None:
        return ""
    hours = max(int(days * 24), 0)
    whole, rest = divmod(hours, 24)
    if not whole:
        return ngettext("%(num)s hour", "%(num)s hours", rest)
    text = ngettext("%(num)s day", "%(num)s days", whole)
    return text + " " + ngettext("%(num)s hour", "%(num)s hours", rest) if rest else text


def in_their_zone(moment: dt.datetime | None, zone: str) -> str:
    """The naive UTC `moment` written as the wall clock of `zone` shows it ("" without one)."""
    if moment is None or not zone:
        return ""
    return _written(in_zone(moment, zone), get_locale() or Locale("en"))


def local(moment: dt.datetime | None) -> str:
    """" In your time zone (Europe/Budapest): <moment there>." for a reader who chose a zone,
    else "" (its leading space lets it follow the sentence that gives the UTC time)."""
    zone = _reader_zone.get()
    if moment is None or not zone:
        return ""
    from . import gettext
    written = _written(in_zone(moment, zone), get_locale() or Locale("en"))
    return " " + gettext("In your time zone (%(zone)s): %(when)s.", zone=zone, when=written)
