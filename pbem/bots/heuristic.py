"""What the search needs to know of a game beyond the Rules protocol: how good a position is
for each seat when a playout is cut off, and which kinds of action a playout prefers.

Each game's module (`pbem/games/tigris/computer.py`, ...) builds one `Heuristic`; a game without one
(a test game, an installed plug-in) gets `GENERIC`: playouts to the end, judged by the
ranking alone.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Callable

# Actions that change how the server answers for a seat later ("standing" answers), not moves
# of the game: a computer player never chooses them.
NOT_MOVES = ("standing",)
KIND = itemgetter("type")           # every action of the Rules protocol has a "type"


@dataclass(frozen=True)
class Heuristic:
    """A game's knowledge for the search.

    values(state) -> one score-like number a seat (bigger is better), read from a full
    (determinized) state; None: no estimate, playouts run to the end of the game.
    scale: the margin of `values` that counts as a clear lead (the reward is a logistic of
    the margin over the best rival divided by it).
    depth: actions a playout runs before it is cut off and judged by `values`.
    weights: action type -> how much a biased playout prefers that kind of action (1 when
    not named); a kind is chosen first, then one action of it at random, so that a kind with
    hundreds of variants (swaps) is not chosen hundreds of times more often than one.
    lost, conflicts: a conflict that can only be lost (below).
    progress: see Search.best.
    """

    values: Callable[[object], list[float]] | None = None
    scale: float = 1.0
    depth: int = 400
    weights: dict[str, float] = field(default_factory=dict)
    # lost(after, seat): whether the state after one of the seat's actions of the kinds in
    # `conflicts` holds a conflict it started and cannot win, whatever it commits (the rival
    # committing nothing): such an action is left out while the seat has another
    lost: Callable[[object, int], bool] | None = None
    conflicts: tuple[str, ...] = ()
    # sensible(state, seat, actions): the seat's actions less those that cannot do better than
    # another of them whatever is hidden (a commit to a conflict that changes nothing but the
    # cards thrown away); what decides must be public or the seat's own. The decision, the
    # tree and the playouts all choose among these alone.
    sensible: Callable[[object, int, list[dict]], list[dict]] | None = None
    # the kinds of action that move the game towards its end (a card leaves a hand, a tile is
    # laid): between moves the search values alike, the computer makes progress
    progress: tuple[str, ...] = ()


GENERIC = Heuristic()


def moves(actions: list[dict]) -> list[dict]:
    """The actions that are moves of the game (standing answers left out, unless they are
    all there is): `actions` itself when there is nothing to leave out."""
    kinds = list(map(KIND, actions))
    left_out = sum(kinds.count(kind) for kind in NOT_MOVES)
    if not left_out or left_out == len(kinds):
        return actions
    if all(kind in NOT_MOVES for kind in kinds[-left_out:]):    # listed last, as engines do
        return actions[:-left_out]
    return [a for a, kind in zip(actions, kinds) if kind not in NOT_MOVES]


def rank_rewards(ranking: list[list[int]]) -> list[float]:
    """A finished game's reward a seat: a share of the win (a tie shares it), plus a little
    for each rival beaten, so that second place is worth more than last."""
    players = sum(len(group) for group in ranking)
    rewards = [0.0] * players
    beaten_by = 0
    for place, group in enumerate(ranking):
        for seat in group:
            win = 1.0 / len(group) if place == 0 else 0.0
            beaten = (players - beaten_by - len(group)) / max(players - 1, 1)
            rewards[seat] = 0.9 * win + 0.1 * beaten
        beaten_by += len(group)
    return rewards


# How a seat weighs its rivals at a full table: against the best of them only, a seat at three
# or four gives the others points freely and lets a second rival run away; against their mean
# only, it lets the leader win. Half of each (with two players both are the one rival).
RIVALS_MEAN = 0.5


def lead(values: list[float], seat: int) -> float:
    """The seat's value over its rivals': half the best rival's, half their mean."""
    rivals = [v for s, v in enumerate(values) if s != seat]
    mark = (1 - RIVALS_MEAN) * max(rivals) + RIVALS_MEAN * sum(rivals) / len(rivals)
    return values[seat] - mark


def margin_rewards(values: list[float], scale: float) -> list[float]:
    """A cut-off position's reward a seat: the logistic of its lead over its rivals."""
    return [1.0 / (1.0 + math.exp(-lead(values, seat) / scale))
            for seat in range(len(values))]
