"""One rule at a time, on positions drawn with the text helper."""
import pytest

from pbem.games.base import IllegalAction
from pbem.games.tigris import rules
from pbem.games.tigris.board import (CORNER_TREASURES, RIVER, SQUARES, START_TEMPLES,
                                     TILE_COUNTS, label)

from .helpers import check_invariants, play, position, sq

PASS = {"type": "pass"}


def leader(name, r, c, kind="place_leader"):
    return {"type": kind, "leader": name, "at": [r, c]}


def tile(color, r, c):
    return {"type": "place_tile", "colour": color, "at": [r, c]}


def commit(n):
    return {"type": "commit", "count": n}


def illegal(state, seat, action, words):
    assert action not in rules.legal_actions(state, seat)
    with pytest.raises(IllegalAction, match=words):
        rules.apply(state, seat, action)


# --- Setup -------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup(players):
    s = rules.setup(players, 42)
    assert len(s["board"]) == SQUARES == 16 * 11 and len(RIVER) == 41
    assert sorted(s["treasures"]) == sorted(START_TEMPLES) and len(START_TEMPLES) == 10
    assert len(CORNER_TREASURES) == 4 and CORNER_TREASURES <= set(START_TEMPLES)
    assert all(s["board"][i] == "red" for i in START_TEMPLES)
    assert len(s["bag"]) == 143 - 6 * players
    assert all(sum(h.values()) == 6 for h in s["hands"])
    assert s["catastrophes"] == [2] * players
    assert all(i is None for seat in s["leaders"] for i in seat.values())
    assert len(s["leaders"][0]) == 4 and rules.to_act(s) == [0]
    assert s["options"] == {"english_variant": False, "open_scoring": False}
    assert rules.setup(players, 42) == s and rules.setup(players, 43) != s
    check_invariants(s)


def test_setup_rejects_bad_players_and_options():
    with pytest.raises(IllegalAction):
        rules.setup(5, 1)
    with pytest.raises(IllegalAction, match="unknown option"):
        rules.setup(2, 1, {"speed": True})


def test_board_labels():
    assert label(sq(3, 5)) == "F4" and label(0) == "A1" and label(SQUARES - 1) == "P11"


# --- The turn ----------------------------------------------------------------

def test_two_actions_then_next_player_and_pass_ends_early():
    s = rules.setup(3, 7)
    spots = [a for a in rules.legal_actions(s, 0) if a["type"] == "place_leader"]
    s = play(s, (0, spots[0]))
    assert rules.to_act(s) == [0] and s["turn"]["actions_done"] == 1
    s = play(s, (0, PASS))
    assert rules.to_act(s) == [1] and s["turn"]["actions_done"] == 0
    s = play(s, (1, PASS))                          # a whole turn passed
    assert rules.to_act(s) == [2]
    swaps = [a for a in rules.legal_actions(s, 2) if a["type"] == "swap"]
    s = play(s, (2, swaps[0]), (2, swaps[0]))        # the same action twice
    assert rules.to_act(s) == [0]


def test_malformed_actions_are_illegal_not_crashes():
    s = rules.setup(2, 3)
    for bad in ({}, {"type": 5}, {"type": "fly"}, {"type": "place_tile"},
                {"type": "place_tile", "colour": "red", "at": "F4"},
                {"type": "place_leader", "leader": "queen", "at": [4, 4]},
                {"type": "swap", "tiles": "red"}, {"type": "commit", "count": 1}, []):
        with pytest.raises(IllegalAction):
            rules.apply(s, 0, bad)


# --- Leaders -----------------------------------------------------------------

JOIN = """
.  .  r  .  .
r  K0 .  P1 r
"""


def test_leader_needs_a_temple_and_land_and_may_not_join_two_kingdoms():
    s = position(JOIN, top=3, left=4)
    illegal(s, 0, leader("priest", 4, 6), "join two kingdoms")
    illegal(s, 0, leader("priest", 5, 9), "not next to a temple")
    illegal(s, 0, leader("priest", 4, 5), "not empty")
    t = position("~ r", top=3, left=3)              # (3,3) is river
    illegal(t, 0, leader("king", 3, 3), "river")
    # Joining a leaderless region to one kingdom is allowed.
    s = play(s, (0, leader("priest", 2, 6)))
    assert s["pending"] is None


