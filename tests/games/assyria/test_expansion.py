"""II - Bővítés: new huts, supply, famine, wells, income and prestige."""
import pytest

from pbem.games.assyria import rules
from pbem.games.assyria import engine as R
from pbem.games.base import IllegalAction, speaking

from .helpers import BLUE, GREEN, RED, YELLOW, act, cards, position

# Red's ziggurat on the start hex 1,4; a green hut on 0,5 (the rulebook's Y).
RED_START = """
1,4:R1
0,5:g
"""


def red_placing(to_place=4, **fields):
    return position(4, RED_START, phase="huts", active=RED, to_place=to_place,
                    order=[RED, GREEN, YELLOW, BLUE], **fields)


# ---------------------------------------------------------------- A) new huts
def test_example_reds_four_huts_and_the_illegal_x_and_y():
    """A, B next to the ziggurat, C next to B, D next to the ziggurat; X is not next to any red
    piece and Y is taken by another player."""
    state = red_placing()
    for at in ([2, 3], [2, 4], [2, 5]):                         # A, B, C
        state = act(state, RED, type="hut", hex=at)
    with pytest.raises(IllegalAction, match="not next to"):
        rules.apply(state, RED, {"type": "hut", "hex": [4, 3]})   # X
    with pytest.raises(IllegalAction, match="not empty"):
        rules.apply(state, RED, {"type": "hut", "hex": [0, 5]})   # Y
    assert state["to_place"] == 1 and state["phase"] == "huts"
    state["hands"][RED] = cards("barley-2", "palm-1", "grape-3")
    state = act(state, RED, type="hut", hex=[1, 3])              # D, on the lower river
    assert sorted(R.huts_of(state, RED)) == ["1,3", "2,3", "2,4", "2,5"]
    assert state["phase"] == "feed" and state["to_place"] == 0


def test_huts_count_is_the_expansion_card_capped_by_stock():
    state = position(4, RED_START, phase="feed", active=RED, expansion=[4, 3], turn=2)
    state["dignitaries"]["lower"] = [RED] * 6
    state["huts"].update({"4,3": RED, "4,4": RED})               # 10 - 6 - 2 = 2 in stock
    R.begin_expansion(state, RED)
    assert state["phase"] == "huts" and state["to_place"] == 2


def test_hut_placement_stops_when_no_hex_is_legal():
    # Red's ziggurat in the corner 0,0: its neighbours are 1,0 (taken) and 0,1 (free), and
    # every other neighbour of 0,1 is taken too
    state = position(4, "0,0:R1 1,0:g 1,1:y 0,2:y", phase="huts", active=RED, to_place=4)
    state["hands"][RED] = cards("date-1")
    assert rules.legal_actions(state, RED) == [{"type": "hut", "hex": [0, 1]}]
    state = act(state, RED, type="hut", hex=[0, 1])
    assert state["phase"] == "feed" and state["to_place"] == 0
    # with no legal hex at all, placing is skipped and supply begins
    full = position(4, "0,0:R1 1,0:g 0,1:y", phase="huts", active=RED, expansion=[4])
    R.begin_expansion(full, RED)
    assert rules.to_act(full) == [GREEN] and R.huts_of(full, RED) == []


def test_malformed_hut_actions_are_illegal_not_errors():
    state = red_placing()
    for bad in ({"type": "hut"}, {"type": "hut", "hex": "2,3"}, {"type": "hut", "hex": [2]},
                {"type": "hut", "hex": [20, 3]}, {"type": 5}, {}, "hut",
                {"type": "well", "site": 1}, {"type": "hut", "hex": [2, 3], "extra": 1}):
        with pytest.raises(IllegalAction):
            rules.apply(state, RED, bad)
    with pytest.raises(IllegalAction, match="turn"):
        rules.apply(state, GREEN, {"type": "hut", "hex": [2, 3]})


# ---------------------------------------------------------------- B) supply and C) famine
RED_FEEDING = """
1,4:R1
2,3:r 2,4:r 2,5:r 1,3:r     # A (date), B (barley), C (date), D (grape)
"""


