"""Assyria benchmark: random playouts per player count (what a computer player's search pays),
legal_actions and apply times, replay time.

Run: python tests/bench/bench_assyria.py  (prints figures; never fails on time)
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pbem.games.assyria import rules  # noqa: E402
from tests.bench import sized  # noqa: E402

GAMES = sized(30, 1)                 # random games per player count
TIMED_GAMES = sized(10, 1)           # of which these time each call
REPLAYED = 4                         # player count of the replayed game


def random_game(players: int, seed: int) -> tuple[dict, list]:
    """One random game to the end, choosing among every legal action; returns the log."""
    state, rng, log = rules.setup(players, seed), random.Random(seed), []
    while True:
        to_act = rules.to_act(state)
        if not to_act:
            return state, log
        seat = to_act[0]
        action = rng.choice(rules.legal_actions(state, seat))
        state = rules.apply(state, seat, action)
        log.append((seat, action))


def timed_game(players: int, seed: int, legal: list, applied: list) -> None:
    """The same random game, timing each legal_actions and apply call."""
    state, rng, clock = rules.setup(players, seed), random.Random(seed), time.perf_counter
    while rules.to_act(state):
        seat = rules.to_act(state)[0]
        start = clock()
        actions = rules.legal_actions(state, seat)
        middle = clock()
        state = rules.apply(state, seat, rng.choice(actions))
        legal.append(middle - start)
        applied.append(clock() - middle)


def replay(seed: int, log: list) -> dict:
    state = rules.setup(REPLAYED, seed)
    for seat, action in log:
        state = rules.apply(state, seat, action)
    return state


def playouts(players: int) -> None:
    actions, start = 0, time.perf_counter()
    for seed in range(GAMES):
        actions += len(random_game(players, seed)[1])
    elapsed = time.perf_counter() - start
    legal: list = []
    applied: list = []
    for seed in range(TIMED_GAMES):
        timed_game(players, seed, legal, applied)
    print(f"{players} players: {actions / elapsed:,.0f} random actions/s "
          f"({GAMES / elapsed:.1f} games/s, {actions / GAMES:.0f} actions a game); "
          f"legal_actions mean {statistics.fmean(legal) * 1e6:.1f} us "
          f"(median {statistics.median(legal) * 1e6:.1f}), "
          f"apply mean {statistics.fmean(applied) * 1e6:.1f} us "
          f"(median {statistics.median(applied) * 1e6:.1f})")


def main() -> None:
    for players in range(rules.min_players, rules.max_players + 1):
        playouts(players)
    final, log = random_game(REPLAYED, 1234)
    start = time.perf_counter()
    replayed = replay(1234, log)
    elapsed = time.perf_counter() - start
    assert replayed == final
    print(f"replay of a finished game ({REPLAYED} players, {len(log)} actions): "
          f"{elapsed * 1000:.1f} ms")


if __name__ == "__main__":
    main()
