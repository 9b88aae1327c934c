"""Quiet hours (pbem/play/quiet.py): each player's own nights and days off, in their own time
zone, stop their decision's clock. Checked at faked times (`now` passed in): a Tokyo sleeper
and a New York one (with her weekends) across the US change to summer time, the deadlines the
mails, the API and the calendar feed give, reminders that never come in quiet hours, the
bounds, the home page and `pbem players quiet`."""
from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import icalendar
import pytest

from pbem import validate
from pbem.db.models import Outbox, Seat
from pbem.log import store
from pbem.mail import mailer
from pbem.play import clock, creation, home, pace, quiet
from pbem.play.keys import keys

TOKYO = quiet.Quiet("Asia/Tokyo", 22 * 60, 8 * 60)
NEW_YORK = quiet.Quiet("America/New_York", 22 * 60, 8 * 60, frozenset({5, 6}))
STEP = dt.timedelta(minutes=5)
ASKED_AT = dt.datetime(2026, 12, 2, 5, 40)


def awake_minutes(q: quiet.Quiet, start: dt.datetime, end: dt.datetime) -> dt.timedelta:
    """The time outside `q` between two moments, counted step by step on the local wall clock
    (independent of the module's interval arithmetic)."""
    zone, total, at = ZoneInfo(q.zone), dt.timedelta(0), start
    while at < end:
        local = at.replace(tzinfo=dt.timezone.utc).astimezone(zone)
        minute = local.hour * 60 + local.minute
        night = (minute >= q.start or minute < q.end) if q.end < q.start else \
            q.start <= minute < q.end
        if not (night or local.weekday() in q.days):
            total += STEP
        at += STEP
    return total


@pytest.mark.parametrize("q", [TOKYO, NEW_YORK], ids=["Tokyo", "New York"])
@pytest.mark.parametrize("start", [dt.datetime(2026, 3, 6, 12, 0),     # US summer time: Mar 8
                                   dt.datetime(2026, 10, 30, 23, 35),   # US winter time: Nov 1
                                   dt.datetime(2026, 3, 7, 3, 10)])
def test_a_deadline_counts_only_the_player_s_awake_time_across_a_daylight_saving_change(q, start):
    for days in (0.5, 1, 2, 3):
        pace_span = dt.timedelta(days=days)
        deadline = quiet.after_active(q, start, pace_span)
        assert awake_minutes(q, start, deadline) == pace_span, (q.zone, start, days)
        assert not quiet.is_quiet(q, deadline)
        assert not quiet.is_quiet(q, quiet.after_active(q, start, pace_span * clock.REMIND_AT))


def test_new_york_s_night_is_an_hour_shorter_on_the_night_summer_time_begins():
    saturday_night = quiet.Quiet("America/New_York", 22 * 60, 8 * 60)
    before = dt.datetime(2026, 3, 8, 2, 0)           # Saturday 21:00 EST
    awake = quiet.awake_at(saturday_night, dt.datetime(2026, 3, 8, 4, 0))
    assert awake == dt.datetime(2026, 3, 8, 12, 0)   # Sunday 08:00 EDT: 9 hours of night
    assert quiet.after_active(saturday_night, before, dt.timedelta(hours=2)) == awake + \
        dt.timedelta(hours=1)


def test_the_bounds_keep_every_game_moving():
    assert quiet.check("Asia/Tokyo", "22:00", "14:00").window_text() == "22:00–14:00"
    for start, end, days, zone in (("22:00", "14:01", [], "Asia/Tokyo"),     # over 16 hours
                                   ("", "", ["fri", "sat", "sun", "mon"], "Asia/Tokyo"),
                                   ("22:00", "", [], "Asia/Tokyo"), ("25:00", "08:00", [], "UTC"),
                                   ("22:00", "22:00", [], "UTC"), ("", "", ["someday"], "UTC"),
                                   ("22:00", "08:00", [], "")):
        with pytest.raises(validate.Invalid):
            quiet.check(zone, start, end, days)
    assert quiet.check("", "", "", []).empty


def sleepers(address_zone_quiet):
    for address, zone, (start, end, days) in address_zone_quiet:
        home.store_quiet(address, quiet.check(zone, start, end, days), zone)


