"""A player's deadlines as a calendar: `<home link>/calendar.ics`, read back with the
iCalendar library as a calendar app would."""
from __future__ import annotations

import datetime as dt

import icalendar

from pbem.db.models import Seat, utcnow
from pbem.log import store
from pbem.play import choices, clock, home
from pbem.play import hosting, vacations
from pbem.play import moves as playing
from pbem.play import creation

ANN, BOB = "ann@example.org", "bob@example.org"
PLAYERS = [{"name": "Ann", "email": ANN}, {"name": "Bob", "email": BOB}]


def new_game(pace_days=1.0):
    game, _ = creation.create_game("duel", PLAYERS, {"rounds": 3}, seed=5,
                                  host_email="host@example.org",
                                  pace=None if pace_days is None else
                                  {"days": pace_days, "on_timeout": "wait", "drop_after": 3})
    return game


def seat(game, index) -> Seat:
    return Seat.get(Seat.game == game.id, Seat.index == index)


def to_act(game):
    game = store.get_game(game.id)
    return store.rules_of(game).to_act(store.state_of(game))


def move(game, index):
    game = store.get_game(game.id)
    state = store.state_of(game)
    playing.act(game.id, index, store.rules_of(game).legal_actions(state, index)[0], game.seq)


def feed(app, client, address):
    token = home.issue(app.config["SECRET_KEY"], address)
    response = client.get(f"/me/{token}/calendar.ics")
    assert response.status_code == 200, response.get_data(as_text=True)
    return token, response, icalendar.Calendar.from_ical(response.data)


def events(cal):
    return [c for c in cal.walk() if c.name == "VEVENT"]


def test_the_player_to_move_finds_the_deadline_with_an_alarm_at_the_reminder(app, client):
    game = new_game()
    first = to_act(game)[0]
    address = PLAYERS[first]["email"]
    token, response, cal = feed(app, client, address)
    assert response.headers["Content-Type"].startswith("text/calendar")
    assert "private" in response.headers["Cache-Control"]
    [event] = events(cal)
    in_force = clock.clock_of(store.get_game(game.id), seat(game, first))
    assert event.decoded("dtstart") == in_force.deadline.replace(tzinfo=dt.timezone.utc,
                                                                 microsecond=0)
    assert "your move" in str(event["summary"])
    assert str(event["url"]).endswith(f"/me/{token}")
    assert "/turn/" not in response.get_data(as_text=True)      # never a turn link
    [alarm] = [c for c in event.walk() if c.name == "VALARM"]
    assert alarm.decoded("trigger") == -dt.timedelta(hours=6)  # 1 day's pace, reminder at 3/4
    # the other player owes nothing yet: an empty calendar
    other = PLAYERS[1 - first]["email"]
    assert events(feed(app, client, other)[2]) == []


def test_the_event_keeps_its_uid_follows_the_deadline_and_goes_once_the_move_is_made(app, client):
    game = new_game()
    first = to_act(game)[0]
    address = PLAYERS[first]["email"]
    [before] = events(feed(app, client, address)[2])
    later = utcnow() + dt.timedelta(days=3)                     # the host gave more time
    Seat.update(deadline=later, remind_at=later - dt.timedelta(hours=6)).where(
        Seat.game == game.id, Seat.index == first).execute()
    [after] = events(feed(app, client, address)[2])
    assert after["uid"] == before["uid"]                         # the same decision, updated
    assert after.decoded("dtstart") == later.replace(tzinfo=dt.timezone.utc, microsecond=0)

    move(game, first)
    assert first not in to_act(game)
    assert events(feed(app, client, address)[2]) == []           # gone once the move is made
    [theirs] = events(feed(app, client, PLAYERS[1 - first]["email"])[2])
    assert theirs["uid"] != before["uid"]


def test_no_events_for_a_game_without_a_pace(app, client):
    game = new_game(pace_days=None)
    for player in PLAYERS:
        assert events(feed(app, client, player["email"])[2]) == []
    assert to_act(game)


def test_a_vacation_moves_the_deadline_and_a_pause_marks_it_tentative(app, client):
    game = new_game()
    first = to_act(game)[0]
    address = PLAYERS[first]["email"]
    [running] = events(feed(app, client, address)[2])
    vacations.go_away(address, 2)
    [away] = events(feed(app, client, address)[2])
    shift = away.decoded("dtstart") - running.decoded("dtstart")
    assert dt.timedelta(days=2) - dt.timedelta(minutes=1) <= shift <= dt.timedelta(days=2,
                                                                                  minutes=1)
    vacations.come_home(address)
    hosting.pause(game.id)
    [paused] = events(feed(app, client, address)[2])
    assert str(paused["status"]) == "TENTATIVE" and "paused" in str(paused["summary"])


def test_opting_out_ends_the_calendar_and_a_foreign_token_opens_nothing(app, client):
    game = new_game()
    address = PLAYERS[to_act(game)[0]]["email"]
    token = home.issue(app.config["SECRET_KEY"], address)
    choices.opt_out(address)
    response = client.get(f"/me/{token}/calendar.ics")
    assert response.status_code == 410
    assert client.get("/me/not-a-token/calendar.ics").status_code in (403, 404)
