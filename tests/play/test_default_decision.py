"""A default plays the whole decision: a missed turn of several actions is
one decision, so the default played at its deadline ends the turn, costs one miss and one late
notice, and the seat is not asked again in that turn (every engine, seeded positions)."""
from __future__ import annotations

import datetime as dt
import random

import pytest

from pbem.db.models import Event, Outbox, Seat
from pbem.games.base import turn_of
from pbem.log import store
from pbem.play import pace
from pbem.play import hosting
from pbem.play import moves as playing
from pbem.play import creation
from tests.conftest import by_database

MINUTE = dt.timedelta(minutes=1)
PLAYERS = [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(3)]


def new_game(rules_name, seed, on_timeout="auto"):
    game, _ = creation.create_game(rules_name, PLAYERS, seed=seed, host_email="host@example.org",
                                  pace={"days": 2, "on_timeout": on_timeout, "drop_after": 9})
    return game


def seat(game, index) -> Seat:
    return Seat.get(Seat.game == game.id, Seat.index == index)


def timeouts(game, index):
    return list(Event.select().where(Event.game == game.id, Event.seat == index,
                                     Event.timeout == True).order_by(Event.seq))  # noqa: E712


def asked(game) -> tuple:
    game = store.get_game(game.id)
    state = store.state_of(game)
    return game, state, store.rules_of(game).to_act(state)


def test_a_card_game_default_passes_both_actions_and_ends_the_turn(app):
    game = new_game("tigris_cards", 5)
    game, state, [first] = asked(game)
    assert state["actions_left"] == 2 and state["turn"] == 1
    pace.run_pass(seat(game, first).deadline + MINUTE)
    game, state, waiting = asked(game)
    assert [e.action for e in timeouts(game, first)] == [{"type": "pass"}, {"type": "pass"}]
    assert first not in waiting and state["turn"] == 2          # the turn is over
    silent = seat(game, first)
    assert silent.missed == 1 and silent.asked_at is None and silent.default_turn is None
    assert all("(played at the deadline)" in e.summary for e in timeouts(game, first))
    assert store.verify(game) == []


def test_under_wait_one_late_notice_and_the_hosts_default_ends_the_turn(app):
    game = new_game("tigris_cards", 5, on_timeout="wait")
    game, state, [first] = asked(game)
    deadline = seat(game, first).deadline
    pace.run_pass(deadline + MINUTE)
    hosting.play_default_once(game.id, first, now=deadline + 2 * MINUTE)
    game, state, waiting = asked(game)
    assert first not in waiting and state["turn"] == 2
    pace.run_pass(deadline + dt.timedelta(days=1))        # the next player is not late yet
    late = Outbox.select().where(Outbox.kind == "host-late")
    assert late.count() == 1
    assert len(timeouts(game, first)) == 2


def play_until_asked(game, rng, moves):
    """Random moves in person, then the first position after `moves` of them where a turn
    asks a question of its own (a conflict), if one comes soon; (game, seat to leave silent)
    or (game, None) when the game ended first."""
    rules = store.rules_of(game)
    for _ in range(moves):
        game, state, waiting = asked(game)
        if not waiting:
            return game, None
        who = rng.choice(waiting)
        playing.act(game.id, who, rng.choice(rules.legal_actions(state, who)), game.seq)
    for _ in range(80):         # rather a question inside a turn (a conflict's), if one comes
        game, state, waiting = asked(game)
        if not waiting or "pending" not in state or mid_turn(state, waiting) is not None:
            break
        who = rng.choice(waiting)
        playing.act(game.id, who, rng.choice(rules.legal_actions(state, who)), game.seq)
    game, state, waiting = asked(game)
    if not waiting:
        return game, None
    return game, mid_turn(state, waiting) if mid_turn(state, waiting) is not None \
        else rng.choice(waiting)


def mid_turn(state, waiting) -> int | None:
    """The player whose turn it is, asked in a conflict before their turn's last action (so
    more of their turn would follow it); None when the position is not one of those."""
    pending = state.get("pending")
    if not pending or pending.get("kind") == "action":
        return None
    turn = state["turn"]
    active = turn["active"] if isinstance(turn, dict) else state["active"]
    actions_left = 2 - turn["actions_done"] if isinstance(turn, dict) else state["actions_left"]
    return active if active in waiting and actions_left > 1 else None


# who is asked after a default is play, not storage: SQLite alone (defaults at a deadline are
# written on both databases in tests/play/test_pace.py)
@pytest.mark.slow
@pytest.mark.parametrize("database_url,rules_name",
                         by_database(["tigris", "tigris_cards", "assyria"]),
                         indirect=["database_url"])
def test_after_a_default_the_seat_is_not_asked_again_in_that_turn(app, rules_name):
    rules = None
    positions = 0
    for seed in range(6):
        rng = random.Random(f"{rules_name}-{seed}")
        game = new_game(rules_name, seed)
        rules = store.rules_of(game)
        game, silent = play_until_asked(game, rng, rng.randrange(0, 40))
        if silent is None:
            continue
        turn = turn_of(rules, store.state_of(game))
        pace.run_pass(seat(game, silent).deadline + MINUTE)
        assert seat(game, silent).missed == 1
        played = len(timeouts(game, silent))
        assert played >= 1
        # the others answer in person until the turn is over: the silent seat is never asked
        while True:
            game, state, waiting = asked(game)
            if not waiting or turn_of(rules, state) != turn:
                break
            assert silent not in waiting, (rules_name, seed, turn, waiting)
            who = rng.choice(waiting)
            playing.act(game.id, who, rng.choice(rules.legal_actions(state, who)), game.seq)
        assert seat(game, silent).missed == 1           # one decision, one miss
        assert seat(game, silent).default_turn is None or game.status == "over"
        assert store.verify(game) == []
        positions += 1
    assert positions >= 4
