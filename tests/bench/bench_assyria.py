"""Assyria benchmark: random 4-player games per second, legal_actions times, replay time.

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

GAMES = sized(20, 2)
PLAYERS = 4


def random_game(seed: int, timings: list | None = None) -> tuple[dict, list]:
    """One random game to the end; optionally times every legal_actions call."""
    state, rng, log = rules.setup(PLAYERS, seed), random.Random(seed), []
    while rules.to_act(state):
        seat = rules.to_act(state)[0]
        start = time.perf_counter()
        actions = rules.legal_actions(state, seat)
        if timings is not None:
            timings.append(time.perf_counter() - start)
        action = rng.choice(actions)
        state = rules.apply(state, seat, action)
        log.append((seat, action))
    return state, log


def replay(seed: int, log: list) -> dict:
    state = rules.setup(PLAYERS, seed)
    for seat, action in log:
        state = rules.apply(state, seat, action)
    return state


def main() -> None:
    start = time.perf_counter()
    for seed in range(GAMES):
        random_game(seed)
    elapsed = time.perf_counter() - start
    print(f"random {PLAYERS}-player games: {GAMES / elapsed:.1f} games/s "
          f"({elapsed / GAMES * 1000:.1f} ms a game)")

    timings: list = []
    final, log = random_game(1234, timings)
    print(f"legal_actions over {len(timings)} calls: median {statistics.median(timings) * 1e3:.3f} ms,"
          f" worst {max(timings) * 1e3:.3f} ms")

    start = time.perf_counter()
    replayed = replay(1234, log)
    elapsed = time.perf_counter() - start
    assert replayed == final
    print(f"replay of a finished game ({len(log)} actions): {elapsed * 1000:.1f} ms")


if __name__ == "__main__":
    main()
