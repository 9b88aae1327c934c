"""Benchmark of the card game engine: `python tests/bench/bench_tigris_cards.py`. Every figure is
CPU time of this process (the machine is shared: wall time would count the others' work).

Random playouts as a computer player's search runs them: every legal action listed, one drawn
at random, applied (`actions = legal_actions(state, seat); a = rng.choice(actions);
state = apply(state, seat, a)`), whole seeded games for each player count."""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pbem.games.tigris_cards import rules  # noqa: E402
from tests.bench import sized  # noqa: E402

PLAYOUTS = sized(6, 1)     # uniform random games per player count
LIMIT = sized(None, 300)   # actions of a playout (the quick run stops early)
GAMES = sized(10, 1)
TIMED = sized(3, 1)        # games whose legal_actions calls are timed


def playout(players: int, seed: int, every: int = 0) -> tuple[int, float, list]:
    """One uniform random game: its number of actions, the CPU seconds it took, and every
    `every`-th position (state, seat, action chosen), if `every` (keeping every state alive
    would slow the game down: the garbage collector walks them all)."""
    rng = random.Random(seed)
    st = rules.setup(players, seed)
    steps, kept = 0, []
    start = time.process_time()
    while True:
        waiting = rules.to_act(st)
        if not waiting or steps == LIMIT:
            return steps, time.process_time() - start, kept
        seat = waiting[0]
        action = rng.choice(rules.legal_actions(st, seat))
        if every and steps % every == 0:
            kept.append((st, seat, action))
        st = rules.apply(st, seat, action)
        steps += 1


def cpu_per_call(call, positions: list) -> float:
    """CPU seconds per call of `call(state, seat, action)` over the positions."""
    start = time.process_time()
    for st, seat, action in positions:
        call(st, seat, action)
    return (time.process_time() - start) / len(positions)


def playouts(players: int) -> None:
    steps, elapsed, positions = 0, 0.0, []
    for seed in range(PLAYOUTS):
        n, cpu, _ = playout(players, seed)
        steps, elapsed = steps + n, elapsed + cpu
        positions += playout(players, seed, every=10)[2]
    listing = cpu_per_call(lambda st, seat, _: rules.legal_actions(st, seat), positions)
    applying = cpu_per_call(rules.apply, positions)
    print(f"random {players}-player playouts: {steps / elapsed:,.0f} actions/s "
          f"(legal_actions {listing * 1e6:.1f} µs, apply {applying * 1e6:.1f} µs a call; "
          f"CPU time, {PLAYOUTS} games, {steps / PLAYOUTS:,.0f} actions a game)")


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
        start = time.process_time()
        actions = rules.legal_actions(st, seat)
        if timings is not None:
            timings.append(time.process_time() - start)
        action = pick(rng, actions)
        st = rules.apply(st, seat, action)
        log.append((seat, action))
    return st, log


def main() -> None:
    for players in range(rules.min_players, rules.max_players + 1):
        playouts(players)

    start = time.process_time()
    steps = 0
    for seed in range(GAMES):
        _, log = random_game(4, seed)
        steps += len(log)
    elapsed = time.process_time() - start
    print(f"card-loving random 4-player games: {GAMES / elapsed:.2f} games/s "
          f"({steps / GAMES:.0f} actions a game, {elapsed / steps * 1000:.3f} ms an action)")

    timings: list[float] = []
    for seed in range(100, 100 + TIMED):
        random_game(4, seed, timings)
    print(f"legal_actions: median {statistics.median(timings) * 1000:.3f} ms, "
          f"worst {max(timings) * 1000:.3f} ms over {len(timings)} calls")

    final, log = random_game(4, 7)
    start = time.process_time()
    st = rules.setup(4, 7)
    for seat, action in log:
        st = rules.apply(st, seat, action)
    elapsed = time.process_time() - start
    assert st == final
    print(f"replay of a finished 4-player game: {elapsed * 1000:.1f} ms for {len(log)} actions")


if __name__ == "__main__":
    main()
