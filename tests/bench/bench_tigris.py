"""Tigris & Euphrates benchmark: prints figures, never fails on time.

Random playouts as a computer player's search makes them: `legal_actions`, a uniform random
choice among all of them, `apply`, to the end of seeded games, for each player count. Times are
CPU times of this process (the machine is shared: wall time swings with the neighbours' load).

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

GAMES = sized(30, 1)
RUNS = sized(3, 1)
PLAYERS = (2, 3, 4)
clock = time.process_time


def play(players: int, seed: int) -> tuple[dict, list, float, float]:
    """One uniformly random game: (final state, log, seconds in legal_actions, in apply)."""
    rng = random.Random(seed)
    state = rules.setup(players, seed)
    log, legal, applying = [], 0.0, 0.0
    while not state["over"]:
        seat = rules.to_act(state)[0]
        start = clock()
        actions = rules.legal_actions(state, seat)
        chosen = clock()
        action = rng.choice(actions)
        before_apply = clock()
        state = rules.apply(state, seat, action)
        legal += chosen - start
        applying += clock() - before_apply
        log.append((seat, action))
    return state, log, legal, applying


def play_untimed(players: int, seed: int) -> int:
    """The same game as `play` without a clock read per call (on this machine a CPU-time
    read costs about 2 µs, an eighth of an action): the actions it took."""
    rng = random.Random(seed)
    state = rules.setup(players, seed)
    actions = 0
    while not state["over"]:
        seat = rules.to_act(state)[0]
        state = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
        actions += 1
    return actions


def playouts(players: int) -> list[tuple[dict, list]]:
    runs = []           # the best of 3: a neighbour's load swings one run by a quarter
    for _ in range(RUNS):
        start = clock()
        actions = sum(play_untimed(players, seed) for seed in range(GAMES))
        runs.append(clock() - start)
    elapsed = min(runs)
    games = [play(players, seed) for seed in range(GAMES)]
    legal = sum(g[2] for g in games)
    applying = sum(g[3] for g in games)
    assert actions == sum(len(log) for _, log, _, _ in games)
    print(f"tigris {players} players: {GAMES} random games in {elapsed:.2f} s CPU (best of {RUNS}) "
          f"= {GAMES / elapsed:.2f} games/s, {actions / elapsed:,.0f} actions/s "
          f"({actions / GAMES:.0f} actions a game); legal_actions {legal / actions * 1e6:.0f} µs, "
          f"apply {applying / actions * 1e6:.0f} µs an action (timed call by call)")
    return [(state, log) for state, log, _, _ in games]


def main() -> None:
    finished = []
    for players in PLAYERS:
        finished += playouts(players)
    final, log = max(finished, key=lambda g: len(g[1]))
    start = clock()
    state = rules.setup(final["players"], final["seed"])
    for seat, action in log:
        state = rules.apply(state, seat, action)
    replay = clock() - start
    assert state == final
    print(f"replay of a finished game ({len(log)} actions): {replay * 1000:.0f} ms")
    views = [clock()]
    for seat in range(final["players"]):
        rules.view(final, seat)
        views.append(clock())
    print(f"view: {statistics.mean(b - a for a, b in zip(views, views[1:])) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
