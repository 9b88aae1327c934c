"""The map of a position handed on from move to move (regions, kingdoms, free squares) is the
map worked out afresh from the board, and a state changed in place is never read stale."""
import copy
import json
import random

import pytest

from pbem.games.tigris import rules
from pbem.games.tigris.board import COLORS, EMPTY, RIVER, SQUARES
from pbem.games.tigris.kingdoms import Regions, around, regions_of, squares_of
from pbem.games.tigris.rules import why_not_leader_square, why_not_tile_square

from .helpers import position, sq


def partition(regions: Regions) -> set:
    return {(region, frozenset(regions.leaders.get(rid, ())))
            for rid, region in regions.regions.items()}


def kingdom_sides(regions: Regions) -> dict:
    """Each kingdom (by its squares) -> the free squares next to it."""
    return {regions.regions[rid]: frozenset(squares_of(regions.near(rid) & regions.free))
            for rid in regions.leaders}


def squares_by_the_rules(state: dict, seat: int) -> dict:
    """Where each piece may go, asking the rules' own square-by-square reasons."""
    fresh = Regions(state)
    out = {}
    for color in COLORS:
        out[color] = [i for i in range(SQUARES)
                      if why_not_tile_square(state, fresh, color, i) is None]
        at = state["leaders"][seat][color]
        lifted = Regions(state, lifted=at) if at is not None else fresh
        out["leader", color] = [i for i in range(SQUARES) if i != at and why_not_leader_square(
            state, lifted, i, fresh.down) is None]
    return out


def squares_from_the_map(state: dict, seat: int) -> dict:
    regions = regions_of(state)
    out = {}
    for color in COLORS:
        out[color] = squares_of(regions.tile_squares(color))
        at = state["leaders"][seat][color]
        out["leader", color] = squares_of(regions.leader_squares_from_supply() if at is None
                                          else regions.leader_squares_moving(at))
    return out


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (2, 4)])
def test_the_map_handed_on_is_the_map_worked_out_afresh(players, seed):
    rng = random.Random(seed)
    state = rules.setup(players, seed)
    moves = 0
    while not state["over"]:
        seat = rules.to_act(state)[0]
        actions = rules.legal_actions(state, seat)
        handed_on, fresh = regions_of(state), Regions(state)
        assert partition(handed_on) == partition(fresh)
        for i in range(SQUARES):
            assert (handed_on.region_of(i) == -1) == (fresh.region_of(i) == -1)
        for rid, region in handed_on.regions.items():
            assert all(handed_on.label[i] == rid for i in squares_of(region))
            assert set(handed_on.nears) <= set(handed_on.regions)
            if rid in handed_on.nears:
                assert handed_on.nears[rid] & ~region == around(region) & ~region
        assert kingdom_sides(handed_on) == kingdom_sides(fresh)
        assert (handed_on.temples, handed_on.catastrophes, handed_on.leader_set) == (
            fresh.temples, fresh.catastrophes, fresh.leader_set)
        if state["pending"] is None:
            assert squares_from_the_map(state, seat) == squares_by_the_rules(state, seat)
            free = [i for i in range(SQUARES)
                    if state["board"][i] == EMPTY and i not in fresh.leader_at]
            assert squares_of(handed_on.free) == free
        # tile placements weigh most, so that kingdoms grow and wars happen
        tiles = [a for a in actions if a["type"] == "place_tile"]
        action = rng.choice(tiles if tiles and rng.random() < 0.6 else actions)
        state = rules.apply(state, seat, action)
        moves += 1
    assert moves > 100


def test_a_state_changed_in_place_is_looked_at_anew():
    s = position(".  r  .", top=3, left=4, hands={0: "rrggkk"})
    before = rules.legal_actions(s, 0)
    assert {"type": "place_leader", "leader": "king", "at": [3, 4]} in before
    s["board"][sq(3, 4)] = "green"                 # changed in place, same state object
    after = rules.legal_actions(s, 0)
    assert {"type": "place_leader", "leader": "king", "at": [3, 4]} not in after
    assert {"type": "place_tile", "colour": "red", "at": [3, 4]} not in after
    s["leaders"][0]["black"] = sq(2, 5)
    assert {"type": "place_leader", "leader": "king", "at": [3, 6]} not in \
        rules.legal_actions(s, 0)
    assert {"type": "move_leader", "leader": "king", "at": [3, 6]} in rules.legal_actions(s, 0)


def test_legal_actions_are_shared_and_refuse_to_be_changed():
    s = rules.setup(2, 7)
    first = rules.legal_actions(s, 0)
    kept = [dict(a) for a in first]
    for action in first:                         # a caller may not change what it was given
        with pytest.raises(TypeError):
            action["type"] = "changed"
        with pytest.raises(TypeError):
            action.pop("type")
    first.clear()                                # the list itself is the caller's own
    again = rules.legal_actions(s, 0)
    assert again == kept and type(again) is list
    assert all(type(a) is dict for a in kept)    # dict(action) is a plain, changeable copy
    assert json.loads(json.dumps(again)) == kept
    assert copy.deepcopy(again) == kept and type(copy.deepcopy(again)[0]) is dict
    assert {a["type"] for a in kept} >= {"place_leader", "place_tile", "swap", "pass"}


def test_a_river_square_never_takes_a_leader_or_a_land_tile():
    s = rules.setup(2, 8)
    for action in rules.legal_actions(s, 0):
        if action["type"] in ("place_leader", "move_leader") or action.get("color") in (
                "red", "green", "black"):
            assert action["at"][0] * 16 + action["at"][1] not in RIVER
