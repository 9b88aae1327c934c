"""A clock with a bank (pbem/play/bank.py): each decision spends its time from the seat's bank,
each move gives back the increment, never above the cap; an empty bank is a missed deadline,
played by the game's timeout policy once. At faked times (`now` passed in)."""
from __future__ import annotations

import datetime as dt
import json

import pytest

from pbem import validate
from pbem.db.models import Event, Seat
from pbem.log import store
from pbem.mail import mailer
from pbem.play import bank, clock, creation, pace
from pbem.play.keys import keys

PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}]


def test_spent_time_and_increments_add_up_to_the_minute_over_20_decisions(app, smtp):
    game, _ = creation.create_game("duel", PLAYERS, seed=1, pace={
        "on_timeout": "auto", "bank": {"days": 3, "increment": 0.25, "cap": 4}})
    seat = Seat.get(Seat.game == game, Seat.index == 0)
    clock.stop(seat, game, dt.datetime(2026, 1, 1))         # whatever creation asked: ended
    seat.bank_left = None                                     # a fresh seat: the whole bank
    expected, now = 3 * 24 * 60, dt.datetime(2026, 1, 5, 9, 0)      # minutes
    for n in range(20):
        clock.start(game, seat, now)
        assert seat.deadline == now + dt.timedelta(minutes=expected)
        spent = 17 + 131 * n % 1009                          # 17 minutes to about 17 hours
        now += dt.timedelta(minutes=spent)
        clock.stop(seat, game, now)
        expected = min(expected - spent + 6 * 60, 4 * 24 * 60)
        assert round(seat.bank_left * 24 * 60, 6) == expected, n
        now += dt.timedelta(hours=5)                          # the others' turns: not spent


def test_an_empty_bank_plays_the_timeout_policy_once(app, client, smtp):
    game, _ = creation.create_game("duel", PLAYERS, seed=1, pace={
        "on_timeout": "auto", "drop_after": 5, "bank": {"days": 1, "increment": 0.5}})
    asked = [s for s in store.seats_of(game) if s.asked_at is not None]
    assert asked
    seat = asked[0]
    assert seat.deadline == seat.asked_at + dt.timedelta(days=1)
    token = keys().issue(game, seat.index)
    banks = client.get(f"/api/turn/{token}").get_json()["banks"]
    assert set(banks) == {"0", "1"} and 0.99 < banks[str(seat.index)] <= 1
    late = seat.deadline + dt.timedelta(minutes=1)
    before = store.get_game(game.id).seq
    pace.run_pass(now=late)
    pace.run_pass(now=late)
    timeouts = list(Event.select().where(Event.game == game, Event.seq > before,
                                         Event.timeout == True, Event.seat == seat.index))  # noqa: E712
    assert len(timeouts) >= 1 and {e.played_by for e in timeouts} == {"deadline"}
    seat = Seat.get_by_id(seat.id)
    if seat.asked_at is not None:           # asked again: with the increment alone
        assert seat.deadline == seat.asked_at + dt.timedelta(days=0.5)
    else:
        assert seat.bank_left == 0.5
    assert Seat.get_by_id(seat.id).missed == 1


def test_the_bank_is_created_from_the_command_line_told_and_exported(app, smtp):
    runner = app.test_cli_runner()
    made = runner.invoke(args=["games", "create", "duel", "--player", "Ann <ann@example.org>",
                               "--player", "Bob <bob@example.org>", "--clock", "bank:3+0.5/5",
                               "--on-timeout", "auto"])
    assert made.exit_code == 0, made.output
    game = store.get_game(int(made.output.split()[0]))
    assert game.bank == {"days": 3.0, "increment": 0.5, "cap": 5.0} and game.pace_days == 3.0
    mailer.send_due()
    invitation = smtp.inbox.text(smtp.inbox.to("ann@example.org")[0])
    assert "bank of 3 days" in invitation and "gives back 0.5" in invitation
    record = json.loads(json.dumps(store.export(game)))
    assert record["pace"]["bank"] == game.bank
    for wrong in ("bank:0", "bank:3/2", "bank:x", "banks"):
        refused = runner.invoke(args=["games", "create", "duel", "--player", "A <a@example.org>",
                                      "--player", "B <b@example.org>", "--clock", wrong])
        assert refused.exit_code != 0


def test_a_bank_s_bounds():
    assert bank.parse("bank") == {"days": 7.0, "increment": 1.0, "cap": 10.0}
    assert bank.parse("bank:14") == {"days": 14.0, "increment": 1.0, "cap": 14.0}
    for wrong in ({"days": -1}, {"days": 0}, {"days": 3, "cap": 2}, {"increment": float("nan")},
                  {"days": True}):
        with pytest.raises(validate.Invalid):
            bank.check(**wrong)
    with pytest.raises(validate.Invalid):
        clock.check_pace(bank={"days": 3, "extra": 1})