def test_example_reds_feeding_and_the_famine_of_hut_c():
    """2 barley feeds B, the plow A, 3 grape D; the palm card is kept and C starves."""
    state = position(4, RED_FEEDING, phase="feed", active=RED, order=[RED, GREEN, YELLOW, BLUE])
    state["hands"][RED] = cards("barley-2", "palm-1", "grape-3")
    state["plows"][RED] = True
    # the plow on D would leave a hut unfed that the grape card could feed: not allowed
    with pytest.raises(IllegalAction, match="compulsory"):
        rules.apply(state, RED, {"type": "feed", "card": "plow", "hex": [1, 3]})
    with pytest.raises(IllegalAction, match="cannot feed"):
        rules.apply(state, RED, {"type": "feed", "card": "palm-1", "hex": [1, 3]})
    state = act(state, RED, type="feed", card="barley-2", hex=[2, 4])      # B
    state = act(state, RED, type="feed", card="plow", hex=[2, 3])          # A
    assert state["plow_pile"] == 1 and not state["plows"][RED]
    state = act(state, RED, type="feed", card="grape-3", hex=[1, 3])       # D
    # famine: C goes back to stock; the palm card stays in Red's hand
    assert sorted(R.huts_of(state, RED)) == ["1,3", "2,3", "2,4"]
    assert [R.kind(c) for c in state["hands"][RED]] == ["palm-1"]
    assert state["played"] == {} and R.huts_in_stock(state, RED) == 7


def test_the_famine_is_in_the_log_line_of_the_last_feeding_in_both_languages():
    state = position(4, RED_FEEDING, phase="feed", active=RED, order=[RED, GREEN, YELLOW, BLUE])
    state["hands"][RED] = cards("barley-2", "palm-1", "grape-3")
    state["plows"][RED] = True
    first = {"type": "feed", "card": "barley-2", "hex": [2, 4]}
    assert "Famine" not in rules.describe(state, RED, first)
    state = act(state, RED, **first)
    state = act(state, RED, type="feed", card="plow", hex=[2, 3])
    last = {"type": "feed", "card": "grape-3", "hex": [1, 3]}
    line = rules.describe(state, RED, last)
    assert line.endswith(" Famine: {p0}'s unfed hut on 2,5 went back to stock."), line
    with speaking("hu"):
        assert "Éhínség: {p0} ellátatlan kunyhója" in rules.describe(state, RED, last)
        assert "2,5" in rules.describe(state, RED, last)


def test_a_famine_that_another_seats_action_sets_off_is_in_that_line():
    """Red ends its wells; Green's expansion begins with no hut to place and no card that can
    feed: Green's two huts starve at once, inside Red's action."""
    state = position(4, "1,4:R1 0,5:g 3,3:g 7,1:G1", phase="wells", active=RED,
                     order=[RED, GREEN, YELLOW, BLUE], queue=[GREEN, YELLOW, BLUE])
    state["hands"][GREEN] = []
    state["huts"].update({h: GREEN for h in ("6,1", "6,2", "7,2", "8,0", "8,1", "5,2")})
    state["dignitaries"]["lower"] = [GREEN] * 2          # 10 - 8 on the board - 2: none left
    line = rules.describe(state, RED, {"type": "end_wells"})
    assert line.startswith("{p0} built no more wells.")
    assert "Famine: {p1}'s 8 unfed huts on " in line and "0,5" in line
    assert "{p0}'s" not in line


def test_feeding_finds_a_maximum_matching_where_greedy_starves_a_hut():
    """A joker fed to the grape hut first (greedy) would starve the salt hut; the matching
    feeds both: grape card on grape, joker on salt."""
    state = position(4, "1,4:R1 1,3:r 2,4:r 1,5:r", phase="feed", active=RED)  # grape, barley, palm
    state["hands"][RED] = cards("joker", "grape-1", "barley-2")
    legal = rules.legal_actions(state, RED)
    assert {"type": "feed", "card": "joker", "hex": [1, 3]} not in legal
    assert {"type": "feed", "card": "joker", "hex": [2, 4]} not in legal
    assert {"type": "feed", "card": "joker", "hex": [1, 5]} in legal
    assert R.feedable(state, RED) == 3
    while state["phase"] == "feed":
        state = rules.apply(state, RED, rules.legal_actions(state, RED)[-1])
    assert len(R.huts_of(state, RED)) == 3 and state["hands"][RED] == []


