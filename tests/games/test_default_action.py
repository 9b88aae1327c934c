"""Every engine's `default_action` (the move played at a missed deadline): for every decision
it is one of the legal actions, deterministic, and the passive choice the docstring names."""
from __future__ import annotations

import random

import pytest

from pbem.games import RULES
from pbem.games.base import default_move

MOVES = {"tigris": 80, "tigris_cards": 200, "assyria": 200}


@pytest.mark.parametrize("name", sorted(MOVES))
def test_every_decision_has_a_legal_deterministic_default(name):
    rules = RULES[name]
    kinds = set()
    for seed in range(2):
        rng = random.Random(seed)
        state = rules.setup(3, seed)
        for _ in range(MOVES[name]):
            waiting = rules.to_act(state)
            if not waiting:
                break
            seat = rng.choice(waiting)
            action = rules.default_action(state, seat)
            assert action in rules.legal_actions(state, seat)
            assert rules.default_action(rules.load(rules.dump(state)), seat) == action
            assert default_move(rules, state, seat) == action
            kinds.add(action["type"])
            legal = rules.legal_actions(state, seat)
            state = rules.apply(state, seat, action if rng.random() < 0.3 else rng.choice(legal))
    passive = {"tigris": "pass", "tigris_cards": "pass", "assyria": "end_actions"}[name]
    assert passive in kinds


def test_no_default_for_a_seat_not_asked_or_an_engine_without_one():
    rules = RULES["assyria"]
    state = rules.setup(2, 1)
    idle = next(s for s in range(2) if s not in rules.to_act(state))
    assert default_move(rules, state, idle) is None

    class Bare:
        def to_act(self, state):
            return [0]

        def legal_actions(self, state, seat):
            return [{"type": "sell_everything"}]
    assert default_move(Bare(), None, 0) is None      # no generic guess
