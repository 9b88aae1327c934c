"""III - Akciók: ziggurats, dignitaries, offerings, buying cards, ending one's actions."""
import pytest

from pbem.games.assyria import rules
from pbem.games.assyria import engine as R
from pbem.games.base import IllegalAction

from .helpers import BLUE, GREEN, RED, YELLOW, act, cards, position

YELLOW_LAND = """
4,3:y 5,3:y 4,2:y     # outside, outside, on the lower river
5,1:Y1                # the base extended in the example
"""


def yellow_acting(camels=9, **fields):
    return position(4, YELLOW_LAND, phase="actions", active=YELLOW,
                    order=[YELLOW, RED, GREEN, BLUE], camels=[0, 0, camels, 0], **fields)


# ---------------------------------------------------------------- A) ziggurats
def test_example_yellow_builds_one_ziggurat_and_extends_another_for_9_camels():
    state = yellow_acting()
    state = act(state, YELLOW, type="build", hex=[4, 3])
    assert state["ziggurats"]["4,3"] == [YELLOW, 1] and "4,3" not in state["huts"]
    assert R.huts_in_stock(state, YELLOW) == 8                       # the hut went back
    state = act(state, YELLOW, type="extend", hex=[5, 1])
    assert state["ziggurats"]["5,1"] == [YELLOW, 2]
    assert state["camels"][YELLOW] == 0
    assert R.pieces_in_stock(state, YELLOW, 1) == 2 and R.pieces_in_stock(state, YELLOW, 2) == 3


def test_one_level_per_ziggurat_per_turn():
    state = yellow_acting(camels=10)
    state = act(state, YELLOW, type="build", hex=[4, 3])
    with pytest.raises(IllegalAction, match="one level"):
        rules.apply(state, YELLOW, {"type": "extend", "hex": [4, 3]})   # built this turn
    state = act(state, YELLOW, type="extend", hex=[5, 1])
    with pytest.raises(IllegalAction, match="one level"):
        rules.apply(state, YELLOW, {"type": "extend", "hex": [5, 1]})
    state["raised"] = []                                              # a later turn
    state["camels"][YELLOW] = 2
    state = act(state, YELLOW, type="extend", hex=[5, 1])
    assert state["ziggurats"]["5,1"] == [YELLOW, 3]
    with pytest.raises(IllegalAction, match="finished"):
        rules.apply(state, YELLOW, {"type": "extend", "hex": [5, 1]})


def test_ziggurat_prices_6_3_2():
    assert R.ZIGGURAT_PRICE == {1: 6, 2: 3, 3: 2}
    state = yellow_acting(camels=5)
    with pytest.raises(IllegalAction, match="6 camels"):
        rules.apply(state, YELLOW, {"type": "build", "hex": [4, 3]})
    state["camels"][YELLOW] = 2
    with pytest.raises(IllegalAction, match="3 camels"):
        rules.apply(state, YELLOW, {"type": "extend", "hex": [5, 1]})


def test_ziggurat_only_on_own_hut_not_on_river_not_touching_a_well():
    state = yellow_acting(camels=10)
    with pytest.raises(IllegalAction, match="river"):
        rules.apply(state, YELLOW, {"type": "build", "hex": [4, 2]})
    with pytest.raises(IllegalAction, match="your huts"):
        rules.apply(state, YELLOW, {"type": "build", "hex": [3, 3]})
    state["wells"] = [17]                                 # the corner of 6,2, 5,2 and 5,3
    assert R.b(state).well_sites[17] == ["6,2", "5,2", "5,3"]
    with pytest.raises(IllegalAction, match="well"):
        rules.apply(state, YELLOW, {"type": "build", "hex": [5, 3]})
    assert [a["hex"] for a in rules.legal_actions(state, YELLOW) if a["type"] == "build"] == \
        [[4, 3]]


def test_ziggurat_piece_stock_limit():
    state = position(4, "0,0:Y1 0,1:Y1 3,3:Y1 3,4:Y1 4,3:y", phase="actions", active=YELLOW,
                     camels=[0, 0, 10, 0])
    with pytest.raises(IllegalAction, match="no ziggurat base"):
        rules.apply(state, YELLOW, {"type": "build", "hex": [4, 3]})


# ---------------------------------------------------------------- B) dignitaries
def test_dignitaries_prices_top_free_slot_and_slot_limits():
    state = position(4, "", phase="actions", active=RED, camels=[10, 0, 0, 0])
    state = act(state, RED, type="dignitary", dignitary="highest")
    state = act(state, RED, type="dignitary", dignitary="middle")
    state = act(state, RED, type="dignitary", dignitary="lower")
    assert state["camels"][RED] == 1
    assert state["dignitaries"]["highest"] == [RED, None, None]
    assert R.huts_in_stock(state, RED) == 7
    full = position(4, "", phase="actions", active=GREEN, camels=[0, 10, 0, 0])
    full["dignitaries"]["highest"] = [RED, BLUE, YELLOW]
    with pytest.raises(IllegalAction, match="no free slot"):
        rules.apply(full, GREEN, {"type": "dignitary", "dignitary": "highest"})
    full["dignitaries"]["lower"] = [RED, None, None, None, None, None]
    full = act(full, GREEN, type="dignitary", dignitary="lower")
    assert full["dignitaries"]["lower"][:2] == [RED, GREEN]
    with pytest.raises(IllegalAction, match="not a dignitary"):
        rules.apply(full, GREEN, {"type": "dignitary", "dignitary": "king"})


