"""Benchmark of the computer players: `python -m tests.bench bench_bots`.

Per game and player count, whole seeded games with one bot seat (turning round the table)
against the others: level 2 at 0.2 s and at 1 s a decision against random players and against
default-move players (`rules.default_action`), level 2 at its own budget against two
opponents that see the whole state (a greedy player one move ahead, and level 2's search with
the same budget over the real state: perfect-information Monte Carlo, PIMC; the draws still to
come stay chance for it, as at a real table; with PBEM_BENCH_BOTS_GAMES also a clairvoyant PIMC
that knows their order too), and level 3 against
level 1 players (their own budgets; with PBEM_BENCH_BOTS_GAMES also against level 2, and
against level 1 at level 2's iterations each: what level 3's policy adds at an equal budget).
It prints the bot's win share (a tie shares a win) with a 95% Wilson interval, the number of
games, ms a decision and search iterations a second, and each line's longest game beside the
mean length of a game between random players of the kind (goal: at most twice it). Goals: >= 95% against random and
default players at 0.2 s, level 3 >= 65% against level 1. Engines without `determinize` are
named and skipped.

A decision takes its budget, so a game takes minutes: `make bench` plays one 2-player game a
line and leaves out the 1 s lines (about 6 minutes on the shared machine).
PBEM_BENCH_BOTS_GAMES=n plays every line, 2 and 3 players, n games a line at 0.2 s and n/2 at
1 s (n=2: about 10 minutes a game on the shared machine); PBEM_BENCH_BOTS_ONLY=assyria,tigris
measures only those games, PBEM_BENCH_BOTS_LINES=PIMC,greedy only the lines whose name holds
one of those words, PBEM_BENCH_BOTS_PLAYERS=2,4 those player counts, PBEM_BENCH_BOTS_SEED=n
plays seeds n, n+1, ... rather than 0, 1, ... (more games for a line without playing the same
ones again: the bots' budgets are iterations, so a seed's game comes out the same).
"""
from __future__ import annotations

import math
import os
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pbem.bots import LEVELS, decide, heuristic_for, moves  # noqa: E402
from pbem.bots.heuristic import lead, rank_rewards  # noqa: E402
from pbem.games import RULES  # noqa: E402
from tests.bench import QUICK, sized  # noqa: E402
from tests.bots import hidden_duel  # noqa: E402

