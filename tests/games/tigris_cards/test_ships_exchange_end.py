"""Ships, the trader's exchange, the end of the turn, the end of the game and the final score."""
import pytest

from pbem.games.tigris_cards import rules
from pbem.games.tigris_cards.scoring import final_ranking, with_treasures

from .helpers import Pool, act, column, hand, pile, position


# ---- Ships ------------------------------------------------------------------------------------
def test_a_green_run_buys_only_the_blue_green_ship():
    st = position("""
        T - T - T - T - T - T - T - T
        k . . . . . . .
        g . . . . . . .
        g . . . . . . .
        g . . . . . . .
    """, hands={0: "g"})
    st = act(st, 0, type="card", colour="green", column=0)
    assert st["pending"] == {"kind": "ship", "seat": 0, "column": 0, "ships": ["blue-green"]}
    st = act(st, 0, type="no_ship")
    assert column(st, 0) == ["T", "k", "g", "g", "g", "g"] and len(st["ships"]) == 3


def test_no_offer_when_that_ship_is_gone_and_a_treasure_is_never_part_of_a_run():
    st = position("""
        R - T - T - T - T - T - T - T
        r r Sr . . . . .
        r r .  . . . . .
        . r .  . . . . .
    """, hands={0: "rr"})
    st = act(st, 0, type="card", colour="red", column=0)  # treasure* + 3 temples: no run of 4
    assert st["pending"] == {"kind": "action", "seat": 0}
    st = act(st, 0, type="card", colour="red", column=1)  # 4 temples, but blue-red is taken
    assert st["pending"]["kind"] == "action"


def test_point_first_then_ship_leaders_on_the_four_cards_go_home_cards_go_below_a_ship():
    st = position("""
        T - T - T - T - T - T - T - T
        k    . . . . . . .
        b@1b . . . . . . .
        b    . . . . . . .
        b@1k . . . . . . .
    """, hands={0: "bbb", 1: "bb"})
    st = act(st, 0, type="card", colour="blue", column=0)
    assert st["pending"] == {"kind": "score", "seat": 1, "colour": "blue"}
    st = act(st, 1, type="score", colour="blue")
    st = act(st, 0, type="ship", ship="blue-red")
    assert column(st, 0) == ["T", "k", "Sr"]
    assert rules.view(st, 1)["supply"][1] == ["black", "green", "red", "blue"]
    assert sorted(st["ships"]) == ["blue-black", "blue-green"]
    st = act(st, 0, type="card", colour="blue", column=0)  # cards may go below a ship
    assert column(st, 0) == ["T", "k", "Sr", "b"]


def test_ship_points_at_the_end_of_the_owners_turn_without_the_king():
    # column 1: my trader beside the blue-green ship; column 2: my king beside the blue-black
    # ship (black is one of its colours); column 3: the lion's farmer, not my leader
    st = position("""
        T@0g - T@0k - T@1b - T - T - T - T - T
        Sg     Sk     k      . . . . .
    """, hands={0: "kkgg", 1: "bb"}, actions_left=1)
    st = act(st, 0, type="pass")
    assert st["pending"] == {"kind": "score", "seat": 0, "colour": "green"}
    st = act(st, 0, type="score", colour="green")
    assert st["pending"] == {"kind": "score", "seat": 0, "colour": "black"}
    st = act(st, 0, type="no_score")
    assert st["active"] == 1 and pile(st, 0) == ["green"]
    assert len(st["hands"][0]) == 8  # ship points come before drawing back to eight


def test_the_king_does_not_stand_in_for_ships():
    st = position("""
        T@0k - T - T - T - T - T - T - T
        Sg   . . . . . . .
    """, hands={0: "gg"}, actions_left=1)
    st = act(st, 0, type="pass")
    assert st["active"] == 1


# ---- The trader's exchange ------------------------------------------------------------------------
JOINABLE = """
    {a} - {b} - T - T - T - T - T - T
    r       r       . . . . . .
    b       b       . . . . . .
    k       k       . . . . . .
"""


def test_exchange_needs_two_real_treasures_in_the_joined_kingdom():
    st = position(JOINABLE.format(a="T@1g", b="R"), hands={0: "k", 1: "rr"})
    st = act(st, 0, type="card", colour="black", gap=0)
    assert st["pending"] == {"kind": "action", "seat": 0}


def test_the_king_does_not_stand_in_for_the_trader():
    st = position(JOINABLE.format(a="T@1k", b="T"), hands={0: "k", 1: "rr"})
    st = act(st, 0, type="card", colour="black", gap=0)
    assert st["pending"] == {"kind": "action", "seat": 0}


