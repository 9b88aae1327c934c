"""`pbem games verify --all` on a live server: while moves are made in the games it checks
(another thread, with its own connection, playing as fast as it can), every game is read in one
snapshot — its row, its checkpoints and its log — so a sound game is never called BROKEN, on
SQLite and on PostgreSQL."""
from __future__ import annotations

import threading

from pbem.db.models import Game, db
from pbem.log import store
from pbem.play import moves as playing
from pbem.play import creation

PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}]
GAMES = 3
MOVING_ROUNDS = 30      # runs of verify --all during which the games moved
MOST_ROUNDS = 300       # a bound on the runs it takes to see that many
LONG = {"rounds": 100_000}


def play_until(app, game_ids: list[int], stop: threading.Event, errors: list) -> None:
    """Moves in every game in turn (each its own transaction), until `stop` is set."""
    with app.app_context():
        try:
            while not stop.is_set():
                for game_id in game_ids:
                    game = store.get_game(game_id)
                    rules = store.rules_of(game)
                    state = store.state_of(game)
                    [seat] = rules.to_act(state)
                    playing.act(game_id, seat, rules.legal_actions(state, seat)[0], game.seq)
        except Exception as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
        finally:
            if not db.is_closed():
                db.close()


def moves_made(game_ids: list[int]) -> int:
    return sum(Game.get_by_id(game_id).seq for game_id in game_ids)


def test_verify_all_never_calls_a_game_broken_while_it_is_played(app, smtp):
    game_ids = [creation.create_game("duel", PLAYERS, LONG, seed=seed)[0].id
                for seed in range(GAMES)]
    stop, errors = threading.Event(), []
    mover = threading.Thread(target=play_until, args=(app, game_ids, stop, errors))
    runner = app.test_cli_runner()
    broken, moving_rounds, rounds = [], 0, 0
    mover.start()
    try:
        while moving_rounds < MOVING_ROUNDS and rounds < MOST_ROUNDS and not errors:
            before = moves_made(game_ids)
            out = runner.invoke(args=["games", "verify", "--all"])
            rounds += 1
            moving_rounds += moves_made(game_ids) > before
            if out.exit_code != 0 or "BROKEN" in out.output:
                broken.append(out.output)
    finally:
        stop.set()
        mover.join()
    assert errors == []
    # the games moved while verify read them: the race was there to be lost
    assert moving_rounds == MOVING_ROUNDS, (moving_rounds, rounds)
    assert broken == [], f"{len(broken)} of {rounds} rounds: {broken[0]}"
    # and still sound at rest
    assert all(store.verify(Game.get_by_id(game_id)) == [] for game_id in game_ids)
