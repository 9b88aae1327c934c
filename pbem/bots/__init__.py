"""Computer players: `choose(rules, view, seat, actions, ...)` picks one of a seat's legal actions
from what that seat sees, by information-set Monte Carlo tree search over determinized states
(see `search.py`). The real state never enters: a bot knows what a player in its seat knows.

Levels differ by budget and playout policy. A level's budget is a number of iterations, so that
it plays as well on a busy machine as on a free one; its time is only a cap (a machine too busy
to reach the iterations in it plays weaker rather than later):
  1  30 iterations (at most 0.25 s), uniformly random playouts, half the playout depth
  2  150 iterations (at most 1 s), the 12 root actions that look best one move ahead,
     playouts biased by the game's action weights keeping the best of 2 tries a move
  3  750 iterations (at most 4 s), as level 2 with 16 root actions, the best of 3 tries and
     longer playouts
`seconds` replaces the level's cap; `iterations` alone replaces the level's iterations with no
cap (a decision deterministic for a given rng seed); with both, whichever ends first. A choice
among fewer than FULL_TIME_CHOICES moves takes a share of the budget (two moves: a quarter), and
a search stops as soon as no other move can overtake the most chosen one. All of it follows
from the view and the rng alone.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..games import IllegalAction, part
from .heuristic import GENERIC, Heuristic, moves
from .search import Budget, Policy, Search, weighted_index

# each game's HEURISTIC judges its positions: the module `computer` of the game's folder has it
# (pbem.games.part, alike for pbem's games and plugins); a test game brings its own (`register`)
_HEURISTICS: dict[str, Heuristic] = {}
FULL_TIME_CHOICES = 8


@dataclass(frozen=True)
class Level:
    iterations: int             # the budget of a decision
    seconds: float              # its cap on the wall clock
    policy: Policy


LEVELS = {
    1: Level(30, 0.25, Policy(sample=1, weighted=False, depth_factor=0.5)),
    2: Level(150, 1.0, Policy(sample=2, weighted=True, widest=12)),
    3: Level(750, 4.0, Policy(sample=3, weighted=True, depth_factor=1.5, widest=16)),
}


def register(name: str, heuristic: Heuristic) -> None:
    """Give a game (a test game, a plug-in) its heuristic."""
    _HEURISTICS[name] = heuristic


def heuristic_for(rules) -> Heuristic:
    """The game's heuristic: registered, or its folder's `computer.HEURISTIC`, else GENERIC."""
    name = rules.name
    if name not in _HEURISTICS:
        module = part(name, "computer")
        _HEURISTICS[name] = getattr(module, "HEURISTIC", GENERIC) if module else GENERIC
    return _HEURISTICS[name]


@dataclass(frozen=True)
class Decision:
    """What a search chose and what it cost: the figures benchmarks print."""

    action: dict
    iterations: int = 0
    seconds: float = 0.0


def choose(rules, view: dict, seat: int, actions: list[dict], *, level: int = 2,
           seconds: float | None = None, iterations: int | None = None, rng) -> dict:
    """One of `actions` (the seat's legal actions now) for `seat`, given only
    `view = rules.view(state, seat)`; `rng` (a random.Random) is the only randomness."""
    return decide(rules, view, seat, actions, level=level, seconds=seconds,
                  iterations=iterations, rng=rng).action


def decide(rules, view: dict, seat: int, actions: list[dict], *, level: int = 2,
           seconds: float | None = None, iterations: int | None = None, rng) -> Decision:
    """`choose`, with the number of iterations it ran and the time it took."""
    if not actions:
        raise ValueError("choose needs the seat's legal actions; it was given none")
    candidates = moves(actions)
    if len(candidates) == 1:
        return Decision(candidates[0])
    if level not in LEVELS:
        raise ValueError(f"level must be one of {sorted(LEVELS)}, not {level!r}")
    settings = LEVELS[level]
    share = min(1.0, len(candidates) / FULL_TIME_CHOICES)
    if iterations is None:
        iterations = max(1, round(settings.iterations * share))
        seconds = settings.seconds if seconds is None else seconds
    if seconds is not None:
        seconds *= share
    heuristic = heuristic_for(rules)
    if getattr(rules, "determinize", None) is None:
        return Decision(without_search(candidates, heuristic, rng))
    candidates = not_lost(rules, view, seat, candidates, heuristic)
    if heuristic.sensible is not None and len(candidates) > 1:
        # what decides is public or the seat's own: any determinization, with a fixed seed
        candidates = heuristic.sensible(rules.determinize(view, seat, random.Random(0)), seat,
                                        candidates)
    if len(candidates) == 1:
        return Decision(candidates[0])
    started = time.perf_counter()
    search = Search(rules, view, seat, candidates, rng, heuristic, settings.policy)
    search.run(Budget(iterations=iterations, seconds=seconds))
    return Decision(search.best(), search.iterations, time.perf_counter() - started)


def not_lost(rules, view: dict, seat: int, actions: list[dict], heuristic: Heuristic
             ) -> list[dict]:
    """`actions` less those that start a conflict the seat can only lose (its board strength
    and every fitting piece in its hand against the rival's board strength alone: ties go to
    the defender), unless nothing else is left. What decides it is public or the seat's own,
    alike in every determinization: one is drawn, with a fixed seed so that the search's rng
    and the decision stay the view's alone."""
    if heuristic.lost is None or not any(a["type"] in heuristic.conflicts for a in actions):
        return actions
    state = rules.determinize(view, seat, random.Random(0))
    kept = []
    for action in actions:
        if action["type"] in heuristic.conflicts:
            try:
                if heuristic.lost(rules.apply(state, seat, action), seat):
                    continue
            except IllegalAction:       # not legal in this drawing: judged by the search
                pass
        kept.append(action)
    return kept or actions


def without_search(actions: list[dict], heuristic: Heuristic, rng) -> dict:
    """For an engine that cannot determinize a view: a move drawn by the playout weights."""
    return actions[weighted_index(heuristic.weights, rng, actions)]


__all__ = ["choose", "decide", "Decision", "Heuristic", "LEVELS", "Level", "moves", "register"]