def test_each_seat_s_deadline_and_reminder_follow_its_own_nights(app, client, smtp):
    sleepers([("ann@example.org", "Asia/Tokyo", ("22:00", "08:00", [])),
              ("bob@example.org", "America/New_York", ("22:00", "08:00", ["sat", "sun"]))])
    players = [{"name": "Ann", "email": "ann@example.org"},
               {"name": "Bob", "email": "bob@example.org"}]
    game, _ = creation.create_game("duel", players, seed=1,
                                   pace={"days": 1.0, "on_timeout": "auto"})
    mailer.send_due()
    for seat in store.seats_of(game):
        if seat.asked_at is None:
            continue
        # asked at a fixed moment (a Wednesday, 14:40 in Tokyo), not the clock's: from some
        # hours of the real day the first night after the reminder falls after the deadline
        clock.start(game, seat, ASKED_AT)
        q = clock.quiet_of(game, seat)
        assert q is not None and seat.deadline == quiet.after_active(
            q, seat.asked_at, dt.timedelta(days=1))
        assert seat.remind_at == quiet.after_active(q, seat.asked_at, dt.timedelta(hours=18))
        token = keys().issue(game, seat.index)
        api = client.get(f"/api/turn/{token}").get_json()
        assert api["deadlines"] == {str(seat.index): clock.iso(seat.deadline)}
        feed = icalendar.Calendar.from_ical(client.get(
            f"/me/{keys().home_link(seat.email)}/calendar.ics").data)
        starts = [e.decoded("dtstart") for e in feed.walk("VEVENT")]
        assert [s.replace(tzinfo=None) for s in starts] == [seat.deadline.replace(microsecond=0)]
        quiet_moment = next(t for t in (seat.remind_at + dt.timedelta(hours=h)
                                        for h in range(1, 48)) if quiet.is_quiet(q, t))
        assert quiet.awake_at(q, quiet_moment) < seat.deadline
        pace.run_pass(now=quiet_moment)             # after the reminder's time, at night
        assert not Outbox.select().where(Outbox.kind == "reminder",
                                         Outbox.seat == seat.index).exists()
        pace.run_pass(now=quiet.awake_at(q, quiet_moment))
        assert Outbox.select().where(Outbox.kind == "reminder",
                                     Outbox.seat == seat.index).exists()


def test_a_host_may_turn_quiet_hours_off_for_a_game(app, smtp):
    sleepers([("ann@example.org", "Asia/Tokyo", ("22:00", "08:00", []))])
    game, _ = creation.create_game("duel", [{"name": "Ann", "email": "ann@example.org"},
                                            {"computer": 1}], seed=1,
                                   pace={"days": 1.0, "on_timeout": "auto",
                                         "quiet_hours": False})
    ann = Seat.get(Seat.game == game, Seat.index == 0)
    assert clock.quiet_of(game, ann) is None
    if ann.asked_at is not None:
        assert ann.deadline == ann.asked_at + dt.timedelta(days=1)
    mailer.send_due()
    invitation = smtp.inbox.text(smtp.inbox.to("ann@example.org")[0])
    assert "quiet hours do not stop the clocks" in invitation
    assert store.export(game)["pace"]["quiet_hours"] is False


def test_the_home_page_keeps_quiet_hours_and_refuses_bad_ones(app, client, smtp):
    token = keys().home_link("cy@example.org")
    refused = client.post(f"/me/{token}/quiet", data={"quiet_start": "22:00",
                                                      "quiet_end": "08:00"})
    assert refused.status_code == 400 and "time zone" in refused.get_data(as_text=True)
    home.store_settings("cy@example.org", "", "each", 7, "Europe/Budapest")
    too_long = client.post(f"/me/{token}/quiet", data={"quiet_start": "20:00",
                                                       "quiet_end": "14:00"})
    assert too_long.status_code == 400 and home.quiet_of("cy@example.org").empty
    saved = client.post(f"/me/{token}/quiet", data={"quiet_start": "23:00", "quiet_end": "07:30",
                                                    "quiet_days": ["sun"]})
    assert saved.status_code == 303
    chosen = home.quiet_of("cy@example.org")
    assert (chosen.window_text(), chosen.days_text()) == ("23:00–07:30", "sun")
    page = client.get(f"/me/{token}").get_data(as_text=True)
    assert 'value="23:00"' in page and 'value="sun" checked' in page


def test_the_players_command_sets_quiet_hours(app):
    runner = app.test_cli_runner()
    done = runner.invoke(args=["players", "quiet", "Dee@Example.org", "--from", "22:00",
                               "--until", "06:00", "--days", "sat", "--zone", "Asia/Tokyo"])
    assert done.exit_code == 0, done.output
    assert "quiet hours 22:00–06:00, sat (Asia/Tokyo)" in done.output
    refused = runner.invoke(args=["players", "quiet", "dee@example.org", "--days",
                                  "mon,tue,wed,thu"])
    assert refused.exit_code != 0 and "at most 3" in refused.output
    assert home.quiet_of("dee@example.org").days_text() == "sat"