def test_moving_lifts_the_leader_first_and_withdraw_returns_it():
    s = position(JOIN, top=3, left=4)
    illegal(s, 0, leader("king", 4, 5, "move_leader"), "already stands")
    # Lifted from (4,5), the king may stand on (4,6): it then joins only P1's kingdom.
    s = play(s, (0, leader("king", 4, 6, "move_leader")))
    assert s["leaders"][0]["black"] == sq(4, 6)
    s = play(s, (0, {"type": "withdraw_leader", "leader": "king"}))
    assert s["leaders"][0]["black"] is None and rules.to_act(s) == [1]
    illegal(s, 1, {"type": "withdraw_leader", "leader": "king"}, "not on the board")


# --- Tiles and points ----------------------------------------------------------

FOUR_KINGDOMS = """
.  .  K0 .  .
.  .  r  .  .
P1 r  .  r  T1
.  .  r  .  .
.  .  F1 .  .
"""


def test_tile_colours_river_and_the_two_kingdom_limit():
    s = position(FOUR_KINGDOMS, top=2, left=4, hands={0: "rbgkrb"})
    illegal(s, 0, tile("red", 4, 6), "more than two kingdoms")
    illegal(s, 0, tile("blue", 4, 0), "only go on the river")
    illegal(s, 0, tile("red", 3, 0), "only farms")
    illegal(s, 0, tile("green", 2, 6), "not empty")
    s = play(s, (0, tile("blue", 3, 0)), (0, tile("red", 1, 6)))
    assert s["points"][0]["red"] == 1                          # K0 stands in for a priest


def test_points_go_to_same_colour_leader_else_king_else_nobody():
    drawing = """
    K0 r  P1 .  .  .  T1 r
    """
    s = position(drawing, top=4, left=4, hands={0: "rrgkkb", 1: "rrggkk"})
    s = play(s, (0, tile("red", 5, 5)))                         # priest of seat 1
    assert s["points"][1]["red"] == 1 and s["points"][0]["red"] == 0
    s = play(s, (0, tile("black", 3, 5)))                       # the king is the black leader
    assert s["points"][0]["black"] == 1
    s = play(s, (1, tile("black", 3, 11)))                      # trader only: nobody scores
    s = play(s, (1, tile("green", 3, 8)))                       # in no kingdom: nothing
    assert s["points"][1] == {"red": 1, "blue": 0, "green": 0, "black": 0}
    assert s["points"][0] == {"red": 0, "blue": 0, "green": 0, "black": 1}


# --- Catastrophes ------------------------------------------------------------

CATASTROPHE = """
.  .  P1 .  .
K0 r  r  r  .
"""


def cat(r, c):
    return {"type": "place_catastrophe", "at": [r, c]}


def test_catastrophe_splits_a_kingdom_and_strands_a_leader():
    s = position(CATASTROPHE, top=3, left=4, hands={0: "rrrggk"})
    s = play(s, (0, cat(4, 6)))
    assert s["board"][sq(4, 6)] == "catastrophe" and s["out"]["red"] == 1
    assert s["leaders"][1]["red"] is None                      # its only temple is gone
    assert s["catastrophes"][0] == 1
    s = play(s, (0, tile("red", 4, 8)))                         # now in a leaderless region
    assert s["points"][0]["red"] == 0


def test_catastrophe_limits():
    drawing = """
    .  .  .  .  r  r
    .  .  .  .  r  r
    r* K0 r  X
    """
    s = position(drawing, top=2, left=4, monuments={"red/black": (2, 8)},
                 hands={0: "rrrrgk"})
    illegal(s, 0, cat(4, 4), "treasure")
    illegal(s, 0, cat(4, 5), "leader")
    illegal(s, 0, cat(4, 7), "already holds")
    illegal(s, 0, cat(2, 8), "monument")
    assert cat(3, 0) in rules.legal_actions(s, 0)               # on the river, empty
    s["catastrophes"][0] = 0
    assert not any(a["type"] == "place_catastrophe" for a in rules.legal_actions(s, 0))
    illegal(s, 0, cat(3, 0), "no catastrophe")


# --- Swapping ----------------------------------------------------------------

def test_swap_tiles_leave_the_game_and_as_many_are_drawn():
    s = position("K0 r", top=4, left=4, hands={0: "rrgggk"}, bag="bbk")
    s = play(s, (0, {"type": "swap", "tiles": ["red", "green", "green"]}))
    assert s["hands"][0] == {"red": 1, "blue": 2, "green": 1, "black": 2}
    assert s["out"] == {"red": 1, "blue": 0, "green": 2, "black": 0}
    line = rules.describe(s, 0, {"type": "swap", "tiles": ["red"]})
    assert line == "{p0} swapped 1 tile."


