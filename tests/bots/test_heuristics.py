"""Each game's heuristic: one finite number a seat, on every kind of position, rising with
what the game's own scoring rewards."""
from __future__ import annotations

import json

import math

import pytest

from pbem.bots import heuristic_for
from pbem.games import RULES
from pbem.games.base import copy_json
from tests.bots.helpers import random_positions

EVERY = {"tigris": 10, "tigris_cards": 40, "assyria": 5}


def late_position(name, players, seed):
    positions = list(random_positions(RULES[name], players, seed, every=EVERY[name]))
    return positions[len(positions) * 2 // 3][0]


@pytest.mark.parametrize("name", sorted(EVERY))
@pytest.mark.parametrize("players", [2, 4])
def test_values_are_one_finite_number_a_seat(name, players):
    rules, values = RULES[name], heuristic_for(RULES[name]).values
    for state, _ in random_positions(rules, players, players, every=EVERY[name]):
        found = values(state)
        assert len(found) == players and all(math.isfinite(v) for v in found)


@pytest.mark.parametrize("players", [2, 3])
def test_tigris_values_rise_with_the_weakest_colour_more_than_with_the_strongest(players):
    values = heuristic_for(RULES["tigris"]).values
    state = late_position("tigris", players, 1)
    points = state["points"][0]
    weakest = min(points, key=points.get)
    strongest = max(points, key=points.get)
    raised_weak, raised_strong = copy_json(state), copy_json(state)
    raised_weak["points"][0][weakest] += 1
    raised_strong["points"][0][strongest] += 1
    before = values(state)[0]
    assert values(raised_weak)[0] > values(raised_strong)[0] > before
    assert values(raised_weak)[1:] == values(state)[1:]


@pytest.mark.parametrize("players", [2, 3])
def test_card_game_values_rise_with_a_scored_card_of_the_weakest_colour(players):
    from pbem.games.tigris_cards.cards import CARD_COLOUR, COLOURS, is_treasure
    from pbem.games.tigris_cards.scoring import colour_counts
    values = heuristic_for(RULES["tigris_cards"]).values
    state = late_position("tigris_cards", players, 2)
    counts = colour_counts(state["piles"][0])
    weakest = min(COLOURS, key=lambda c: counts[c])
    card = next(c for c in state["deck"] if CARD_COLOUR[c] == weakest and not is_treasure(c))
    raised = copy_json(state)
    raised["piles"][0].append(card)
    assert values(raised)[0] > values(state)[0]


@pytest.mark.parametrize("players", [2, 3])
def test_card_game_values_count_a_leader_on_the_table(players):
    """Points come only to a leader's owner: a leader out is worth something before any point
    (without it the bot played cards for its opponent's leaders and lost to random play)."""
    from pbem.games.tigris_cards.computer import LEADER_WORTH, leaders_out
    values = heuristic_for(RULES["tigris_cards"]).values
    state = json.loads(json.dumps(late_position("tigris_cards", players, 2)))   # plain slots
    column, row = next((c, r) for c, col in enumerate(state["columns"])
                       for r, slot in enumerate(col) if r and "leader" not in slot)
    raised = json.loads(json.dumps(state))
    raised["columns"][column][row] = {**state["columns"][column][row], "leader": [0, "red"]}
    assert leaders_out(raised)[0] == leaders_out(state)[0] + 1
    assert values(raised)[0] == pytest.approx(values(state)[0] + LEADER_WORTH)
    assert values(raised)[1:] == values(state)[1:]


@pytest.mark.parametrize("players", [2, 3])
def test_assyria_values_count_points_and_ziggurat_pieces(players):
    values = heuristic_for(RULES["assyria"]).values
    state = late_position("assyria", players, 3)
    raised = copy_json(state)
    raised["score"][0] += 3
    assert values(raised)[0] == values(state)[0] + 3
    assert values(raised)[1:] == values(state)[1:]
