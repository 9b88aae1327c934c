"""Weeks that tell the truth: a player hears what was played for them,
is warned one miss before their moves are played for them and told at once when it happens,
and every deadline a mail or the home page prints is the one in force (the API's), also while
a vacation or a pause holds the clock."""
from __future__ import annotations

import datetime as dt

from pbem.db.models import Event, Outbox, Seat, utcnow
from pbem.log import store
from pbem.play import clock, fresh, pace
from pbem.play import hosting, vacations
from pbem.play import moves as playing
from pbem.play import creation
from pbem.present import seat as seat_view

DAY = dt.timedelta(days=1)
PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}]


def new_game(on_timeout="auto", drop_after=2):
    game, _ = creation.create_game("duel", PLAYERS, {"rounds": 3}, seed=3,
                                  host_email="host@example.org",
                                  pace={"days": 1.0, "on_timeout": on_timeout,
                                        "drop_after": drop_after})
    return game


def seat(game, index) -> Seat:
    return Seat.get(Seat.game == game.id, Seat.index == index)


def mails_to(address, kind=None):
    query = Outbox.select().where(Outbox.recipient == address).order_by(Outbox.id)
    if kind:
        query = query.where(Outbox.kind == kind)
    return list(query)


def bob_plays(game):
    """Bob answers whenever he is asked, until Ann is asked again (or the game ends)."""
    rules = store.rules_of(game)
    while True:
        game = store.get_game(game.id)
        state = store.state_of(game)
        if game.status != "running" or rules.to_act(state) != [1]:
            return game
        playing.act(game.id, 1, rules.legal_actions(state, 1)[-1], game.seq)


def test_a_silent_seat_hears_what_was_played_for_it_is_warned_and_told_of_the_drop(app):
    game = bob_plays(new_game())
    assert seat(game, 0).asked_at is not None
    pace.run_pass(seat(game, 0).deadline + dt.timedelta(minutes=1))       # Ann's first miss
    game = bob_plays(game)
    ann_mail = mails_to("ann@example.org", "turn")[-1].body_text
    played = Event.select().where(Event.game == game.id, Event.seat == 0,
                                  Event.timeout == True).get()  # noqa: E712
    line = played.summary.replace("{p0}", "Ann").replace("{p1}", "Bob")
    assert "(played at the deadline)" in line and line in ann_mail, ann_mail
    assert "One more missed deadline and your moves will be played for you." in ann_mail
    assert mails_to("ann@example.org", "dropped") == []

    pace.run_pass(seat(game, 0).deadline + dt.timedelta(minutes=1))       # the second miss
    assert seat(game, 0).dropped
    [drop] = mails_to("ann@example.org", "dropped")
    assert "from now on your moves are played for you" in drop.body_text
    assert "/me/" in drop.body_text                  # the way back: the home page of her games
    entry = next(e for e in (seat_view.home_entry(s) for s in Seat.select()
                             .where(Seat.game == game.id, Seat.index == 0)))
    assert entry["dropped"] is True
    # what is played for her from now on says so in the log
    game = bob_plays(store.get_game(game.id))
    absent = [e for e in Event.select().where(Event.game == game.id, Event.seat == 0,
                                              Event.timeout == True)]  # noqa: E712
    assert any("played by default for an absent player" in e.summary for e in absent[2:]) \
        or game.status == "over"


def test_a_mail_during_a_vacation_or_a_pause_says_the_clock_stands_still(app, client):
    game = bob_plays(new_game("wait"))
    vacations.go_away("ann@example.org", 3)
    fresh.revoke(game, 0)                   # the revoke mails a fresh link itself
    mail = mails_to("ann@example.org", "link")[-1].body_text
    in_force = clock.clock_of(game, seat(game, 0))
    assert in_force.held == "away"
    assert "You are away until" in mail and "your clock stands still" in mail
    assert "Please move by" not in mail
    vacations.come_home("ann@example.org")

    hosting.pause(game.id)
    game = store.get_game(game.id)
    for row in Outbox.select().where(Outbox.kind == "link"):        # past the renew interval
        Outbox.update(created_at=row.created_at - dt.timedelta(hours=1)).where(
            Outbox.id == row.id).execute()
    fresh.resend(game.id, 0)
    mail = mails_to("ann@example.org", "link")[-1].body_text
    assert "The game is paused: your clock stands still" in mail
    entry = seat_view.home_entry(seat(game, 0))
    assert entry["held"] == "paused"


def test_the_deadline_in_a_mail_and_on_the_home_page_is_the_apis(app, client):
    game = bob_plays(new_game("wait"))
    ann = seat(game, 0)
    in_force = clock.clock_of(game, ann)
    api = clock.deadlines(game, [0], None)
    assert api["0"] == clock.iso(in_force.deadline)
    entry = seat_view.home_entry(ann)
    assert entry["deadline"] == in_force.deadline
    mail = mails_to("ann@example.org", "turn")[-1].body_text
    assert "Please move by" in mail


def test_a_link_sent_after_the_deadline_says_it_passed(app):
    game = bob_plays(new_game("wait"))
    passed = utcnow() - dt.timedelta(hours=2)                   # the clock really ran out
    Seat.update(deadline=passed, remind_at=passed - dt.timedelta(hours=6)).where(
        Seat.game == game.id, Seat.index == 0).execute()
    pace.run_pass()                                             # late: the host decides
    assert seat(game, 0).late_at is not None
    fresh.resend(game.id, 0)
    mail = mails_to("ann@example.org", "link")[-1].body_text
    assert "Your deadline passed on" in mail and "A reminder comes" not in mail
