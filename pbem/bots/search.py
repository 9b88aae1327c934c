"""Single-observer information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012).

One tree for the information set of the seat that asks: every iteration draws a full state
consistent with that seat's view (`rules.determinize`), walks the tree taking only the
actions legal in that state, adds one node, plays on with a cheap policy, and backs the
outcome up. A node is an action of whoever is to act; it keeps how often it was chosen, how
often it was available (UCB divides by that, not by the parent's visits, because an action
legal in one determinization may be missing in the next) and the rewards of the seat that
chose it. Nothing here reads the real state: the view and the rng are all there is.

Other seats' decisions are nodes of the seat the determinized state names first in `to_act`
(at the root, the asking seat itself); seats asked at once thus decide one after another in
the tree, each child keyed by (seat, action). Other seats' secrets are whatever each
determinization drew, so their nodes average over the hands they might hold; as in any
single-observer search, a seat deeper down acts as if it saw the moves made before it in the
tree (the asking seat's own hidden choices included), which flatters the opponents a little.
"""
from __future__ import annotations

import math
import time
from collections import defaultdict
from dataclasses import dataclass
from itertools import compress, count, islice, repeat
from operator import itemgetter, not_

from .heuristic import KIND, Heuristic, lead, margin_rewards, moves, rank_rewards

EXPLORATION = 0.7          # UCB's constant, for rewards between 0 and 1
ALIKE = 0.03               # mean rewards this close are alike: progress decides between them
FIRST, SECOND = itemgetter(0), itemgetter(1)


@dataclass(frozen=True)
class Budget:
    """When a search stops: after `iterations` (None: no limit), at `seconds` of wall time
    (None: no limit), whichever comes first; at least one must be given."""

    iterations: int | None = None
    seconds: float | None = None


@dataclass(frozen=True)
class Policy:
    """How playouts choose: `sample` candidates drawn by the heuristic's weights, each tried
    and the best for the seat to act kept (1: a weighted random move, no trying); `weighted`
    False draws uniformly among the legal actions (the cheapest, a random player)."""

    sample: int = 1
    weighted: bool = True
    depth_factor: float = 1.0       # times the heuristic's playout depth
    widest: int | None = None       # root actions the tree keeps (None: all of them)


# A hashable name of an action: its repr. Engines build an action's keys in one order, so
# equal actions of one engine get one name (`repr` costs a third of a sorted, frozen copy, and
# runs in C over a whole list: map(action_key, actions)).
action_key = repr


def weighted_index(weights: dict[str, float], rng, actions: list[dict]) -> int:
    """An action drawn kind first (by `weights`, 1 for a kind not named), then uniformly
    among the actions of that kind. Counting and finding run in C: a Tigris turn lists
    hundreds of actions and playouts draw from such lists at every step."""
    kinds = list(map(KIND, actions))
    names = list(dict.fromkeys(kinds))
    if len(names) == 1:
        return rng.randrange(len(actions))
    shares = [weights.get(name, 1.0) for name in names]
    total = sum(shares)
    if total <= 0:
        chosen = names[rng.randrange(len(names))]
    else:
        point, chosen = rng.random() * total, names[-1]
        for name, share in zip(names, shares):
            point -= share
            if point < 0:
                chosen = name
                break
    many = kinds.count(chosen)
    nth, first = rng.randrange(many), kinds.index(chosen)
    if kinds[first:first + many].count(chosen) == many:     # listed together, as engines do
        return first + nth
    return next(islice(compress(count(), map(chosen.__eq__, kinds)), nth, None))


class Node:
    """An action of `seat` and what followed it in the iterations that took it."""

    __slots__ = ("seat", "action", "children", "visits", "available", "reward")

    def __init__(self, seat: int | None, action: dict | None):
        self.seat, self.action = seat, action
        self.children: dict[tuple, Node] = {}
        self.visits, self.available, self.reward = 0, 0, 0.0

    def ucb(self, exploration: float) -> float:
        return (self.reward / self.visits
                + exploration * math.sqrt(math.log(self.available) / self.visits))


