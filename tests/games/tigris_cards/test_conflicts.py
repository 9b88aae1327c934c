"""Internal and external conflicts."""
import pytest

from pbem.games.base import IllegalAction
from pbem.games.tigris_cards import rules

from .helpers import act, column, hand, pile, position


# ---- Internal conflict ------------------------------------------------------------------------
def test_internal_conflict_tie_goes_to_the_defender_and_the_attacker_goes_home():
    st = position("""
        T - T - T - T - T - T - T - T
        b@1r . . . . . . .
        k    . . . . . . .
    """, hands={0: "rrgg", 1: "rrk"})
    st = act(st, 0, type="leader", colour="red", column=0, row=2)
    assert st["pending"] == {"kind": "commit", "seat": 0, "colour": "red"}
    assert [a["count"] for a in rules.legal_actions(st, 0) if a["type"] == "commit"] == [0, 1, 2]
    with pytest.raises(IllegalAction, match="from 0 to 2"):
        act(st, 0, type="commit", count=3)
    st = act(st, 0, type="commit", count=1)
    st = act(st, 1, type="commit", count=1)  # 1:1, the defender wins
    assert column(st, 0) == ["T", "b@1r", "k"]
    assert pile(st, 1) == ["red"] and pile(st, 0) == []
    assert st["discard"] and len(st["discard"]) == 1


def test_internal_conflict_red_card_bonus_for_the_attacker_too():
    st = position("""
        T@1g - T - T - T - T - T - T - T
        r    . . . . . . .
    """, hands={0: "gg", 1: "gg"})
    st = act(st, 0, type="leader", colour="green", column=0, row=1)
    assert st["conflict"]["base"] == [1, 1]  # both stand on red: treasure* and temple


def test_internal_winner_who_played_nothing_may_score_a_red_card_from_hand():
    st = position("""
        T@1g - T - T - T - T - T - T - T
        k    . . . . . . .
    """, hands={0: "kk", 1: "rr"})
    st = act(st, 0, type="leader", colour="green", column=0, row=1)
    commits = [a for a in rules.legal_actions(st, 0) if a["type"] == "commit"]
    assert commits == [{"type": "commit", "count": 0}]  # no red card, but asked all the same
    assert not rules.forced(st, 0, commits)
    st = act(st, 0, type="commit", count=0)
    st = act(st, 1, type="commit", count=0)
    assert st["pending"] == {"kind": "reward", "seat": 1, "colour": "red"}
    assert "won the conflict" in rules.view(st, 1)["prompt"]
    st = act(st, 1, type="score", colour="red")
    assert pile(st, 1) == ["red"] and hand(st, 1) == ["red"]
    assert column(st, 0) == ["T@1g", "k"]  # the attacker's trader went home
    assert st["pending"] == {"kind": "action", "seat": 0}


def test_moving_a_leader_into_a_kingdom_with_a_rival_starts_an_internal_conflict():
    st = position("""
        T@0b - T@1b - T - T - T - T - T - T
        r    r      . . . . . .
    """, hands={0: "r", 1: "r"})
    st = act(st, 0, type="leader", colour="blue", column=1, row=1)
    assert st["conflict"]["type"] == "internal" and st["conflict"]["defender"] == 1
    st = act(st, 0, type="commit", count=1)
    st = act(st, 1, type="commit", count=0)  # 2:1 for the attacker standing on a temple
    assert column(st, 0) == ["T", "r"] and column(st, 1) == ["T", "r@0b"]
    assert pile(st, 0) == ["red"]


# ---- External conflict ------------------------------------------------------------------------
def join(seat_hands, drawing, active=0, players=4):
    return position(drawing, players=players, hands=seat_hands, active=active)


def test_external_attacker_is_the_involved_player_nearest_clockwise():
    st = join({1: "g", 2: "b", 3: "bb"}, """
        T@2b - T@3b - T - T - T - T - T - T
        r      r      . . . . . .
        b      b      . . . . . .
        k      k      . . . . . .
    """, active=1)
    st = act(st, 1, type="card", colour="green", gap=0)
    assert st["conflict"]["attacker"] == 2 and st["conflict"]["defender"] == 3
    assert st["conflict"]["base"] == [1, 1]
    st = act(st, 2, type="commit", count=1)
    st = act(st, 3, type="commit", count=2)  # 2:3 for the defender
    assert pile(st, 3) == ["blue", "blue"]  # one played card + the attacker's blue card
    assert column(st, 0) == ["T", "r", "k"]
    assert "blue" in rules.view(st, 0)["supply"][2]


