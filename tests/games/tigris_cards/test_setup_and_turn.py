"""Setup, the two actions of a turn, leaders, placing cards, points and the catastrophe."""
import pytest

from pbem.games.base import IllegalAction
from pbem.games.tigris_cards import rules
from pbem.games.tigris_cards.cards import COLUMN_LIMIT, TOTAL_CARDS, is_treasure

from .helpers import act, all_cards, column, hand, pile, position

QUIET = """
    T - T - T - T - T - T - T - T
"""


# ---- Setup ----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_treasures_hands_deck_and_supply(players):
    st = rules.setup(players, 42)
    assert [len(c) for c in st["columns"]] == [1] * 8
    assert all(is_treasure(c[0]["card"]) for c in st["columns"]) and st["gaps"] == [None] * 7
    assert [len(h) for h in st["hands"]] == [8] * players
    removed = 30 if players == 2 else 0
    assert len(st["removed"]) == removed
    assert len(st["deck"]) == 185 - 8 * players - removed
    assert sorted(all_cards(st)) == list(range(TOTAL_CARDS))
    view = rules.view(st, 0)
    assert view["supply"] == [["black", "green", "red", "blue"]] * players
    assert view["catastrophes"] == [True] * players and len(view["ships"]) == 3
    assert rules.to_act(st) == [st["active"]] and st["pending"]["seat"] == st["active"]
    assert rules.view(st, st["active"])["prompt"] == "Your turn: action 1 of 2"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_start_player_is_drawn_from_the_seed(players):
    """"Véletlen segítségével választani kell egy kezdőjátékost": every seat may begin, the
    seed decides, the seats keep the host's order (play goes on clockwise from the start)."""
    starts = {seed: rules.setup(players, seed)["active"] for seed in range(40)}
    assert set(starts.values()) == set(range(players))
    assert all(rules.setup(players, seed)["active"] == start for seed, start in starts.items())
    st = rules.setup(players, 3)
    start = st["active"]
    st = act(st, start, type="pass")
    st = act(st, start, type="pass")
    assert st["active"] == (start + 1) % players and st["turn"] == 2
    # version 1 games began with seat 0; the deal is the same in both versions
    old = rules.setup(players, 3, version=1)
    assert old["active"] == 0 and old["hands"] == rules.setup(players, 3)["hands"]


def test_setup_is_deterministic_from_the_seed_and_checks_its_arguments():
    assert rules.setup(3, 7) == rules.setup(3, 7)
    assert rules.setup(3, 7)["deck"] != rules.setup(3, 8)["deck"]
    for bad in (1, 5):
        with pytest.raises(IllegalAction):
            rules.setup(bad, 1)
    with pytest.raises(IllegalAction):
        rules.setup(2, 1, {"no_such_option": True})
    assert rules.setup(2, 1, {"open_piles": True})["options"] == {"open_piles": True}


# ---- Two actions a turn -----------------------------------------------------------------------
def test_two_actions_then_everybody_draws_back_to_eight_and_the_next_player_acts():
    st = rules.setup(3, 5)
    start = st["active"]
    cards = [a for a in rules.legal_actions(st, start) if a["type"] == "card" and "column" in a]
    st = rules.apply(st, start, cards[0])
    assert st["active"] == start and st["actions_left"] == 1
    assert rules.view(st, start)["prompt"] == "Your turn: action 2 of 2"
    st = act(st, start, type="pass")
    assert st["active"] == (start + 1) % 3 and st["actions_left"] == 2 and st["turn"] == 2
    assert [len(h) for h in st["hands"]] == [8, 8, 8]


def test_the_same_action_twice_is_allowed():
    st = position(QUIET, hands={0: "gggg"})
    st = act(st, 0, type="card", colour="green", column=3)
    st = act(st, 0, type="card", colour="green", column=3)
    assert column(st, 3) == ["T", "g", "g"]


# ---- Leaders ----------------------------------------------------------------------------------
def test_leader_on_any_unoccupied_civilization_card_treasure_too_never_a_ship():
    st = position("""
        T@1k - T - T - T - T - T - T - T
        Sk   r . . . . . .
    """, hands={0: "r"})
    targets = {(a.get("column"), a.get("row")) for a in rules.legal_actions(st, 0)
               if a["type"] == "leader" and a["colour"] == "blue"}
    assert (1, 0) in targets and (1, 1) in targets  # a treasure and a red card
    assert (0, 0) not in targets  # the king stands there
    assert (0, 1) not in targets  # a ship
    with pytest.raises(IllegalAction, match="ship"):
        act(st, 0, type="leader", colour="blue", column=0, row=1)
    with pytest.raises(IllegalAction, match="leader"):
        act(st, 0, type="leader", colour="blue", column=0, row=0)


def test_leader_moved_from_another_kingdom_or_within_its_own_kingdom():
    st = position("""
        T@0g - T - T - T - T - T - T - T
        r    b . . . . . .
    """)
    st = act(st, 0, type="leader", colour="green", column=0, row=1)  # within the kingdom
    assert column(st, 0) == ["T", "r@0g"] and st["conflict"] is None
    st = act(st, 0, type="leader", colour="green", column=1, row=1)  # to another kingdom
    assert column(st, 0) == ["T", "r"] and column(st, 1) == ["T", "b@0g"]
    assert rules.view(st, 0)["supply"][0] == ["black", "red", "blue"]


