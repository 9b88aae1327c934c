"""The card game's playouts take the attacks a seat wins against the hands as they lie
(`computer.winning_attacks`): the engine is the referee. Over seeded random positions, every
leader placement and connecting card that starts one conflict with the seat as attacker is
listed exactly when, with both sides committing every card they may, the defender's leader goes
home. (A connecting card that starts several conflicts asks for their order first; those are
judged by the test's arithmetic alone, not played out.)"""
from __future__ import annotations

import random

import pytest

from pbem.bots import decide, heuristic_for, moves
from pbem.games import RULES
from pbem.games.tigris_cards.computer import winning_attacks
from pbem.games.tigris_cards.table import find_leader
from tests.bots.helpers import random_positions

RULES_ = RULES["tigris_cards"]


def all_in(state):
    """The state once both sides of the conflict committed the most they may."""
    while (seats := RULES_.to_act(state)) and state["pending"]["kind"] == "commit":
        commits = [a for a in RULES_.legal_actions(state, seats[0]) if a["type"] == "commit"]
        state = RULES_.apply(state, seats[0], max(commits, key=lambda a: a["count"]))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_listed_exactly_when_the_attack_wins_all_in(players):
    listed = judged = 0
    for state, seats in random_positions(RULES_, players, players, every=4, limit=700):
        seat = seats[0]
        if state["pending"]["kind"] != "action":
            assert winning_attacks(state, seat, moves(RULES_.legal_actions(state, seat))) == []
            continue
        actions = moves(RULES_.legal_actions(state, seat))
        found = winning_attacks(state, seat, actions)
        assert all(action in actions for action in found)
        for action in actions:
            if action["type"] not in ("leader", "card"):
                assert action not in found
                continue
            after = RULES_.apply(state, seat, action)
            conflict = after["conflict"]
            if after["pending"]["kind"] == "order":     # several at once: not played out here
                continue
            if conflict is None or conflict["attacker"] != seat:
                assert action not in found, action
                continue
            judged += 1
            ended = all_in(after)
            won = find_leader(ended, conflict["defender"], conflict["leader"]) is None
            assert (action in found) == won, (action, conflict)
            listed += won
    assert judged > 100 and listed > 20          # both answers were judged, many times


def test_playouts_take_them_without_changing_the_decision_contract():
    """A search with the attacks in its playouts still answers a legal, sensible move."""
    rules, heuristic = RULES_, heuristic_for(RULES_)
    assert heuristic.attacks is winning_attacks
    for k, (state, seats) in enumerate(random_positions(rules, 4, 9, every=37, limit=400)):
        seat = seats[0]
        actions = rules.legal_actions(state, seat)
        chosen = decide(rules, rules.view(state, seat), seat, actions, level=1,
                        iterations=20, rng=random.Random(k)).action
        assert chosen in actions
