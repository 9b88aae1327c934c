"""Áradás: flood, Assur, dignitaries, offerings, next reign, and the game end."""
import pytest

from pbem.games.assyria import rules
from pbem.games.assyria import engine as R

from .helpers import BLUE, GREEN, RED, YELLOW, act, position


def assur_example():
    """3 players, end of a reign with the expansion cards 4, 2, 4 showing.

    Red: two huts with the highest dignitary and one with the lower (3 + 3 + 1 = 7);
    Green: two with the lower (1 + 1); Yellow: one with the middle (2).
    """
    state = position(3, "", phase="actions", active=YELLOW, order=[RED, GREEN, YELLOW],
                     reign=2, turn=3, expansion=[4, 2, 4])
    state["dignitaries"] = {"highest": [RED, RED, None], "middle": [YELLOW, None, None, None],
                            "lower": [RED, GREEN, GREEN, None, None, None]}
    return state


def test_example_assur_ranking_and_points():
    state = assur_example()
    assert [R.influence(state, s) for s in (RED, GREEN, YELLOW)] == [7, 2, 2]
    assert R.assur_ranking(state) == [RED, GREEN, YELLOW]        # Green ahead on huts
    assert R.assur(state) == [[RED, 10], [GREEN, 6], [YELLOW, 2]]
    assert state["score"] == [10, 6, 2]
    assert sorted(state["expansion_discards"]) == [2, 4, 4] and state["expansion"] == []


def test_example_dignitary_bonuses():
    """Green 2 camels; Yellow a plow; Red 4 points and 1 camel. Then the huts go home."""
    state = assur_example()
    state["plow_pile"] = 1
    R.dignitary_bonuses(state)
    assert state["camels"] == [1, 2, 0]
    assert state["plows"] == [False, False, True] and state["plow_pile"] == 0
    assert state["score"] == [4, 0, 0]
    assert all(slot is None for d in R.DIGNITARIES for slot in state["dignitaries"][d])
    assert [R.huts_in_stock(state, s) for s in range(3)] == [10, 10, 10]


def test_highest_dignitary_bonus_1_4_8_and_plow_only_without_one_and_from_the_pile():
    state = position(4, "", plows=[True, False, False, False], plow_pile=1)
    state["dignitaries"] = {"highest": [RED, RED, RED], "middle": [RED, GREEN, BLUE, None],
                            "lower": [None] * 6}
    R.dignitary_bonuses(state)
    assert state["score"][RED] == 8
    # Red holds a plow already; Green (earlier in turn order) takes the only one on the board
    assert state["plows"] == [True, True, False, False] and state["plow_pile"] == 0
    assert R.HIGHEST_BONUS == {0: 0, 1: 1, 2: 4, 3: 8}


def test_lower_dignitary_camels_never_over_10():
    state = position(4, "", camels=[9, 0, 0, 0])
    state["dignitaries"]["lower"] = [RED, RED, RED, None, None, None]
    R.dignitary_bonuses(state)
    assert state["camels"][RED] == 10


def test_assur_ties_more_huts_then_the_single_higher_hut():
    state = position(4, "", expansion=[3, 3, 3], reign=2)
    # Red 3 + 1 and Blue 2 + 2: same influence, same number of huts; Red's highest hut is higher
    state["dignitaries"] = {"highest": [None, RED, None], "middle": [BLUE, BLUE, None, None],
                            "lower": [RED, None, None, None, None, None]}
    assert R.assur_ranking(state) == [RED, BLUE]
    state["dignitaries"] = {"highest": [None] * 3, "middle": [GREEN, None, YELLOW, None],
                            "lower": [None] * 6}
    assert R.assur_ranking(state) == [GREEN, YELLOW]


def test_players_without_a_hut_in_assur_score_nothing_and_cards_run_out():
    state = position(4, "", expansion=[2, 3], reign=1)
    state["dignitaries"]["lower"] = [RED, GREEN, YELLOW, None, None, None]
    assert R.assur(state) == [[RED, 5], [GREEN, 2], [YELLOW, 0]]
    assert state["score"] == [5, 2, 0, 0]


def test_bonus_card_counts_with_4_players():
    state = position(4, "", expansion=[4, 3, 2], reign=2, bonus=True)
    state["dignitaries"]["lower"][0] = BLUE
    assert R.assur(state) == [[BLUE, 13]]


@pytest.mark.parametrize("reign,second", [(1, 0), (2, 2), (3, 2)])
def test_two_player_assur(reign, second):
    state = position(2, "", expansion=[4, 2] if reign == 1 else [3, 2, 4], reign=reign)
    state["dignitaries"]["lower"][:2] = [1, 0]
    state["dignitaries"]["middle"][0] = 0
    first_points = 6 if reign == 1 else 9
    assert R.assur(state) == [[0, first_points], [1, second]]


def test_example_yellow_offering_3_ziggurats_times_3():
    state = position(4, "0,0:Y1 3,3:Y2 4,4:Y3 5,3:R1", offering=[2, 0, 4, 7])
    R.offerings(state)
    assert state["score"] == [2, 0, 9, 0]
    assert state["offering"] == [0, 0, 0, 0]
    assert R.OFFERING_TRACK == (0, 1, 2, 2, 3, 3, 3, 4)


def flood_state(reign=1, players=4):
    state = position(players, "1,1:r 2,2:r 1,3:g 0,0:G1", phase="actions", active=players - 1,
                     reign=reign, turn=R.TURNS_PER_REIGN[reign], expansion=[4, 3],
                     offering=[0, 3] + [0] * (players - 2), camels=[1, 2, 3, 4][:players])
    state["dignitaries"]["highest"][0] = RED
    return state


def test_flood_at_the_end_of_a_reign_then_the_next_reign_begins():
    state = flood_state()
    top = state["expansion_deck"][-1]
    state = act(state, BLUE, type="end_actions")
    assert state["huts"] == {"2,2": RED}                          # river huts went home
    assert state["assur"] == [[RED, 7]]
    assert state["score"] == [7 + 1, 2, 0, 0]                    # Assur, highest bonus; offering
    assert state["offering"] == [0, 0, 0, 0]
    assert state["reign"] == 2 and state["turn"] == 1
    assert state["expansion"] == [top] and state["bonus"] is True
    assert state["phase"] == "harvest"


def test_no_bonus_card_with_3_players():
    state = act(flood_state(players=3), YELLOW, type="end_actions")
    assert state["bonus"] is False and state["reign"] == 2


def test_game_ends_after_the_third_flood_with_the_final_points():
    state = flood_state(reign=3)
    state["ziggurats"]["5,3"] = [RED, 3]
    state["plows"] = [True, False, False, True]
    state["camels"] = [5, 2, 0, 1]
    state = act(state, BLUE, type="end_actions")
    assert rules.to_act(state) == [] and state["phase"] == "over"
    # Red: Assur 7 + highest 1 + 3 pieces + plow + 2 camel pairs; Green: offering 2 x 1
    # ziggurat + 1 piece + 1 pair; Blue: plow
    assert state["score"] == [7 + 1 + 3 + 1 + 2, 2 + 1 + 1, 0, 1]
    assert rules.result(state)["ranking"] == [[RED], [GREEN], [BLUE], [YELLOW]]
    assert rules.legal_actions(state, RED) == []


def test_ties_for_first_share_the_win():
    state = flood_state(reign=3)
    state["final"], state["score"] = [{}] * 4, [30, 30, 12, 30]
    assert rules.result(state)["ranking"] == [[RED, GREEN, BLUE], [YELLOW]]
    assert rules.result(flood_state()) is None