class Search:
    """One decision's search: `run` iterates until the budget is spent, `best` answers."""

    def __init__(self, rules, view: dict, seat: int, actions: list[dict], rng,
                 heuristic: Heuristic, policy: Policy):
        self.rules, self.view, self.seat, self.rng = rules, view, seat, rng
        self.heuristic, self.policy = heuristic, policy
        self.root = Node(None, None)
        self.root_moves = [((seat, action_key(a)), a) for a in actions]
        self.depth = max(1, round(heuristic.depth * policy.depth_factor))
        self.iterations = 0

    # ---- the budget ---------------------------------------------------------------------
    def run(self, budget: Budget) -> None:
        started = time.perf_counter()
        deadline = None if budget.seconds is None else started + budget.seconds
        self.narrow(None if deadline is None else started + budget.seconds / 2)
        while budget.iterations is None or self.iterations < budget.iterations:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            self.iterate()
            now = time.perf_counter()
            if self.settled(self.iterations_left(budget, started, now, deadline)):
                break

    def iterations_left(self, budget: Budget, started: float, now: float,
                        deadline: float | None) -> float:
        left = math.inf
        if budget.iterations is not None:
            left = budget.iterations - self.iterations
        if deadline is not None:
            rate = self.iterations / max(now - started, 1e-9)
            left = min(left, rate * (deadline - now))
        return left

    def settled(self, left: float) -> bool:
        """Whether no root action can overtake the most chosen one in the iterations left."""
        visits = sorted((child.visits for child in self.root.children.values()), reverse=True)
        if len(self.root_moves) > len(visits):
            visits.append(0)
        return len(visits) > 1 and visits[0] - visits[1] > left

    def narrow(self, deadline: float | None) -> None:
        """Keep the `widest` root actions that look best one move ahead in a determinization
        (ties drawn by the playout weights): with hundreds of legal moves and a few hundred
        iterations, the tree would otherwise try each once and learn nothing. The look ahead
        takes at most half the time: actions it did not reach rank last."""
        widest = self.policy.widest
        if widest is None or len(self.root_moves) <= widest or self.heuristic.values is None:
            return
        state = self.rules.determinize(self.view, self.seat, self.rng)
        weights = self.heuristic.weights
        draws = [(-self.rng.random() * weights.get(action.get("type"), 1.0), order)
                 for order, (_, action) in enumerate(self.root_moves)]
        ranked = []
        for draw, order in sorted(draws):
            ahead = -math.inf
            if deadline is None or time.perf_counter() < deadline:
                after = self.rules.apply(state, self.seat, self.root_moves[order][1])
                ahead = self.outcome(after)[self.seat]
            ranked.append((-ahead, draw, order))
        ranked.sort()
        # best look first: with no iteration run (a short budget) `best` answers the first
        self.root_moves = [self.root_moves[order] for _, _, order in ranked[:widest]]

    def outcome(self, state) -> list[float]:
        """Rewards a seat of a position as it stands: the ranking if over, else the heuristic."""
        if not self.rules.to_act(state):
            return rank_rewards(self.rules.result(state)["ranking"])
        return margin_rewards(self.heuristic.values(state), self.heuristic.scale)

    # ---- one iteration ------------------------------------------------------------------
    def iterate(self) -> None:
        rules = self.rules
        state = rules.determinize(self.view, self.seat, self.rng)
        node, path = self.root, []
        while True:
            seats = rules.to_act(state)
            if not seats:
                break
            available = self.available(node, state, seats)
            children = node.children
            if children:                # hundreds of moves, a few tried: loops run in C
                keys = list(map(FIRST, available))
                present = set(keys)
                for key, child in children.items():
                    if key in present:
                        child.available += 1
                untried = list(compress(available, map(not_, map(children.__contains__, keys))))
            else:
                untried = available
            if untried:
                key, action = self.pick(untried)
                child = node.children[key] = Node(key[0], action)
                child.available = 1
                state = rules.apply(state, key[0], action)
                path.append(child)
                break
            node = max((node.children[key] for key, _ in available),
                       key=lambda child: child.ucb(EXPLORATION))
            state = rules.apply(state, node.seat, node.action)
            path.append(node)
        rewards = self.playout(state)
        for node in path:
            node.visits += 1
            node.reward += rewards[node.seat]
        self.iterations += 1

    def available(self, node: Node, state, seats: list[int]) -> list[tuple[tuple, dict]]:
        """(key, action) of the moves legal in this determinization, for the seat deciding
        here: the asking seat at the root, else the first seat the game waits for (several
        seats asked at once decide one after another in the tree)."""
        if node is self.root:
            return self.root_moves
        mover = seats[0]
        actions = self.choices(state, mover)
        return list(zip(zip(repeat(mover), map(action_key, actions)), actions))

    def choices(self, state, mover: int) -> list[dict]:
        """The moves `mover` may make in the tree and the playouts: its legal moves, less
        the pointless ones where the game names them (Heuristic.sensible)."""
        actions = moves(self.rules.legal_actions(state, mover))
        sensible = self.heuristic.sensible
        return actions if sensible is None else sensible(state, mover, actions)

    def pick(self, untried: list[tuple[tuple, dict]]) -> tuple[tuple, dict]:
        """The node to add: drawn by the playout's weights, so likely moves come first."""
        if not self.policy.weighted:
            return untried[self.rng.randrange(len(untried))]
        return untried[weighted_index(self.heuristic.weights, self.rng,
                                      list(map(SECOND, untried)))]

    # ---- playouts -----------------------------------------------------------------------
    def playout(self, state) -> list[float]:
        rules, heuristic = self.rules, self.heuristic
        for _ in range(self.depth):
            seats = rules.to_act(state)
            if not seats:
                return rank_rewards(rules.result(state)["ranking"])
            mover = seats[0]
            state = self.playout_move(state, mover, self.choices(state, mover))
        if heuristic.values is None and rules.to_act(state):
            return defaultdict(lambda: 0.5)        # no estimate: even for every seat
        return self.outcome(state)

    def playout_move(self, state, mover: int, actions: list[dict]):
        """The state after the policy's move for `mover`."""
        rules, policy, rng = self.rules, self.policy, self.rng
        if not policy.weighted:
            return rules.apply(state, mover, actions[rng.randrange(len(actions))])
        weights = self.heuristic.weights
        if policy.sample <= 1 or self.heuristic.values is None or len(actions) == 1:
            return rules.apply(state, mover, actions[weighted_index(weights, rng, actions)])
        best, best_value = None, -math.inf
        for _ in range(policy.sample):
            after = rules.apply(state, mover, actions[weighted_index(weights, rng, actions)])
            margin = lead(self.heuristic.values(after), mover)
            if margin > best_value:
                best, best_value = after, margin
        return best

    # ---- the answer ---------------------------------------------------------------------
    def best(self) -> dict:
        """The most chosen root action (ties: the better mean, then the earlier listed); but
        when it makes no progress (the heuristic's `progress` kinds) and a move that does
        has a mean reward within ALIKE of it, the best such move: two players who value
        moving leaders about a little over placing cards would otherwise hold the game
        still for ever (a card game whose deck never moves never ends)."""
        best, best_rank = self.root_moves[0][1], None
        for order, (key, action) in enumerate(self.root_moves):
            child = self.root.children.get(key)
            if child is None:
                continue
            rank = (child.visits, child.reward / child.visits, -order)
            if best_rank is None or rank > best_rank:
                best, best_rank = action, rank
        progress = self.heuristic.progress
        if best_rank is None or not progress or best["type"] in progress:
            return best
        moving = [(child.reward / child.visits, child.visits, -order, action)
                  for order, (key, action) in enumerate(self.root_moves)
                  if action["type"] in progress
                  and (child := self.root.children.get(key)) is not None and child.visits]
        if moving and max(moving, key=FIRST)[0] >= best_rank[1] - ALIKE:
            return max(moving, key=lambda row: row[:3])[3]
        return best

    def statistics(self) -> list[tuple[dict, int, float]]:
        """(action, visits, mean reward) of each root action tried, most chosen first."""
        rows = [(child.action, child.visits, child.reward / child.visits)
                for child in self.root.children.values() if child.visits]
        return sorted(rows, key=lambda row: -row[1])
