"""Weeks that tell the truth, in each real game: a paced 3-player game
of Tigris & Euphrates, the card game and Assyria is played through faked weeks with the real
SMTP sink. Bob and Cy answer whenever they are asked; Ann never does. What Ann and the host
are mailed must say what happened:
- Ann's next mail lists the move played for her at the deadline and warns her one miss before
  her moves are played for her; the second miss drops her and a drop mail arrives;
- a missed turn is one decision: she is never asked again in the turn she missed;
- the deadline each mail prints is the one in force, the API's;
- every mail to the host carries a working host link, and the host's home page lists the game.
"""
from __future__ import annotations

import datetime as dt
import random
import re

import pytest

from pbem.bots import moves as game_moves
from pbem.db.models import Seat
from pbem.log import store
from pbem.mail import mailer
from pbem.play import clock, pace
from pbem.play import moves as playing
from pbem.play import creation
from pbem.present.times import when
from tests.conftest import by_database

PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"},
           {"name": "Cy", "email": "cy@example.org"}]
HOST_LINK = re.compile(r"http://pbem\.test/host/[A-Za-z0-9_.\-]+")
HOME_LINK = re.compile(r"http://pbem\.test/me/[A-Za-z0-9_.\-]+")
DEADLINE = re.compile(r"Please move by ([^\n(]+?) \(UTC\)")


def seat(game, index) -> Seat:
    return Seat.get(Seat.game == game.id, Seat.index == index)


def others_play(game, rng, limit=400):
    """Bob and Cy answer whatever they are asked until only Ann is (or the game ends)."""
    rules = store.rules_of(game)
    for _ in range(limit):
        game = store.get_game(game.id)
        state = store.state_of(game)
        waiting = [s for s in rules.to_act(state) if s != 0]
        if game.status != "running" or not waiting:
            return game
        who = waiting[0]
        playing.act(game.id, who, rng.choice(game_moves(rules.legal_actions(state, who))),
                    game.seq)
    return store.get_game(game.id)


def texts(smtp, address) -> list[str]:
    mailer.send_due()
    return [smtp.inbox.text(m) for m in smtp.inbox.to(address)]


@pytest.mark.slow
@pytest.mark.parametrize("database_url,rules_name",
                         by_database(["tigris", "tigris_cards", "assyria"], ("tigris",)),
                         indirect=["database_url"])
def test_a_silent_seat_and_the_host_are_told_the_truth_through_the_weeks(app, client, smtp,
                                                                        rules_name):
    rng = random.Random(11)
    game, _host_token = creation.create_game(
        rules_name, PLAYERS, seed=11, host_email="host@example.org",
        pace={"days": 1.0, "on_timeout": "auto", "drop_after": 2})
    rules = store.rules_of(game)
    game = others_play(game, rng)
    misses = 0
    while misses < 2 and game.status == "running":
        assert rules.to_act(store.state_of(game)) == [0]
        ann = seat(game, 0)
        # the deadline Ann's newest mail prints is the API's
        deadline = clock.deadlines(game, [0], None)["0"]
        in_force = clock.clock_of(game, ann)
        assert clock.iso(in_force.deadline) == deadline
        printed = DEADLINE.findall(texts(smtp, "ann@example.org")[-1])
        assert printed and printed[-1].strip() == when(in_force.deadline)
        turn = rules.turn_of(store.state_of(game)) if hasattr(rules, "turn_of") else None

        pace.run_pass(ann.deadline + dt.timedelta(minutes=1))     # Ann misses her deadline
        misses += 1
        game = store.get_game(game.id)
        state = store.state_of(game)
        if turn is not None and 0 in rules.to_act(state):
            assert rules.turn_of(state) != turn, "asked again in the turn she missed"
        game = others_play(game, rng)
        if misses == 1 and game.status == "running":
            mail = texts(smtp, "ann@example.org")[-1]
            assert "(played at the deadline)" in mail, mail
            assert "One more missed deadline and your moves will be played for you." in mail
    assert seat(game, 0).dropped or game.status == "over"
    if seat(game, 0).dropped:
        assert any("from now on your moves are played for you" in t
                   for t in texts(smtp, "ann@example.org"))

    host_mails = texts(smtp, "host@example.org")
    assert host_mails
    for mail in host_mails:                   # the host's way back is in every host mail
        [link] = set(HOST_LINK.findall(mail))
        assert client.get(link.replace("http://pbem.test", "")).status_code == 200
    home = HOME_LINK.findall(host_mails[-1])[-1].replace("http://pbem.test", "")
    page = client.get(home).get_data(as_text=True)
    assert "Games you host" in page and f"/games/{game.id}" in page