# ---- Placing a card in a column -----------------------------------------------------------------
def test_card_goes_under_the_last_card_and_never_into_a_full_column():
    full = " ".join(["r"] + ["."] * 7)
    st = position(QUIET + "\n".join([full] * COLUMN_LIMIT), hands={0: "bb"})
    legal = rules.legal_actions(st, 0)
    assert {"type": "card", "colour": "blue", "column": 0} not in legal
    assert {"type": "card", "colour": "blue", "column": 1} in legal
    with pytest.raises(IllegalAction, match="full"):
        act(st, 0, type="card", colour="blue", column=0)
    with pytest.raises(IllegalAction, match="no green card"):
        act(st, 0, type="card", colour="green", column=1)


def test_connecting_card_needs_three_cards_under_both_treasures():
    st = position("""
        T - T - T - T - T - T - T - T
        r r r . . . . .
        b b b . . . . .
        k k . . . . . .
    """, hands={0: "gg"})
    legal = rules.legal_actions(st, 0)
    assert {"type": "card", "colour": "green", "gap": 0} in legal
    assert {"type": "card", "colour": "green", "gap": 1} not in legal
    with pytest.raises(IllegalAction, match="at least 3 cards"):
        act(st, 0, type="card", colour="green", gap=1)


def test_a_ship_counts_as_one_slot_for_the_three_card_test_and_the_column_limit():
    st = position("""
        T - T - T - T - T - T - T - T
        r Sr . . . . . .
        b b  . . . . . .
        k k  . . . . . .
    """, hands={0: "g"})
    assert {"type": "card", "colour": "green", "gap": 0} in rules.legal_actions(st, 0)


def test_connecting_card_never_scores():
    st = position("""
        T@1k - T@1g - T - T - T - T - T - T
        r    r      . . . . . .
        b    b      . . . . . .
        k    g      . . . . . .
    """, hands={0: "gg", 1: "gggg"})
    st = act(st, 0, type="card", colour="green", gap=0)
    # the trader's owner is asked only about the exchange, never about a green point
    assert st["pending"] == {"kind": "exchange", "seat": 1, "columns": [0, 1]}
    st = act(st, 1, type="no_exchange")
    assert st["pending"] == {"kind": "action", "seat": 0}
    assert pile(st, 1) == [] and hand(st, 1) == ["green"] * 4


# ---- Points from placements -----------------------------------------------------------------------
def test_the_same_colour_leaders_owner_scores_before_the_king():
    st = position("""
        T@1k - T - T - T - T - T - T - T
        r@2g . . . . . . .
    """, hands={0: "gg", 1: "gg", 2: "gg"})
    st = act(st, 0, type="card", colour="green", column=0)
    assert rules.to_act(st) == [2] and st["pending"]["kind"] == "score"
    assert rules.legal_actions(st, 0) == [] and rules.legal_actions(st, 1) == []
    assert rules.view(st, 2)["prompt"].startswith("Score a green point")
    st = act(st, 2, type="score", colour="green")
    assert pile(st, 2) == ["green"] and pile(st, 1) == []


def test_the_king_stands_in_and_a_point_is_always_optional():
    st = position("""
        T@1k - T - T - T - T - T - T - T
        r . . . . . . .
    """, hands={0: "bb", 1: "bb"})
    st = act(st, 0, type="card", colour="blue", column=0)
    assert st["pending"] == {"kind": "score", "seat": 1, "colour": "blue"}
    st = act(st, 1, type="no_score")
    assert pile(st, 1) == [] and hand(st, 1) == ["blue", "blue"]


def test_nobody_scores_without_a_matching_leader_or_king():
    st = position("""
        T@1r - T - T - T - T - T - T - T
        r . . . . . . .
    """, hands={0: "bb", 1: "bb"})
    st = act(st, 0, type="card", colour="blue", column=0)
    assert st["pending"] == {"kind": "action", "seat": 0}


def test_a_scorer_without_the_colour_is_still_asked_with_no_as_the_only_answer():
    st = position("""
        T@1g - T - T - T - T - T - T - T
    """, hands={0: "gg", 1: "bb"})
    st = act(st, 0, type="card", colour="green", column=0)
    answers = [a for a in rules.legal_actions(st, 1) if a["type"] != "standing"]
    assert answers == [{"type": "no_score"}] and not rules.forced(st, 1, answers)
    with pytest.raises(IllegalAction, match="only if you hold one"):
        act(st, 1, type="score", colour="green")


# ---- The catastrophe -------------------------------------------------------------------------------
def test_catastrophe_once_per_game_never_on_leader_treasure_or_ship_cards_slide_up():
    st = position("""
        T - T - T - T - T - T - T - T
        b    r . . . . . .
        g    Sk . . . . . .
        r@1b k . . . . . .
        Sr   . . . . . . .
        k    . . . . . . .
    """)
    legal = [a for a in rules.legal_actions(st, 0) if a["type"] == "catastrophe"]
    assert {"type": "catastrophe", "column": 0, "row": 1} in legal
    assert {"type": "catastrophe", "column": 0, "row": 0} not in legal   # treasure*
    assert {"type": "catastrophe", "column": 0, "row": 3} not in legal   # a leader on it
    assert {"type": "catastrophe", "column": 0, "row": 4} not in legal   # a ship
    with pytest.raises(IllegalAction, match="treasure"):
        act(st, 0, type="catastrophe", column=1, row=0)
    st = act(st, 0, type="catastrophe", column=0, row=2)
    assert column(st, 0) == ["T", "b", "r@1b", "Sr", "k"]  # leader and ship slid up
    assert not any(a["type"] == "catastrophe" for a in rules.legal_actions(st, 0))
    with pytest.raises(IllegalAction, match="already played"):
        act(st, 0, type="catastrophe", column=0, row=1)
    assert len(st["destroyed"]) == 1 and sorted(all_cards(st)) == list(range(TOTAL_CARDS))