def test_game_ends_at_once_when_a_swap_cannot_be_refilled():
    s = position("K0 r", top=4, left=4, hands={0: "rrgggk"})
    kept = s["bag"][:1]
    for color in s["bag"][1:]:
        s["out"][color] += 1
    s["bag"] = kept
    s = play(s, (0, {"type": "swap", "tiles": ["green", "green"]}))
    assert s["over"] and "swap" in s["end_reason"]
    assert rules.to_act(s) == [] and rules.result(s) is not None


# --- Revolt ------------------------------------------------------------------

REVOLT = """
r  .  .  .
P0 r  .  r
"""


def test_revolt_strength_counts_temples_next_to_each_leader_and_ties_go_to_defender():
    s = position(REVOLT, top=3, left=4, hands={0: "rrggkk", 1: "rrrggk"}, active=1)
    s = play(s, (1, leader("priest", 4, 6)))                    # next to (4,5) and (4,7)
    assert s["pending"]["strength"] == [2, 2]
    s = play(s, (1, commit(0)), (0, commit(0)))
    assert s["leaders"][1]["red"] is None and s["leaders"][0]["red"] == sq(4, 4)
    assert s["points"][0]["red"] == 1


def test_revolt_between_farmers_still_scores_red_and_a_move_can_start_it():
    drawing = """
    .  .  .  .  F1
    r  .  .  .  r
    F0 r  r  r  .
    """
    s = position(drawing, top=2, left=4, hands={0: "rrggkk", 1: "rrrggk"}, active=1)
    s = play(s, (1, leader("farmer", 4, 8, "move_leader")))   # 2 temples against 2
    assert s["pending"]["kind"] == "revolt" and s["pending"]["color"] == "blue"
    illegal(s, 1, commit(4), "may not commit")
    s = play(s, (1, commit(2)), (0, commit(1)))
    assert s["leaders"][0]["blue"] is None and s["points"][1]["red"] == 1
    assert s["out"]["red"] == 3


# --- War ---------------------------------------------------------------------

WAR3 = """
r  r  .  .  .  r  r
K0 T0 g  .  g  T2 K2
.  .  .  .  g  .  .
"""


def test_war_order_chosen_by_a_player_without_a_leader_and_attacker_clockwise():
    s = position(WAR3, players=3, top=3, left=4, active=1,
                 hands={0: "gggkkk", 1: "ggrrkk", 2: "gggkkk"})
    s = play(s, (1, tile("green", 4, 7)))
    assert rules.to_act(s) == [1] and s["pending"]["kind"] == "war_order"
    assert {a["leader"] for a in rules.legal_actions(s, 1)} == {"king", "trader"}
    s = play(s, (1, {"type": "choose_war", "leader": "king"}))
    # Clockwise from seat 1: seat 2 comes before seat 0.
    assert s["pending"]["attacker"] == 2 and s["pending"]["defender"] == 0
    assert s["pending"]["strength"] == [0, 0]                   # no black tiles on a side
    s = play(s, (2, commit(1)), (0, commit(0)))
    assert s["leaders"][0]["black"] is None and s["points"][2]["black"] == 1
    # The traders' war follows at once; base strength leaves out the green uniting tile.
    assert s["pending"]["kind"] == "war" and s["pending"]["color"] == "green"
    assert s["pending"]["attacker"] == 2 and s["pending"]["strength"] == [2, 1]
    s = play(s, (2, commit(0)), (0, commit(3)))
    assert s["leaders"][2]["green"] is None
    assert s["points"][0]["green"] == 3                         # (4,8), (5,8) + the leader
    assert s["board"][sq(4, 7)] == "green"                      # the uniting tile stays
    assert s["unification"] is None and rules.to_act(s) == [1]
    assert sorted(s["turn"]["committers"]) == [0, 2]


RED_WAR = """
.  r* .  .  .  r  .
P0 r  r  .  P1 r  r
.  r  K0 .  .  .  .
"""


def test_red_war_keeps_temples_with_treasure_or_next_to_another_leader():
    s = position(RED_WAR, top=3, left=4, hands={0: "kkgggb", 1: "rrgggb"})
    s = play(s, (0, tile("black", 4, 7)))
    assert s["pending"]["kind"] == "war" and s["pending"]["strength"] == [4, 3]
    s = play(s, (0, commit(0)), (1, commit(2)))
    # P0 lost: (3,5) keeps its treasure, (4,6) and (5,5) stand next to K0; only (4,5) goes.
    assert s["leaders"][0]["red"] is None
    assert [s["board"][sq(*rc)] for rc in ((3, 5), (4, 5), (4, 6), (5, 5))] == [
        "red", "", "red", "red"]
    assert s["points"][1]["red"] == 2
    assert s["leaders"][0]["black"] == sq(5, 6)


