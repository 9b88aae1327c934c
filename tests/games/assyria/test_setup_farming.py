"""Setup, the initial draft and farming (rulebook: Előkészületek, I - Gazdálkodás)."""
import pytest

from pbem.games.assyria import rules
from pbem.games.assyria import engine as R
from pbem.games.base import IllegalAction

from .helpers import act, cards


@pytest.mark.parametrize("players,hexes,sites,wells,row", [(2, 38, 31, 8, 3), (3, 51, 44, 12, 4),
                                                          (4, 64, 58, 16, 5)])
def test_setup_for_each_player_count(players, hexes, sites, wells, row):
    state = rules.setup(players, 7)
    bd = R.b(state)
    assert (len(bd.hexes), len(bd.well_sites), R.wells_in_stock(state)) == (hexes, sites, wells)
    assert sorted(state["order"]) == list(range(players))
    assert state["expansion"] == [4] and sorted(state["expansion_deck"]) == list(R.EXPANSION_DECK)
    assert state["plows"] == [True] * players and state["plow_pile"] == 0
    assert state["score"] == state["camels"] == state["offering"] == [0] * players
    assert [len(c) for c in state["columns"]] == [2] * row
    assert state["phase"] == "start" and state["active"] == state["order"][0]
    assert all(R.huts_in_stock(state, s) == 10 for s in range(players))


def test_turn_order_is_random_from_the_seed():
    orders = {tuple(rules.setup(4, seed)["order"]) for seed in range(30)}
    assert len(orders) > 5
    assert rules.setup(4, 3) == rules.setup(4, 3)


def test_unknown_option_and_player_count_are_refused():
    with pytest.raises(IllegalAction):
        rules.setup(5, 1)
    with pytest.raises(IllegalAction):
        rules.setup(4, 1, {"nope": True})


def test_start_hexes_in_turn_order_then_reverse_draft():
    state = rules.setup(4, 11)
    order = state["order"]
    starts = R.b(state).starts
    for i, seat in enumerate(order):
        assert rules.to_act(state) == [seat]
        assert len(rules.legal_actions(state, seat)) == 4 - i
        state = act(state, seat, type="start", hex=[int(v) for v in starts[i].split(",")])
        assert state["ziggurats"][starts[i]] == [seat, 1]
    assert R.pieces_in_stock(state, order[0], 1) == 3
    # the last in turn order draws 4 cards, keeps one and passes the rest backwards
    assert state["phase"] == "draft" and len(state["draft"]) == 4
    for seat, size in zip(order[::-1][:3], (4, 3, 2)):
        assert rules.to_act(state) == [seat] and len(state["draft"]) == size
        state = rules.apply(state, seat, rules.legal_actions(state, seat)[0])
        assert len(state["hands"][seat]) == 1
    # the first player gets the last card
    assert len(state["hands"][order[0]]) == 1 and state["draft"] == []
    assert state["phase"] == "harvest" and rules.to_act(state) == [order[0]]


def test_start_hex_must_be_free_start_hex():
    state = rules.setup(2, 1)
    seat = state["active"]
    with pytest.raises(IllegalAction, match="start hex"):
        rules.apply(state, seat, {"type": "start", "hex": [2, 2]})
    state = rules.apply(state, seat, {"type": "start", "hex": [1, 0]})
    with pytest.raises(IllegalAction, match="start hex"):
        rules.apply(state, state["active"], {"type": "start", "hex": [1, 0]})
    assert len(rules.legal_actions(state, state["active"])) == 3   # 2 players: one of four


def test_farming_example_sorting_a_row():
    """1 joker, 1 date, 2 barley, 1 grape, 3 grape: the 1-symbol cards in draw order, then the
    2 barley, the 3 grape, and the joker far right."""
    drawn = cards("joker", "date-1", "barley-2", "grape-1", "grape-3")
    assert [R.kind(c) for c in R.sort_row(drawn)] == \
        ["date-1", "grape-1", "barley-2", "grape-3", "joker"]


def test_rows_sorted_ties_in_draw_order_jokers_right():
    first, second = cards("grape-1", "salt-1")
    joker1, joker2 = cards("joker", "joker")
    assert R.sort_row([joker1, second, first, joker2]) == [second, first, joker1, joker2]


def harvest_state(seed=5):
    state = rules.setup(4, seed)
    while state["phase"] != "harvest":
        state = rules.apply(state, state["active"], rules.legal_actions(state, state["active"])[0])
    return state


def test_harvest_example_red_takes_the_third_column_and_new_turn_order():
    state = harvest_state()
    held = tuple(c for hand in state["hands"] for c in hand)
    row1 = cards("joker", "date-1", "barley-2", "grape-1", "grape-3", used=held)
    row2 = cards("salt-1", "palm-1", "grape-3", "joker", "date-3", used=held + tuple(row1))
    state["food_deck"] = [c for c in state["food_deck"] if c not in row1 + row2] + \
        (row1 + row2)[::-1]                                     # drawn from the top (the end)
    R.sow(state)
    assert [[R.kind(c) for c in col] for col in state["columns"]][2] == ["barley-2", "grape-3"]
    first, second, third, fourth = state["order"]
    hand = len(state["hands"][first])
    state = act(state, first, type="column", column=2)
    assert sorted(R.kind(c) for c in state["hands"][first][hand:]) == ["barley-2", "grape-3"]
    state = act(state, second, type="column", column=4)
    with pytest.raises(IllegalAction, match="column"):
        rules.apply(state, third, {"type": "column", "column": 2})
    state = act(state, third, type="column", column=0)
    state = act(state, fourth, type="column", column=3)
    # discs from left to right give the new order; column 1 is left over for sale
    assert state["order"] == [third, first, fourth, second]
    assert state["leftover"] == 1 and len(state["columns"][1]) == 2
    assert state["phase"] == "huts" and rules.to_act(state) == [third]


def test_empty_food_deck_is_refilled_from_the_discards():
    state = harvest_state()
    state["discards"] = state["food_deck"][:-3]
    state["food_deck"] = state["food_deck"][-3:]
    before = sorted(state["food_deck"] + state["discards"])
    R.sow(state)                                              # needs 10 cards, only 3 in the deck
    dealt = [c for col in state["columns"] for c in col]
    assert len(dealt) == 10 and state["shuffles"] == 1
    assert sorted(dealt + state["food_deck"] + state["discards"]) == before
    again = harvest_state()
    again["discards"] = again["food_deck"][:-3]
    again["food_deck"] = again["food_deck"][-3:]
    R.sow(again)
    assert again["columns"] == state["columns"]             # the reshuffle comes from the seed
