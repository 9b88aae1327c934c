"""Seeded random positions and short matches for the bot tests."""
from __future__ import annotations

import json
import random

from pbem.bots import choose, moves


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def random_positions(rules, players: int, seed: int, every: int = 1, limit: int = 10_000,
                     options: dict | None = None):
    """(state, seat to act) at every `every`-th step of a seeded random game."""
    rng = random.Random(seed)
    state = rules.setup(players, seed, options) if options else rules.setup(players, seed)
    for step in range(limit):
        seats = rules.to_act(state)
        if not seats:
            return
        if step % every == 0:
            yield state, seats
        seat = seats[0]
        state = rules.apply(state, seat, rng.choice(moves(rules.legal_actions(state, seat))))


def match(rules, players: int, seed: int, bot_seats: set[int], options: dict | None = None,
          iterations: int = 100, level: int = 2) -> list[list[int]]:
    """The ranking of one seeded game: the bots in `bot_seats`, random players elsewhere."""
    rng = random.Random(seed)
    state = rules.setup(players, seed, options)
    while seats := rules.to_act(state):
        seat = seats[0]
        actions = rules.legal_actions(state, seat)
        if seat in bot_seats:
            action = choose(rules, rules.view(state, seat), seat, actions, level=level,
                            iterations=iterations, rng=random.Random(rng.random()))
        else:
            action = rng.choice(moves(actions))
        state = rules.apply(state, seat, action)
    return rules.result(state)["ranking"]


def win_share(ranking: list[list[int]], seat: int) -> float:
    first = ranking[0]
    return 1 / len(first) if seat in first else 0.0