def test_max_fed_is_a_maximum_matching():
    assert R.max_fed({"grape": 2, "salt": 1}, {"grape": 1}, 1) == 2
    assert R.max_fed({"grape": 2, "salt": 1}, {"grape": 3}, 0) == 2
    assert R.max_fed({"grape": 1, "salt": 2}, {"grape": 1, "salt": 1}, 2) == 3
    assert R.max_fed({"date": 4}, {"grape": 3}, 1) == 1


def test_multi_symbol_card_feeds_several_huts_and_unused_symbols_are_lost():
    state = position(4, "1,4:R1 1,3:r 0,5:r 3,3:r", phase="feed", active=RED)  # three grape huts
    state["hands"][RED] = cards("grape-3", "grape-2", "grape-1")
    state = act(state, RED, type="feed", card="grape-2", hex=[1, 3])
    assert state["played"] == {"grape": 1}
    state = act(state, RED, type="feed", card="played", hex=[0, 5])
    state = act(state, RED, type="feed", card="grape-1", hex=[3, 3])
    assert state["phase"] != "feed" and state["played"] == {}
    assert [R.kind(c) for c in state["hands"][RED]] == ["grape-3"]    # unplayed cards are kept


def test_a_single_card_may_feed_one_hut_losing_its_other_symbols():
    state = position(4, "1,4:R1 1,3:r", phase="feed", active=RED)
    state["hands"][RED] = cards("grape-3")
    state = act(state, RED, type="feed", card="grape-3", hex=[1, 3])
    assert state["played"] == {} and state["hands"][RED] == [] and state["phase"] != "feed"


def test_old_huts_must_be_fed_again_and_ziggurats_need_no_food():
    state = position(4, "1,4:R1 2,4:r 2,5:r", phase="huts", active=RED, expansion=[4])
    state["hands"][RED] = cards("joker")
    R.begin_supply(state, RED)
    assert sorted(R.unfed_huts(state, RED)) == ["2,4", "2,5"]
    state = rules.apply(state, RED, rules.legal_actions(state, RED)[0])
    assert len(R.huts_of(state, RED)) == 1 and "1,4" in state["ziggurats"]


# ---------------------------------------------------------------- D) wells
BLUE_WELL = """
3,3:b 2,3:b 2,4:b     # B outside, a hut on the lower river, C outside: well site 7
2,2:b                 # A between the rivers
4,4:B1                # Blue's ziggurat base
"""


def blue_wells(**fields):
    return position(4, BLUE_WELL, phase="wells", active=BLUE, order=[RED, GREEN, YELLOW, BLUE],
                    **fields)


def test_example_blue_prestige_of_11_with_a_new_well_in_reign_one():
    """2 (A) + 1 (B) + 1 (C) + 0 (river hut) + 1 (base) + 6 (new well in reign I) = 11."""
    state = blue_wells()
    assert rules.legal_actions(state, BLUE) == [{"type": "well", "site": 7}, {"type": "end_wells"}]
    state = act(state, BLUE, type="well", site=7)
    assert state["wells"] == [7] and state["score"][BLUE] == 11
    assert state["camels"][BLUE] == 3                              # one hut on the lower river
    assert state["phase"] == "actions" and rules.to_act(state) == [RED]


@pytest.mark.parametrize("reign,points", [(1, 6), (2, 5), (3, 4)])
def test_well_points_by_reign(reign, points):
    state = blue_wells(reign=reign)
    state = act(state, BLUE, type="well", site=7)
    assert state["score"][BLUE] == points + 5


def test_wells_are_optional():
    state = act(blue_wells(), BLUE, type="end_wells")
    assert state["wells"] == [] and state["score"][BLUE] == 5