def test_external_strength_counts_the_leaders_former_kingdom_and_treasures_as_red():
    # left: columns 1-2 joined by a red card; right: column 3. The new red connecting card
    # lies face down and counts for nobody.
    st = join({0: "r", 1: "", 2: ""}, """
        T@1r r T - T@2r - T - T - T - T - T
        r      b   r      . . . . .
        b      b   r      . . . . .
        k      k   b      . . . . .
    """, active=0)
    st = act(st, 0, type="card", colour="red", gap=1)
    assert st["gaps"][1]["face_down"]
    assert st["conflict"]["base"] == [4, 3]  # 2 treasures + 2 temples : 1 treasure + 2 temples
    assert (st["conflict"]["attacker"], st["conflict"]["defender"]) == (1, 2)


def test_loser_loses_the_colour_except_treasures_and_cards_with_leaders_columns_close_up():
    st = join({0: "k", 1: "", 2: ""}, """
        T@1r - T@2r - T - T - T - T - T - T
        r      b      . . . . . .
        r@1k   r      . . . . . .
        b      b      . . . . . .
        r      .      . . . . . .
    """, active=0)
    st = act(st, 0, type="card", colour="black", gap=0)
    # red: left side 1 treasure + 3 temples = 4 (the king's temple counts), right 1 + 1 = 2
    assert st["conflict"]["base"] == [4, 2] and st["conflict"]["attacker"] == 1
    st = act(st, 1, type="commit", count=0)
    st = act(st, 2, type="commit", count=0)
    assert st["pending"] == {"kind": "reward", "seat": 1, "colour": "red"}
    st = act(st, 1, type="no_score")
    assert column(st, 1) == ["T", "b", "b"]  # treasure* stays; the temple went, cards closed up
    assert pile(st, 1) == ["red"]
    assert column(st, 0) == ["T@1r", "r", "r@1k", "b", "r"]


def test_vanished_conflicts_are_dropped_after_a_kingdom_splits():
    # The green conflict takes the green connecting card of the right side away, which
    # leaves the right side's priest outside the joined kingdom: no red conflict any more.
    st = join({3: "kk", 0: "", 1: "gg", 2: ""}, """
        T@0r b T@1g - T@2g g T@3r - T - T - T - T
        r      r      r      r      . . . .
        b      b      b      b      . . . .
        k      k      k      k      . . . .
    """, active=3)
    st = act(st, 3, type="card", colour="black", gap=1)
    assert st["pending"] == {"kind": "order", "seat": 3, "gap": 1, "colours": ["green", "red"]}
    st = act(st, 3, type="conflict", colour="green")
    # the vase is not involved; of the lion (1) and the bull (2) the lion sits nearer: he attacks
    assert (st["conflict"]["attacker"], st["conflict"]["defender"]) == (1, 2)
    assert st["conflict"]["base"] == [0, 1]
    st = act(st, 1, type="commit", count=2)
    st = act(st, 2, type="commit", count=0)
    assert st["gaps"][2] is None  # the green connecting card went to the lion
    assert pile(st, 1) == ["green", "green"]
    # the priests stand apart now: the red conflict vanished; the card turns face up
    assert st["conflict"] is None and "face_down" not in st["gaps"][1]
    assert column(st, 0) == ["T@0r", "r", "b", "k"] and column(st, 3) == ["T@3r", "r", "b", "k"]


def test_order_decision_rejects_a_colour_without_conflict():
    st = join({3: "kk"}, """
        T@0r - T@1r - T - T - T - T - T - T
        r@0g   r@1g   . . . . . .
        b      b      . . . . . .
        k      k      . . . . . .
    """, active=3)
    st = act(st, 3, type="card", colour="black", gap=0)
    with pytest.raises(IllegalAction, match="green, red"):
        act(st, 3, type="conflict", colour="blue")


def test_the_losers_leader_goes_home_first_so_its_card_goes_to_the_winner_too():
    # rulebook order: the loser takes his leader back, then the colour leaves his kingdom,
    # sparing only treasures* and cards that still carry a leader
    st = join({0: "k", 1: "", 2: "gg"}, """
        T - T - T - T - T - T - T - T
        g@1g   g@2g  . . . . . .
        g@1r   b     . . . . . .
        b      k     . . . . . .
    """, active=0)
    st = act(st, 0, type="card", colour="black", gap=0)
    assert (st["conflict"]["attacker"], st["conflict"]["defender"]) == (1, 2)
    st = act(st, 1, type="commit", count=0)
    st = act(st, 2, type="commit", count=2)  # 2:3 for the bull
    assert column(st, 0) == ["T", "g@1r", "b"]  # the trader's card went, the priest's stayed
    assert pile(st, 2) == ["green", "green"]
