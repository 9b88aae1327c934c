"""The games the per-game tests run over, and seeded random playouts of them.

GAMES is every game in `pbem.games.RULES` when the tests are collected: the built-in ones and
every installed plugin (`pip install -e tests/plugin/tinygame` adds Higher card), none named
here, so a game the tests have never heard of is tested like the others. The test games that
fixtures register while a test runs (Duel, the `duel` fixture) are not in it: no module of the
tests registers a game when it is imported.
"""
from __future__ import annotations

import random

from pbem.games import RULES

GAMES = sorted(RULES)


def player_counts(rules) -> range:
    return range(rules.min_players, rules.max_players + 1)


def random_moves(rules, players: int, seed: int, limit: int = 20_000):
    """(state, seat, action) for every move of a seeded random game, in order, to its end: the
    seat is drawn among those asked, the action among its legal ones. Raises when the game
    has not ended after `limit` moves (a game that never ends)."""
    rng = random.Random(seed)
    state = rules.setup(players, seed)
    for _move in range(limit):
        waiting = rules.to_act(state)
        if not waiting:
            return
        seat = rng.choice(waiting)
        action = rng.choice(rules.legal_actions(state, seat))
        yield state, seat, action
        state = rules.apply(state, seat, action)
    raise AssertionError(f"{rules.name} with {players} players (seed {seed}) did not end in "
                         f"{limit} random moves")