def test_well_needs_three_own_huts_a_free_site_and_stock():
    state = blue_wells()
    state["huts"]["2,4"] = GREEN
    assert R.well_sites(state, BLUE) == []
    with pytest.raises(IllegalAction, match="well"):
        rules.apply(state, BLUE, {"type": "well", "site": 7})
    taken = blue_wells(wells=[7])
    assert R.well_sites(taken, BLUE) == []
    empty = blue_wells(wells=list(range(20, 36)))                 # all 16 wells on the board
    assert R.wells_in_stock(empty) == 0 and R.well_sites(empty, BLUE) == []
    state = blue_wells()
    state["ziggurats"]["2,4"] = [BLUE, 1]                         # never next to a ziggurat
    del state["huts"]["2,4"]
    assert R.well_sites(state, BLUE) == []


def test_no_well_site_between_the_rivers():
    bd = R.b(rules.setup(4, 1))
    assert all(bd.region(h) != "inside" for site in bd.well_sites for h in site)


def test_no_well_step_when_no_site_is_legal():
    state = position(4, "1,4:R1 2,4:r 8,1:G1", phase="feed", active=RED)
    state["hands"][RED] = cards("barley-1")
    state = act(state, RED, type="feed", card="barley-1", hex=[2, 4])
    assert state["phase"] == "huts" and rules.to_act(state) == [GREEN]


# ---------------------------------------------------------------- E) income and prestige
def test_example_green_income_of_8_camels():
    state = position(4, "0,2:g 1,1:g 1,3:g 0,3:g", phase="wells", active=GREEN)
    assert R.income(state, GREEN) == 3 + 2 + 3
    state["camels"][GREEN] = 1
    R.income_and_prestige(state, GREEN)
    assert state["camels"][GREEN] == 9
    assert state["score"][GREEN] == 2                                # the hut between the rivers


def test_camels_never_over_10():
    state = position(4, "0,2:g 1,1:g 2,0:g", phase="wells", active=GREEN, camels=[0, 5, 0, 0])
    R.income_and_prestige(state, GREEN)
    assert state["camels"][GREEN] == 10


def test_prestige_inside_outside_river_and_ziggurat_pieces():
    state = position(4, "0,3:y 2,2:y 0,0:y 0,2:y 1,3:y 4,4:Y3 5,3:Y1")
    assert R.prestige(state, YELLOW) == 2 + 2 + 1 + 0 + 0 + 3 + 1


def test_expansion_goes_through_every_player_in_turn_order():
    state = position(4, "1,0:R1 1,4:G1 8,-3:Y1 8,1:B1", phase="huts", active=GREEN,
                     order=[GREEN, BLUE, RED, YELLOW], expansion=[2])
    R.begin_expansion(state, GREEN)
    seen = []
    while state["phase"] != "actions":
        seat = rules.to_act(state)[0]
        if not seen or seen[-1] != seat:
            seen.append(seat)
        state = rules.apply(state, seat, rules.legal_actions(state, seat)[0])
    assert seen == [GREEN, BLUE, RED, YELLOW]
    assert rules.to_act(state) == [GREEN]


def kuhn_matching(huts: list[str], units: list[str]) -> int:
    """Maximum bipartite matching by augmenting paths: hut foods against symbol units."""
    owner: dict = {}

    def fits(unit, food):
        return unit in ("joker", "plow") or unit == food

    def augment(i, seen):
        for j, unit in enumerate(units):
            if j not in seen and fits(unit, huts[i]):
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return sum(augment(i, set()) for i in range(len(huts)))


def test_max_fed_equals_an_augmenting_path_matching_on_random_cases():
    import random
    rng = random.Random(3)
    for _ in range(400):
        huts = [rng.choice(R.FOODS) for _ in range(rng.randrange(8))]
        units = [rng.choice(R.FOODS + ("joker",)) for _ in range(rng.randrange(8))]
        counts = {f: huts.count(f) for f in set(huts)}
        symbols = {f: units.count(f) for f in set(units) if f != "joker"}
        assert R.max_fed(counts, symbols, units.count("joker")) == kuhn_matching(huts, units)
