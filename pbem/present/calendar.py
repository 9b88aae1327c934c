"""A player's deadlines as a calendar (RFC 5545): `<home link>/calendar.ics`.

One event per decision the address owes in a paced, running game, at the deadline in force
(`clock.clock_of`: later by every vacation and pause so far), with an alarm at the reminder
time. The event's UID is the decision's (game, seat, moment it was asked), so a calendar that
polls again updates the event instead of adding a second one, and the event is gone once the
move is made. While the player is away the deadline is where it falls when the vacation ends;
while the game is paused nobody knows when it runs again: the event stays, marked tentative,
at the deadline it would have if the game resumed now.

The calendar carries the home page's address, never a turn link: a calendar feed is fetched by
servers and shared more easily than mail.
"""
from __future__ import annotations

import datetime as dt
from urllib.parse import urlsplit

import icalendar

from ..db.models import Seat, utcnow
from ..log import store
from ..play import clock, home
from . import gettext as _
from .titles import title_of

PRODID = "-//pbem//deadlines//EN"
LENGTH = dt.timedelta(minutes=30)       # how long the event lasts in the calendar
REFRESH = dt.timedelta(hours=1)         # how often a calendar app should fetch it again


def _utc(moment: dt.datetime) -> dt.datetime:
    return moment.replace(tzinfo=dt.timezone.utc, microsecond=0)


def owed(address: str, now: dt.datetime) -> list[tuple[Seat, clock.Clock, dt.datetime, dt.datetime]]:
    """(seat, clock, deadline, reminder time) of every decision `address` owes in a paced,
    running game."""
    found = []
    for seat in home.seats_of(address):
        game = seat.game
        if game.status != "running" or game.pace_days is None or seat.dropped:
            continue
        rules = store.rules_of(game)
        if seat.index not in rules.to_act(rules.load(game.state)):
            continue
        in_force = clock.clock_of(game, seat, now)
        if in_force is None or in_force.deadline is None:
            continue
        deadline = in_force.deadline
        if in_force.held == "away" and in_force.away_until is not None:
            deadline += max(in_force.away_until - now, dt.timedelta(0))
        remind = deadline - clock.pace_delta(game) * (1 - clock.REMIND_AT)
        found.append((seat, in_force, deadline, remind))
    return found


def calendar(address: str, home_url: str, now: dt.datetime | None = None) -> bytes:
    """The iCalendar text of `address`'s deadlines, in the language spoken now."""
    now = now or utcnow()
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", _("Your moves in pbem"))
    cal.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", REFRESH)
    host = urlsplit(home_url).hostname or "pbem"
    for seat, in_force, deadline, remind in owed(address, now):
        game = seat.game
        event = icalendar.Event()
        asked = int(in_force.asked_at.replace(tzinfo=dt.timezone.utc).timestamp())
        event.add("uid", f"pbem-{game.id}-{seat.index}-{asked}@{host}")
        event.add("dtstamp", _utc(now))
        event.add("dtstart", _utc(deadline))
        event.add("dtend", _utc(deadline + LENGTH))
        summary = _("%(game)s: your move", game=title_of(game))
        if in_force.held == "paused":
            summary += " (" + _("paused") + ")"
            event.add("status", "TENTATIVE")
        else:
            event.add("status", "CONFIRMED")
        event.add("summary", summary)
        event.add("url", home_url)
        event.add("description", _("Your deadline to move in %(game)s. Open your games: %(url)s",
                                   game=title_of(game), url=home_url))
        event.add("transp", "TRANSPARENT")
        if remind < deadline:
            alarm = icalendar.Alarm()
            alarm.add("action", "DISPLAY")
            alarm.add("description", summary)
            alarm.add("trigger", remind - deadline)     # before the start: a negative duration
            event.add_component(alarm)
        cal.add_component(event)
    return cal.to_ical()
