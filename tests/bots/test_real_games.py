"""The bots on the real engines (each has `determinize`; losing it fails here): legal
answers at every level, and the same move from two states that share the seat's view."""
from __future__ import annotations

import itertools
import random

import pytest

from pbem.bots import choose
from pbem.games import RULES
from tests.bots.helpers import canonical, random_positions

NAMES = ("tigris", "tigris_cards", "assyria")
EVERY = {"tigris": 40, "tigris_cards": 250, "assyria": 25}


def engine(name):
    rules = RULES[name]
    assert getattr(rules, "determinize", None) is not None, f"{name} lost its determinize"
    return rules


def positions(rules, players, seed, count=4):
    return list(itertools.islice(random_positions(rules, players, seed, every=EVERY[rules.name]),
                                 count))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("level", [1, 2, 3])
def test_choose_answers_one_of_the_seat_s_legal_actions(name, level):
    rules = engine(name)
    for players in (2, 3):
        for state, seats in positions(rules, players, level):
            seat = seats[0]
            actions = rules.legal_actions(state, seat)
            action = choose(rules, rules.view(state, seat), seat, actions, level=level,
                            iterations=8, rng=random.Random(players))
            assert action in actions
            assert action.get("type") != "standing" or all(
                a.get("type") == "standing" for a in actions)


@pytest.mark.parametrize("name", NAMES)
def test_two_states_with_one_view_get_one_move(name):
    """States drawn by determinize from one view differ in what the seat cannot see; the bot,
    given each one's view and the same rng seed, answers the same."""
    rules = engine(name)
    for state, seats in positions(rules, 2, 7, count=3):
        seat = seats[0]
        view = rules.view(state, seat)
        twins = [rules.determinize(view, seat, random.Random(k)) for k in (1, 2)]
        answers = []
        for twin in twins:
            twin_view = rules.view(twin, seat)
            assert canonical(twin_view) == canonical(view)
            answers.append(choose(rules, twin_view, seat, rules.legal_actions(twin, seat),
                                  iterations=10, rng=random.Random(3)))
        assert answers[0] == answers[1]