def test_exchange_without_a_red_card_is_a_no_asked_and_only_one_per_connection():
    st = position(JOINABLE.format(a="T@1g", b="T"), hands={0: "k", 1: "bb"})
    st = act(st, 0, type="card", colour="black", gap=0)
    no = [a for a in rules.legal_actions(st, 1) if a["type"] != "standing"]
    assert no == [{"type": "no_exchange"}] and not rules.forced(st, 1, no)
    st = position(JOINABLE.format(a="T@1g", b="T"), hands={0: "k", 1: "rr"})
    st = act(st, 0, type="card", colour="black", gap=0)
    st = act(st, 1, type="exchange", column=0)
    assert pile(st, 1) == ["treasure"] and column(st, 0)[0] == "R@1g"
    assert st["pending"] == {"kind": "action", "seat": 0} and hand(st, 1) == ["red"]


# ---- End of the game ---------------------------------------------------------------------------
def test_the_game_ends_when_the_deck_cannot_refill_every_hand():
    st = position("""
        T - T - T - T - T - T - T - T
    """, players=2, hands={0: "bbbbbbbb", 1: "k" * 8}, deck=1)
    st = act(st, 0, type="card", colour="blue", column=0)
    st = act(st, 0, type="card", colour="blue", column=1)
    assert st["over"] and st["end"] == "deck" and rules.to_act(st) == []
    assert rules.result(st)["ranking"] and rules.legal_actions(st, 1) == []


def test_the_deck_exactly_enough_keeps_the_game_going():
    st = position("""
        T - T - T - T - T - T - T - T
    """, players=2, hands={0: "bbbbbbbb", 1: "k" * 8}, deck=2)
    st = act(st, 0, type="card", colour="blue", column=0)
    st = act(st, 0, type="card", colour="blue", column=1)
    assert not st["over"] and st["deck"] == [] and st["active"] == 1


def test_the_game_ends_when_one_real_treasure_is_left_on_the_table():
    st = position("""
        T@1g - T - R - R - R - R - R - R
        r      r  . . . . . .
        b      b  . . . . . .
        k      k  . . . . . .
    """, hands={0: "kk", 1: "rr"}, actions_left=1)
    st = act(st, 0, type="card", colour="black", gap=0)
    st = act(st, 1, type="exchange", column=1)
    assert st["over"] and st["end"] == "treasures"
    assert rules.result(st)["treasures"]["1"] == 1


def test_version_1_a_whole_round_of_passing_ends_a_frozen_game():
    st = position("""
        T - T - T - T - T - T - T - T
    """, players=2, hands={0: "k", 1: "k"}, version=1)
    for seat in (0, 0, 1, 1):
        assert not st["over"]
        st = act(st, seat, type="pass")
    assert st["over"] and st["end"] == "passing"


FULL_TABLE = "T g " * 7 + "T\n" + "\n".join(["k g r b k g r b"] * 8)


def test_version_1_a_full_table_ends_the_game_at_the_end_of_the_turn():
    st = position(FULL_TABLE, players=2, hands={0: "kkggrrbb", 1: "kkggrrbb"}, version=1)
    actions = rules.legal_actions(st, 0)
    assert not [a for a in actions if a["type"] == "card"]
    leader = next(a for a in actions if a["type"] == "leader")
    st = rules.apply(st, 0, leader)
    assert not st["over"]
    st = act(st, 0, type="pass")
    assert st["over"] and st["end"] == "table_full"
    assert rules.result(st)["end"] == "table_full"


def test_a_full_table_alone_does_not_end_the_game():
    """A catastrophe can open a place and conflicts can empty columns: the game goes on."""
    st = position(FULL_TABLE, players=2, hands={0: "kkggrrbb", 1: "kkggrrbb"})
    leader = next(a for a in rules.legal_actions(st, 0) if a["type"] == "leader")
    st = rules.apply(st, 0, leader)
    st = act(st, 0, type="pass")
    assert not st["over"] and st["active"] == 1 and st["quiet_turns"] == 1
    catastrophe = next(a for a in rules.legal_actions(st, 1) if a["type"] == "catastrophe")
    st = rules.apply(st, 1, catastrophe)            # the column now has room for a card
    st = act(st, 1, type="card", colour="black", column=catastrophe["column"])
    while st["pending"]["kind"] != "action":        # a point offered, a ship: declined
        seat = st["pending"]["seat"]
        st = rules.apply(st, seat, next(a for a in rules.legal_actions(st, seat)
                                        if a["type"] in ("no_score", "no_ship")))
    assert not st["over"] and st["quiet_turns"] == 0 and st["active"] == 0