def test_a_war_that_splits_the_kingdom_cancels_the_next():
    # The rulebook's war example, seen through describe.
    from .test_examples import WAR
    s = position(WAR, top=3, left=4, hands={0: "ggggrk", 1: "gkkkrr"})
    s = play(s, (0, tile("red", 4, 7)), (0, {"type": "choose_war", "leader": "trader"}),
             (0, commit(4)))
    line = rules.describe(s, 1, commit(1))
    assert line.startswith("{p1} committed 1 green tile as the defender in the war of the traders")
    assert "{p0} won the war of the traders 5:3, removing 2 tiles" in line
    s = play(s, (1, commit(1)))
    assert s["pending"] is None and s["leaders"][1]["black"] is not None


# --- Monuments ---------------------------------------------------------------

MONUMENT = """
r*  r  F0 .
r   .  .  .
K0  r  .  .
"""


def test_monument_flips_tiles_strands_a_leader_and_keeps_the_treasure():
    s = position(MONUMENT, top=3, left=4, hands={0: "rrggkk"})
    s = play(s, (0, tile("red", 4, 5)))
    assert s["points"][0]["red"] == 1                           # the king stands in
    assert s["pending"]["kind"] == "monument"
    names = {a["monument"] for a in rules.legal_actions(s, 0) if a["type"] == "build_monument"}
    assert names == {"red/black", "red/green", "blue/red"}
    assert {"type": "decline_monument"} in rules.legal_actions(s, 0)
    s = play(s, (0, {"type": "build_monument", "monument": "red/black", "at": [3, 4]}))
    assert s["monuments"]["red/black"] == sq(3, 4)
    assert s["leaders"][0]["blue"] is None                      # its only temple turned over
    assert s["leaders"][0]["black"] == sq(5, 4)                 # (5,5) is still a temple
    assert sq(3, 4) in s["treasures"]
    view = rules.view(s, 0)
    assert {"at": [3, 4], "square": "E4", "color": None, "face_down": True} in view["tiles"]
    # End of turn: black for the king next to the monument; the king gives no red here.
    s = play(s, (0, PASS))
    assert s["points"][0] == {"red": 1, "blue": 0, "green": 0, "black": 1}


def test_monument_points_need_a_leader_of_its_colour_and_flipped_tiles_connect():
    s = position(MONUMENT, top=3, left=4, hands={0: "rrggkk", 1: "rrggkk"})
    s = play(s, (0, tile("red", 4, 5)),
             (0, {"type": "build_monument", "monument": "red/black", "at": [3, 4]}))
    s = play(s, (0, PASS))
    # Seat 1 gets nothing from the monument at the end of its own turn (no leader there).
    s = play(s, (1, tile("black", 5, 7)), (1, PASS))
    assert s["points"][1]["black"] == 0
    # A tile beyond the face-down tiles joins the same kingdom: the king scores it.
    s = play(s, (0, tile("green", 2, 5)))
    assert s["points"][0]["green"] == 1


def test_one_tile_completing_two_squares_lets_the_player_choose_and_decline_is_final():
    drawing = """
    r  r  r
    r  .  r
    """
    s = position(drawing, top=3, left=4, hands={0: "rrggkk"})
    s = play(s, (0, tile("red", 4, 5)))
    squares = {tuple(a["at"]) for a in rules.legal_actions(s, 0) if a["type"] == "build_monument"}
    assert squares == {(3, 4), (3, 5)}
    s = play(s, (0, {"type": "decline_monument"}))
    assert s["declined"] == [sq(3, 4), sq(3, 5)] and s["monuments"]["red/black"] is None
    s["board"][sq(4, 5)] = ""                                   # as if removed in a war
    s["out"]["red"] += 1
    s = play(s, (0, tile("red", 4, 5)))
    assert s["pending"] is None                                 # never offered again


def test_no_monument_of_the_colour_left_means_nothing_happens():
    s = position(MONUMENT, top=3, left=4, hands={0: "rrggkk"},
                 monuments={"red/black": (0, 0), "red/green": (0, 2), "blue/red": (9, 0)})
    s = play(s, (0, tile("red", 4, 5)))
    assert s["pending"] is None and s["turn"]["actions_done"] == 1