def test_dignitary_needs_a_hut_in_stock():
    huts = " ".join(f"{q},{r}:r" for q, r in ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5),
                                              (1, 0), (1, 1), (1, 2), (1, 3)))
    state = position(4, huts, phase="actions", active=RED, camels=[10, 0, 0, 0])
    assert R.huts_in_stock(state, RED) == 0
    with pytest.raises(IllegalAction, match="no hut"):
        rules.apply(state, RED, {"type": "dignitary", "dignitary": "lower"})


# ---------------------------------------------------------------- C) offerings
def test_offerings_at_most_3_camels_a_turn():
    state = position(4, "", phase="actions", active=BLUE, camels=[0, 0, 0, 10],
                     order=[RED, GREEN, YELLOW, BLUE])
    state = act(state, BLUE, type="offering", camels=2)
    assert state["offering"][BLUE] == 2 and state["camels"][BLUE] == 8
    assert [a["camels"] for a in rules.legal_actions(state, BLUE) if a["type"] == "offering"] == [1]
    state = act(state, BLUE, type="offering", camels=1)
    with pytest.raises(IllegalAction, match="offering"):
        rules.apply(state, BLUE, {"type": "offering", "camels": 1})


def test_offering_track_ends_at_7():
    state = position(4, "", phase="actions", active=RED, camels=[10, 0, 0, 0],
                     offering=[6, 0, 0, 0])
    assert [a["camels"] for a in rules.legal_actions(state, RED) if a["type"] == "offering"] == [1]


# ---------------------------------------------------------------- D) food and plow cards
def leftover_state(camels=10):
    state = position(4, "", phase="actions", active=GREEN, camels=[0, camels, 0, 0])
    state["columns"] = [[], cards("date-3", "salt-1"), [], [], []]
    state["leftover"] = 1
    return state


def test_buying_one_food_card_a_turn_from_the_leftover_column():
    state = act(leftover_state(), GREEN, type="buy_food", card="date-3")
    assert [R.kind(c) for c in state["hands"][GREEN]] == ["date-3"]
    assert state["camels"][GREEN] == 8
    with pytest.raises(IllegalAction, match="only one"):
        rules.apply(state, GREEN, {"type": "buy_food", "card": "salt-1"})
    cheap = act(leftover_state(camels=1), GREEN, type="buy_food", card="salt-1")
    assert cheap["camels"][GREEN] == 0
    with pytest.raises(IllegalAction, match="leftover"):
        rules.apply(leftover_state(camels=1), GREEN, {"type": "buy_food", "card": "date-3"})


def test_card_prices():
    one, two, three, joker = cards("palm-1", "palm-2", "palm-3", "joker")
    assert [R.card_price(c) for c in (one, two, three, joker)] == [1, 2, 2, 2]


def test_plow_purchase_from_the_board_and_never_two():
    state = position(4, "", phase="actions", active=RED, camels=[5, 0, 0, 0], plow_pile=1)
    state = act(state, RED, type="buy_plow")
    assert state["plows"][RED] and state["plow_pile"] == 0 and state["camels"][RED] == 3
    with pytest.raises(IllegalAction, match="two plows"):
        rules.apply(state, RED, {"type": "buy_plow"})
    none_left = position(4, "", phase="actions", active=RED, camels=[5, 0, 0, 0], plow_pile=0)
    with pytest.raises(IllegalAction, match="no plow"):
        rules.apply(none_left, RED, {"type": "buy_plow"})


# ---------------------------------------------------------------- ending one's actions
def test_actions_pass_in_turn_order_and_camels_carry_over():
    state = position(4, "", phase="actions", active=GREEN, order=[GREEN, RED, BLUE, YELLOW],
                     camels=[3, 4, 5, 6])
    for seat in (GREEN, RED, BLUE):
        assert rules.to_act(state) == [seat]
        state = act(state, seat, type="end_actions")
    assert rules.to_act(state) == [YELLOW]
    assert state["camels"] == [3, 4, 5, 6]


def test_end_of_a_turn_draws_a_new_expansion_card_and_discards_the_leftover_column():
    state = position(4, "", phase="actions", active=BLUE, order=[RED, GREEN, YELLOW, BLUE],
                     expansion=[4], turn=1, reign=1)
    state["columns"] = [[], cards("date-3", "salt-1"), [], [], []]
    state["leftover"], state["bought_food"] = 1, [True, False, False, False]
    top = state["expansion_deck"][-1]
    discards = len(state["discards"])
    state = act(state, BLUE, type="end_actions")
    assert state["expansion"] == [4, top] and state["turn"] == 2
    assert len(state["discards"]) == discards + 2
    assert state["bought_food"] == [False] * 4
    assert state["phase"] == "harvest" and rules.to_act(state) == [RED]
    assert [len(c) for c in state["columns"]] == [2] * 5