def test_a_full_round_on_a_full_table_without_a_card_leaving_a_hand_ends_the_game():
    st = position(FULL_TABLE, players=3, hands={0: "kg", 1: "rb", 2: "kk"})
    for seat in (0, 0, 1, 1):
        st = act(st, seat, type="pass")
    assert not st["over"] and st["quiet_turns"] == 2 and rules.view(st, None)["quiet_turns"] == 2
    leader = next(a for a in rules.legal_actions(st, 2) if a["type"] == "leader")
    st = rules.apply(st, 2, leader)                 # a leader is no card
    st = act(st, 2, type="pass")
    assert st["over"] and st["end"] == "stalled" and rules.result(st)["end"] == "stalled"


def test_a_catastrophe_that_leaves_a_place_open_starts_the_round_again():
    st = position(FULL_TABLE, players=2, hands={0: "kk", 1: "kk"})
    st = act(st, 0, type="pass")
    st = act(st, 0, type="pass")
    assert st["quiet_turns"] == 1
    catastrophe = next(a for a in rules.legal_actions(st, 1) if a["type"] == "catastrophe")
    st = rules.apply(st, 1, catastrophe)
    st = act(st, 1, type="pass")                    # nobody filled the place: no stall yet
    assert not st["over"] and st["quiet_turns"] == 0


def test_quiet_turns_on_an_open_table_never_end_the_game():
    """The opening: every player places two leaders and no card. The game goes on."""
    st = position("""
        T - T - T - T - T - T - T - T
    """, players=2, hands={0: "kk", 1: "kk"})
    for seat, colour, column in ((0, "black", 0), (0, "green", 1), (1, "black", 2),
                                 (1, "green", 3), (0, "red", 4), (0, "blue", 5)):
        st = act(st, seat, type="leader", colour=colour, column=column, row=0)
    assert not st["over"] and st["quiet_turns"] == 0
    for seat in (1, 1, 0, 0, 1, 1):
        st = act(st, seat, type="pass")
    assert not st["over"]


def test_any_card_leaving_a_hand_starts_the_round_again():
    st = position(FULL_TABLE, players=2, hands={0: "kk", 1: "rr"})
    st = act(st, 0, type="pass")
    st = act(st, 0, type="pass")
    assert st["quiet_turns"] == 1
    # seat 1 moves its priest next to seat 0's priest: an internal conflict spends red cards
    # (columns and slots of a state are frozen, shared with the states before: put new ones)
    column = list(st["columns"][2])
    column[1], column[2] = {**column[1], "leader": [0, "red"]}, {**column[2], "leader": [1, "red"]}
    st["columns"][2] = column
    st = act(st, 1, type="leader", colour="red", column=2, row=3)
    st = act(st, 1, type="commit", count=1)
    st = act(st, 0, type="commit", count=0)
    st = act(st, 1, type="pass")
    assert not st["over"] and st["quiet_turns"] == 0 and st["active"] == 0


# ---- Final score -------------------------------------------------------------------------------
def test_treasures_are_wild_and_go_to_the_weakest_colours():
    assert with_treasures({"black": 2, "green": 5, "red": 3, "blue": 4, "treasure": 3}) == \
        {"black": 4, "green": 5, "red": 4, "blue": 4}


def test_ties_go_down_the_colours_and_still_tied_players_share():
    pool = Pool()

    def pile_of(black, green, red, blue, treasures=0):
        cards = [pool.take("black") for _ in range(black)] + [pool.take("green") for _ in range(green)]
        cards += [pool.take("red") for _ in range(red)] + [pool.take("blue") for _ in range(blue)]
        return cards + [pool.treasures.pop() for _ in range(treasures)]

    piles = [pile_of(3, 3, 4, 9), pile_of(3, 3, 5, 5), pile_of(2, 3, 5, 5, treasures=1)]
    result = final_ranking(piles)
    assert result["ranking"] == [[1, 2], [0]]
    assert result["scores"] == {"0": 3, "1": 3, "2": 3}


@pytest.mark.parametrize("open_piles", [False, True])
def test_every_pile_is_counted_by_colour_with_or_without_open_piles(open_piles):
    """Each card goes onto a pile in view (the log says which): a careful player knows every
    pile by colour, so the view counts them whatever the option (our ruling)."""
    st = position("""
        T@0g - T - T - T - T - T - T - T
    """, hands={0: "gggg"}, options={"open_piles": open_piles})
    st = act(st, 0, type="card", colour="green", column=0)
    st = act(st, 0, type="score", colour="green")
    shown = rules.view(st, 1)["piles"][0]
    assert shown["size"] == 1 and shown["top"] == "green"
    assert shown["counts"]["green"] == 1 and sum(shown["counts"].values()) == 1
    assert rules.view(st, 0)["piles"][0] == shown                     # own pile alike