# --- Treasures ---------------------------------------------------------------

TREASURES = """
.  r* .  .
.  r* .  r*
.  .  .  .
"""


def test_corner_treasure_is_taken_first():
    s = position(".  r*\n.  r*", top=0, hands={0: "rrggkk"})
    before = s["treasures_taken"][0]
    s = play(s, (0, leader("trader", 2, 1)))                   # 2 treasures: the corner goes
    assert s["pending"] is None
    assert sq(1, 1) not in s["treasures"] and sq(0, 1) in s["treasures"]
    assert s["treasures_taken"][0] == before + 1


def test_trader_owner_chooses_even_when_not_the_active_player():
    s = position(TREASURES, top=0, hands={0: "rrggkk"})
    s["leaders"][1]["green"] = sq(2, 1)
    s = play(s, (0, tile("red", 1, 2)))
    assert rules.to_act(s) == [1] and s["pending"]["kind"] == "treasure"
    assert rules.legal_actions(s, 1) == [
        {"type": "take_treasures", "at": [[1, 1], [1, 3]]},
        {"type": "take_treasures", "at": [[0, 1], [1, 1]]}]
    illegal(s, 1, {"type": "take_treasures", "at": [[0, 1], [1, 3]]}, "corner")
    s = play(s, (1, {"type": "take_treasures", "at": [[0, 1], [1, 1]]}))
    assert s["treasures_taken"][1] == 2 and rules.to_act(s) == [0]


# --- End of the turn and of the game ----------------------------------------

def test_refill_active_player_first_then_those_who_committed():
    s = position(REVOLT, top=3, left=4, hands={0: "rrggkk", 1: "rrrggk"}, active=1,
                 bag="kbbgg")
    s = play(s, (1, leader("priest", 4, 6)), (1, commit(1)), (0, commit(2)), (1, PASS))
    assert s["hands"][1] == {"red": 2, "blue": 0, "green": 2, "black": 2}   # drew k
    assert s["hands"][0] == {"red": 0, "blue": 2, "green": 2, "black": 2}   # drew b, b


def test_game_ends_after_the_turn_with_two_or_fewer_treasures():
    drawing = """
    r* r* r*
    """
    s = position(drawing, top=4, left=4, hands={0: "rrggkk"}, far_treasures=False)
    s = play(s, (0, leader("trader", 3, 5)))
    s = play(s, (0, rules.legal_actions(s, 0)[0]))             # takes two of the three
    assert len(s["treasures"]) == 1 and not s["over"]          # not before the turn ends
    assert rules.to_act(s) == [0]
    s = play(s, (0, PASS))
    assert s["over"] and "treasures" in s["end_reason"]


def test_final_score_ties_are_shared():
    s = rules.setup(3, 1)
    s["over"], s["end_reason"] = True, "test"
    s["points"] = [{"red": 3, "blue": 4, "green": 5, "black": 6},
                   {"red": 6, "blue": 5, "green": 4, "black": 3},
                   {"red": 1, "blue": 9, "green": 9, "black": 9}]
    s["treasures_taken"] = [0, 0, 1]
    assert rules.result(s)["ranking"] == [[0, 1], [2]]


# --- Options -----------------------------------------------------------------

def test_english_variant_commit_limits():
    s = position(REVOLT, top=3, left=4, hands={0: "rrrggk", 1: "rrrggk"}, active=1,
                 options={"english_variant": True})
    s = play(s, (1, leader("priest", 5, 5)))                    # 1 temple against 2
    assert s["pending"]["strength"] == [1, 2]
    assert commits(s, 1) == [commit(0), commit(2), commit(3)]
    illegal(s, 1, commit(1), "may not commit")
    s = play(s, (1, commit(2)))                                 # 3 against 2
    assert commits(s, 0) == [commit(0), commit(1)]              # exactly enough to tie
    s = play(s, (0, commit(1)))
    assert s["leaders"][1]["red"] is None


def test_standard_commit_allows_any_number():
    s = position(REVOLT, top=3, left=4, hands={0: "rrrggk", 1: "rrrggk"}, active=1)
    s = play(s, (1, leader("priest", 4, 6)))
    assert commits(s, 1) == [commit(n) for n in range(4)]
    assert rules.legal_actions(s, 1)[4:] == [
        {"type": "standing", "decision": "support", "answer": "never"}]


def commits(s, seat):
    return [a for a in rules.legal_actions(s, seat) if a["type"] == "commit"]


