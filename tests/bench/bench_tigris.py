"""Tigris & Euphrates benchmark: prints figures, never fails on time.

Run: python tests/bench/bench_tigris.py
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pbem.games.tigris import rules  # noqa: E402
from tests.bench import sized  # noqa: E402

GAMES = sized(10, 1)
PLAYERS = 4
WEIGHTS = {"place_tile": 10, "place_leader": 4, "move_leader": 1, "withdraw_leader": 0.3,
           "place_catastrophe": 0.3, "swap": 0.3, "pass": 0.2}


def pick(rng: random.Random, actions: list[dict]) -> dict:
    types = sorted({a["type"] for a in actions})
    kind = rng.choices(types, [WEIGHTS.get(t, 1) for t in types])[0]
    return rng.choice([a for a in actions if a["type"] == kind])


def play(seed: int, timings: list[float] | None = None):
    """One random game at max players; legal_actions timed into `timings`."""
    rng = random.Random(seed)
    state = rules.setup(PLAYERS, seed)
    log = []
    while not state["over"]:
        seat = rules.to_act(state)[0]
        start = time.perf_counter()
        actions = rules.legal_actions(state, seat)
        if timings is not None:
            timings.append(time.perf_counter() - start)
        action = pick(rng, actions)
        state = rules.apply(state, seat, action)
        log.append((seat, action))
    return state, log


def main() -> None:
    timings: list[float] = []
    start = time.perf_counter()
    games = [play(seed, timings) for seed in range(GAMES)]
    elapsed = time.perf_counter() - start
    actions = sum(len(log) for _, log in games)
    print(f"tigris: {GAMES} random {PLAYERS}-player games in {elapsed:.2f} s "
          f"= {GAMES / elapsed:.2f} games/s ({actions / GAMES:.0f} actions a game)")
    print(f"legal_actions: median {statistics.median(timings) * 1000:.2f} ms, "
          f"worst {max(timings) * 1000:.2f} ms over {len(timings)} calls")
    final, log = max(games, key=lambda g: len(g[1]))
    start = time.perf_counter()
    state = rules.setup(PLAYERS, final["seed"])
    for seat, action in log:
        state = rules.apply(state, seat, action)
    replay = time.perf_counter() - start
    assert state == final
    print(f"replay of a finished game ({len(log)} actions): {replay * 1000:.0f} ms")
    view_start = time.perf_counter()
    for seat in range(PLAYERS):
        rules.view(final, seat)
    print(f"view: {(time.perf_counter() - view_start) / PLAYERS * 1000:.2f} ms")


if __name__ == "__main__":
    main()
