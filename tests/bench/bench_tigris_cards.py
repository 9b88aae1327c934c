"""Benchmark of the card game engine: `python tests/bench/bench_tigris_cards.py`."""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pbem.games.tigris_cards import rules  # noqa: E402
from tests.bench import sized  # noqa: E402

GAMES = sized(10, 1)
TIMED = sized(3, 1)        # games whose legal_actions calls are timed


def pick(rng: random.Random, actions: list[dict]) -> dict:
    """A random player who likes placing cards."""
    kinds = sorted({a["type"] for a in actions if a["type"] != "standing"})
    kind = "card" if "card" in kinds and rng.random() < 0.5 else rng.choice(kinds)
    return rng.choice([a for a in actions if a["type"] == kind])


def random_game(players: int, seed: int, timings: list[float] | None = None):
    rng = random.Random(seed)
    st, log = rules.setup(players, seed), []
    while rules.to_act(st):
        seat = rules.to_act(st)[0]
        start = time.perf_counter()
        actions = rules.legal_actions(st, seat)
        if timings is not None:
            timings.append(time.perf_counter() - start)
        action = pick(rng, actions)
        st = rules.apply(st, seat, action)
        log.append((seat, action))
    return st, log


def main() -> None:
    start = time.perf_counter()
    steps = 0
    for seed in range(GAMES):
        _, log = random_game(4, seed)
        steps += len(log)
    elapsed = time.perf_counter() - start
    print(f"random 4-player games: {GAMES / elapsed:.2f} games/s "
          f"({steps / GAMES:.0f} actions a game, {elapsed / steps * 1000:.2f} ms an action)")

    timings: list[float] = []
    for seed in range(100, 100 + TIMED):
        random_game(4, seed, timings)
    print(f"legal_actions: median {statistics.median(timings) * 1000:.3f} ms, "
          f"worst {max(timings) * 1000:.3f} ms over {len(timings)} calls")

    final, log = random_game(4, 7)
    start = time.perf_counter()
    st = rules.setup(4, 7)
    for seat, action in log:
        st = rules.apply(st, seat, action)
    elapsed = time.perf_counter() - start
    assert st == final
    print(f"replay of a finished 4-player game: {elapsed * 1000:.1f} ms for {len(log)} actions")


if __name__ == "__main__":
    main()