def test_view_hides_other_hands_and_counts_every_players_points_from_the_log():
    s = position(REVOLT, top=3, left=4, hands={0: "rrrggk", 1: "rrrggk"})
    s["points"][1]["red"] = 4
    v = rules.view(s, 0)
    assert v["hand"] == {"red": 3, "blue": 0, "green": 2, "black": 1}
    # points and treasures are scored in public (the log says each): in every view, behind the
    # screens or not
    assert v["players"][1] == {"seat": 1, "dynasty": "bull", "hand_size": 6, "catastrophes": 2,
                               "leaders_in_supply": ["priest", "farmer", "trader", "king"],
                               "points": {"red": 4, "blue": 0, "green": 0, "black": 0},
                               "treasures_taken": 0}
    assert v["bag"] == len(s["bag"]) and v["prompt"] == "Your turn: action 1 of 2"
    assert rules.view(s, 1)["prompt"] is None and "hand" not in rules.view(s, None)
    assert rules.view(s, None)["players"][1]["points"]["red"] == 4
    s["over"] = True
    assert rules.view(s, None)["hands"][1]["red"] == 3


def test_tile_total():
    assert sum(TILE_COUNTS.values()) == 153


# --- Unification without conflict, and describe -------------------------------

def test_uniting_two_kingdoms_without_rivals_scores_nothing_and_the_tile_comes_off():
    drawing = """
    r  .  .  r
    K0 g  .  P1
    """
    s = position(drawing, top=3, left=4, hands={0: "ggrrkk"})
    s = play(s, (0, tile("green", 4, 6)))
    assert s["pending"] is None and s["unification"] is None
    assert s["points"][0] == {"red": 0, "blue": 0, "green": 0, "black": 0}
    s = play(s, (0, tile("green", 5, 6)))                        # now one kingdom: king scores
    assert s["points"][0]["green"] == 1


def test_monument_follows_a_war_when_the_square_is_still_complete():
    drawing = """
    r  r  r  r  .  .
    K0 P0 r  .  P1 r
    """
    s = position(drawing, top=3, left=4, hands={0: "rrggkk", 1: "kkggbb"})
    s = play(s, (0, tile("red", 4, 7)))                          # unites P0's and P1's kingdoms
    assert s["pending"]["kind"] == "war" and s["pending"]["strength"] == [5, 1]
    s = play(s, (0, commit(0)), (1, commit(0)))
    assert s["leaders"][1]["red"] is None and s["board"][sq(4, 9)] == ""
    assert s["pending"]["kind"] == "monument"                    # (3,6)-(4,7) is all red
    assert {tuple(a["at"]) for a in rules.legal_actions(s, 0)
            if a["type"] == "build_monument"} == {(3, 6)}


def test_describe_lines():
    s = position(MONUMENT, top=3, left=4, hands={0: "rrggkk"})
    assert rules.describe(s, 0, {"type": "place_catastrophe", "at": [3, 5]}) == (
        "{p0} placed a catastrophe on F4, destroying a red tile; {p0}'s farmer went home.")
    line = rules.describe(s, 0, tile("red", 4, 5))
    assert line == ("{p0} placed a red tile (temple) on F5; {p0} scored 1 red point; "
                    "{p0} may build a monument.")
    s = play(s, (0, tile("red", 4, 5)))
    build = {"type": "build_monument", "monument": "red/black", "at": [3, 4]}
    assert rules.describe(s, 0, build) == (
        "{p0} built the red/black monument on E4-F5; {p0}'s farmer went home.")
    assert rules.view(s, 0)["prompt"].startswith("Build a monument")


def test_prompts_name_the_decision():
    s = position(REVOLT, top=3, left=4, hands={0: "rrggkk", 1: "rrrggk"}, active=1)
    s = play(s, (1, leader("priest", 4, 6)))
    assert rules.view(s, 1)["prompt"] == "Revolt: commit red temple tiles as the attacker"
    assert rules.view(s, 0)["prompt"] is None
    s = play(s, (1, commit(1)))
    assert rules.view(s, 0)["prompt"] == "Revolt: commit red temple tiles as the defender"
    assert rules.view(s, None)["conflict"]["committed"] == [1, None]


def test_satisfies_the_rules_protocol():
    from pbem.games.base import Rules
    assert isinstance(rules, Rules) and rules.name == "tigris"
    assert (rules.min_players, rules.max_players) == (2, 4)
    assert rules.options == {"english_variant": False, "open_scoring": False}
