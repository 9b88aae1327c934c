"""Assyria benchmark: prints figures, never fails on time.

Random playouts as a computer player's search makes them: `legal_actions`, a uniform random
choice among all of them, `apply`, to the end of seeded games, for each player count (the best
of three runs); then `determinize` and `view`, which the search pays once an iteration, and a
replay. Times are CPU times of this process (the machine is shared: wall time swings with the
neighbours' load).

Run: python tests/bench/bench_assyria.py
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pbem.games.assyria import rules  # noqa: E402
from tests.bench import sized  # noqa: E402

GAMES = sized(30, 1)                 # random games per player count
REPEATS = sized(3, 1)                # runs of them; the fastest is printed
clock = time.process_time


def play(players: int, seed: int) -> tuple[dict, list, float, float]:
    """One uniformly random game: (final state, log, seconds in legal_actions, in apply)."""
    state, rng = rules.setup(players, seed), random.Random(seed)
    log, legal, applying = [], 0.0, 0.0
    while True:
        to_act = rules.to_act(state)
        if not to_act:
            return state, log, legal, applying
        seat = to_act[0]
        start = clock()
        actions = rules.legal_actions(state, seat)
        chosen = clock()
        action = rng.choice(actions)
        before_apply = clock()
        state = rules.apply(state, seat, action)
        legal += chosen - start
        applying += clock() - before_apply
        log.append((seat, action))


def playouts(players: int) -> list[tuple[dict, list]]:
    """The best of REPEATS runs of GAMES games: on the shared machine a neighbour's load
    inflates even CPU time (one run of 30 games read 21k to 34k actions/s within minutes)."""
    runs = []
    for _ in range(REPEATS):
        start = clock()
        games = [play(players, seed) for seed in range(GAMES)]
        runs.append((clock() - start, games))
    elapsed, games = min(runs, key=lambda run: run[0])
    actions = sum(len(log) for _, log, _, _ in games)
    legal = sum(g[2] for g in games)
    applying = sum(g[3] for g in games)
    print(f"assyria {players} players: {GAMES} random games in {elapsed:.2f} s CPU "
          f"(best of {REPEATS}) = {GAMES / elapsed:.1f} games/s, {actions / elapsed:,.0f} "
          f"actions/s ({actions / GAMES:.0f} actions a game); legal_actions "
          f"{legal / actions * 1e6:.1f} µs, apply {applying / actions * 1e6:.1f} µs an action")
    return [(state, log) for state, log, _, _ in games]


def views_and_determinizations(players: int) -> None:
    """µs per view and per determinize over every position of one random game."""
    state, rng = rules.setup(players, 7), random.Random(7)
    viewing = determinizing = 0.0
    positions = 0
    determinize = getattr(rules, "determinize", None)
    while rules.to_act(state):
        seat = rules.to_act(state)[0]
        start = clock()
        view = rules.view(state, seat)
        viewed = clock()
        if determinize is not None:
            determinize(view, seat, rng)
        determinizing += clock() - viewed
        viewing += viewed - start
        positions += 1
        state = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
    print(f"assyria {players} players over {positions} positions: view "
          f"{viewing / positions * 1e6:.0f} µs, determinize "
          f"{determinizing / positions * 1e6:.0f} µs a position")


def main() -> None:
    finished = []
    for players in range(rules.min_players, rules.max_players + 1):
        finished += playouts(players)
    for players in range(rules.min_players, rules.max_players + 1):
        views_and_determinizations(players)
    final, log = max(finished, key=lambda g: len(g[1]))
    start = clock()
    state = rules.setup(final["players"], final["seed"])
    for seat, action in log:
        state = rules.apply(state, seat, action)
    replay = clock() - start
    assert state == final
    print(f"replay of a finished game ({final['players']} players, {len(log)} actions): "
          f"{replay * 1000:.1f} ms")


if __name__ == "__main__":
    main()