FULL = int(os.environ.get("PBEM_BENCH_BOTS_GAMES", 0))
GAMES = FULL or 1
SLOW_GAMES = max(1, GAMES // 2)          # games of the 1 s lines
PLAYER_COUNTS = (2, 3) if FULL else (2,)
# a game still running then is judged by the heuristic (quick: the test game's 8 actions end
# it; the real games are cut off after a few decisions each side)
MAX_ACTIONS = sized(20_000, 12)
QUICK_BUDGET = {"iterations": 3, "seconds": 0.02}     # quick mode: a bot's budget
ONLY = [name for name in os.environ.get("PBEM_BENCH_BOTS_ONLY", "").split(",") if name]
LINES = [word for word in os.environ.get("PBEM_BENCH_BOTS_LINES", "").split(",") if word]
PLAYERS = [int(n) for n in os.environ.get("PBEM_BENCH_BOTS_PLAYERS", "").split(",") if n]
FIRST_SEED = int(os.environ.get("PBEM_BENCH_BOTS_SEED", 0))


@dataclass
class Tally:
    shares: list[float] = field(default_factory=list)
    decisions: int = 0
    seconds: float = 0.0
    iterations: int = 0
    unfinished: int = 0
    longest: int = 0            # actions of the longest finished game
    yardstick: float = 0.0      # actions of a random game of the kind (its mean)

    def line(self) -> str:
        n = len(self.shares)
        won = sum(self.shares)
        low, high = wilson(won, n)
        ms = 1000 * self.seconds / max(self.decisions, 1)
        rate = self.iterations / max(self.seconds, 1e-9)
        cut = f", {self.unfinished} cut off at {MAX_ACTIONS} actions" if self.unfinished else ""
        cut += f", longest {self.longest} actions" if self.longest else ""
        if self.longest and self.yardstick:
            cut += f" ({self.longest / self.yardstick:.1f} x a random game's; goal <= 2)"
        return (f"{won:g}/{n} won ({100 * won / max(n, 1):.0f}%, 95% CI {100 * low:.0f}-"
                f"{100 * high:.0f}%), {ms:.0f} ms a decision, {rate:,.0f} iterations/s{cut}")


def wilson(won: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate of `won` out of `n`."""
    if n == 0:
        return 0.0, 1.0
    p = won / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def random_player(rules, state, seat, actions, rng):
    return rng.choice(moves(actions))


def default_player(rules, state, seat, actions, rng):
    return rules.default_action(state, seat)


def greedy_player(rules, state, seat, actions, rng, most: int = 80):
    """A stronger yardstick than random: sees the whole state and plays the move whose result
    the game's heuristic likes best one move ahead (a finished game by its ranking); among
    hundreds of moves it looks at `most` drawn at random."""
    heuristic = heuristic_for(rules)
    candidates = moves(actions)
    if len(candidates) > most:
        candidates = rng.sample(candidates, most)
    if heuristic.values is None:
        return rng.choice(candidates)
    best, best_value = candidates[0], -math.inf
    for action in candidates:
        after = rules.apply(state, seat, action)
        if rules.to_act(after):
            value = lead(heuristic.values(after), seat)
        else:
            value = 1e9 * rank_rewards(rules.result(after)["ranking"])[seat]
        if value > best_value:
            best, best_value = action, value
    return best


# Where each game keeps what is still to be drawn: the piles whose order the rulebook leaves to
# chance (a bag, a shuffled deck; with two players the card game's cards counted off the deck
# unseen, pooled with it). pbem orders them at setup only so that the log can prove the draws
# fair; nobody at a real table knows that order.
DRAW_PILES = {"tigris": [("bag",)], "tigris_cards": [("deck", "removed")],
              "assyria": [("food_deck",), ("expansion_deck",)], "hidden_duel": [("deck",)]}


class Seeing:
    """The rules of a game whose every determinization is the real state: a search through
    them is perfect-information Monte Carlo. It sees every hand, pile and face-down piece, the
    whole state as it lies on the table; with `chance` the draws still to come stay chance
    (each determinization shuffles the draw piles, and draws the seed of later reshuffles),
    without it the search also knows the order the committed shuffle gave them (clairvoyant)."""

    def __init__(self, rules, state, chance: bool):
        self.rules, self.state, self.chance = rules, state, chance

    def __getattr__(self, name):
        return getattr(self.rules, name)

    def determinize(self, view, seat, rng):
        if not self.chance:
            return self.state
        state = dict(self.state)
        for names in DRAW_PILES[self.rules.name]:
            pooled = [card for name in names for card in state[name]]
            rng.shuffle(pooled)
            for name in names:
                size = len(state[name])
                state[name], pooled = pooled[:size], pooled[size:]
        if "seed" in state:
            state["seed"] = rng.randrange(2 ** 31)
        return state


def seeing_bot(level: int, chance: bool = True):
    """The level's search with the same budget, seeing the whole state (`Seeing`)."""
    def play(rules, state, seat, actions, rng, tally: Tally | None = None):
        budget = QUICK_BUDGET if QUICK else {}
        return decide(Seeing(rules, state, chance), rules.view(state, seat), seat, actions,
                      level=level, rng=random.Random(rng.random()), **budget).action
    return play


def bot(level: int, seconds: float | None, iterations: int | None = None):
    """The level's search: at its own budget, or `seconds` a decision, or `iterations` (with
    the level's own cap)."""
    def play(rules, state, seat, actions, rng, tally: Tally | None = None):
        budget = QUICK_BUDGET if QUICK else {"seconds": seconds, "iterations": iterations}
        started = time.perf_counter()
        decision = decide(rules, rules.view(state, seat), seat, actions, level=level,
                          rng=random.Random(rng.random()), **budget)
        if tally is not None and decision.iterations:
            tally.decisions += 1
            tally.seconds += time.perf_counter() - started
            tally.iterations += decision.iterations
        return decision.action
    return play


RANDOM_GAMES = sized(20, 2)


def random_game_length(rules, players: int) -> float:
    """The mean number of actions of a game between random players (seeded)."""
    lengths = []
    for seed in range(RANDOM_GAMES):
        rng, state = random.Random(seed), rules.setup(players, seed)
        played = 0
        while (seats := rules.to_act(state)) and played < MAX_ACTIONS:
            seat = seats[0]
            state = rules.apply(state, seat, rng.choice(moves(rules.legal_actions(state, seat))))
            played += 1
        lengths.append(played)
    return sum(lengths) / len(lengths)


def play_game(rules, players: int, seed: int, hero, others, tally: Tally) -> None:
    """One seeded game, `hero` in seat seed % players; adds the hero's win share."""
    rng, hero_seat = random.Random(seed), seed % players
    state = rules.setup(players, seed)
    for played in range(MAX_ACTIONS):
        seats = rules.to_act(state)
        if not seats:
            tally.longest = max(tally.longest, played)
            break
        seat = seats[0]
        actions = rules.legal_actions(state, seat)
        if seat == hero_seat:
            action = hero(rules, state, seat, actions, rng, tally)
        else:
            action = others(rules, state, seat, actions, rng)
        state = rules.apply(state, seat, action)
    result = rules.result(state)
    if result is None:
        tally.unfinished += 1
        values = heuristic_for(rules).values(state)
        best = max(values)
        ranking = [[s for s, v in enumerate(values) if v == best]]
    else:
        ranking = result["ranking"]
    first = ranking[0]
    tally.shares.append(1 / len(first) if hero_seat in first else 0.0)


def matchups():
    """(name, games, hero, others) of each line."""
    lines = [("level 2 at 0.2 s vs random", GAMES, bot(2, 0.2), random_player),
             ("level 2 at 0.2 s vs default", GAMES, bot(2, 0.2), default_player),
             ("level 2 vs greedy (sees all)", GAMES, bot(2, None), greedy_player),
             ("level 2 vs level 2 seeing all (PIMC)", SLOW_GAMES, bot(2, None), seeing_bot(2))]
    if FULL:                # the yardstick that also knows the order of every draw to come
        lines.append(("level 2 vs level 2 seeing all and the draws to come (clairvoyant)",
                      SLOW_GAMES, bot(2, None), seeing_bot(2, chance=False)))
    if FULL:
        lines += [("level 2 at 1 s vs random", SLOW_GAMES, bot(2, 1.0), random_player),
                  ("level 2 at 1 s vs default", SLOW_GAMES, bot(2, 1.0), default_player)]
    lines.append(("level 3 vs level 1", SLOW_GAMES, bot(3, None), bot(1, None)))
    if FULL:                # how much the wider, deeper search adds over the default level
        lines.append(("level 3 vs level 2", SLOW_GAMES, bot(3, None), bot(2, None)))
        equal = LEVELS[2].iterations        # level 3's policy alone: level 2's iterations each
        lines.append((f"level 3 vs level 1 at {equal} iterations each", SLOW_GAMES,
                      bot(3, None, equal), bot(1, None, equal)))
    return lines


def main() -> None:
    if not FULL and not QUICK:
        print("one 2-player game a line, no 1 s lines (PBEM_BENCH_BOTS_GAMES=n for all)")
    games = [hidden_duel.rules] + [RULES[name] for name in ("tigris", "tigris_cards", "assyria")]
    for rules in games:
        if ONLY and rules.name not in ONLY:
            continue
        if getattr(rules, "determinize", None) is None:
            print(f"{rules.name}: not measured, the engine has no determinize yet", flush=True)
            continue
        for players in PLAYERS or PLAYER_COUNTS:
            random_length = random_game_length(rules, players)
            print(f"{rules.name} {players}p random players: {random_length:.0f} actions a game "
                  f"(the mean of {RANDOM_GAMES}); every line's games should end within "
                  f"{2 * random_length:.0f}", flush=True)
            for name, count, hero, others in matchups():
                if LINES and not any(word in name for word in LINES):
                    continue
                tally, started = Tally(), time.perf_counter()
                for seed in range(FIRST_SEED, FIRST_SEED + count):
                    play_game(rules, players, seed, hero, others, tally)
                if tally.longest:
                    tally.yardstick = random_length
                print(f"{rules.name} {players}p {name}: {tally.line()} "
                      f"[{time.perf_counter() - started:.0f} s]", flush=True)


if __name__ == "__main__":
    main()
