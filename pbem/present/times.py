"""pbem's one way to write a moment for a person: the date and the time to the minute, in the
language being spoken ("Dec 2, 2026, 2:05 PM", "2026. dec. 2. 14:05"). Moments are kept in UTC
(naive datetimes) and written in UTC; the sentence around them names the zone."""
from __future__ import annotations

import datetime as dt

from babel import Locale
from babel.dates import format_date, format_time
from flask_babel import get_locale


def when(moment: dt.datetime | None, _format: str | None = None) -> str:
    """`moment` written for a person (`_format` is ignored: the pages' and mails' old
    `datetimeformat('medium')` calls read the same way as every other time)."""
    if moment is None:
        return ""
    locale = get_locale() or Locale("en")
    date = format_date(moment, "medium", locale=locale)
    time = format_time(moment, "short", locale=locale)
    return locale.datetime_formats["medium"].replace("{1}", date).replace("{0}", time)
