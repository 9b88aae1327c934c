"""Standing answers of players who are not on turn, views, descriptions and illegal actions."""
import json

import pytest

from pbem.games.base import IllegalAction
from pbem.games.tigris_cards import rules

from .helpers import act, column, pile, position

KINGDOM = """
    T@1g - T - T - T - T - T - T - T
    r    . . . . . . .
"""


# ---- Standing answers ---------------------------------------------------------------------------
def test_a_standing_answer_is_an_action_that_answers_now_and_later():
    st = position(KINGDOM, hands={0: "gggg", 1: "gggg"})
    st = act(st, 0, type="card", colour="green", column=0)
    standing = [a for a in rules.legal_actions(st, 1) if a["type"] == "standing"]
    assert {"type": "standing", "decision": "score", "answer": "always"} in standing
    st = act(st, 1, type="standing", decision="score", answer="always")
    assert pile(st, 1) == ["green"]  # the open question was answered at once
    assert st["pending"] == {"kind": "action", "seat": 0}
    st = act(st, 0, type="card", colour="green", column=0)  # answered without asking
    assert pile(st, 1) == ["green", "green"] and st["active"] == 1
    assert rules.view(st, 1)["standing"]["score"] == "always"


def test_never_and_back_to_ask():
    st = position(KINGDOM, hands={0: "gggg", 1: "gggg"})
    st = act(st, 0, type="card", colour="green", column=0)
    st = act(st, 1, type="standing", decision="score", answer="never")
    assert pile(st, 1) == [] and st["pending"]["seat"] == 0
    st = act(st, 0, type="standing", decision="score", answer="always")  # free: no action used
    assert st["actions_left"] == 1
    st = act(st, 0, type="card", colour="green", column=0)
    assert pile(st, 1) == [] and st["active"] == 1
    # on his own turn a seat is always asked, whatever his standing answer
    st = act(st, 1, type="card", colour="green", column=0)
    assert st["pending"] == {"kind": "score", "seat": 1, "colour": "green"}
    st = act(st, 1, type="standing", decision="score", answer="ask")
    assert st["prefs"][1]["score"] == "ask" and st["pending"]["kind"] == "score"


def test_a_seat_without_the_colour_is_asked_like_one_with_it():
    """Declining and having none look alike: one answer, but not a forced one, and the
    standing answers are offered as to a seat that holds the colour."""
    asked = {}
    for hand in ("gb", "bb"):
        st = position(KINGDOM, hands={0: "gggg", 1: hand})
        st = act(st, 0, type="card", colour="green", column=0)
        actions = rules.legal_actions(st, 1)
        assert rules.to_act(st) == [1] and {"type": "no_score"} in actions
        asked[hand] = [a for a in actions if a["type"] == "standing"]
    assert asked["gb"] == asked["bb"] and asked["bb"]
    assert rules.legal_actions(st, 1)[0] == {"type": "no_score"}
    assert not rules.forced(st, 1, [{"type": "no_score"}])
    st = act(st, 1, type="standing", decision="score", answer="always")
    assert pile(st, 1) == [] and st["pending"] == {"kind": "action", "seat": 0}


def test_an_empty_hand_is_public_so_its_answer_is_forced():
    st = position(KINGDOM, hands={0: "gggg", 1: ""})
    st = act(st, 0, type="card", colour="green", column=0)
    assert rules.legal_actions(st, 1) == [{"type": "no_score"}]
    assert rules.forced(st, 1, [{"type": "no_score"}])
    with pytest.raises(IllegalAction, match="real choice"):
        act(st, 1, type="standing", decision="score", answer="always")


def test_standing_commit_all_defends_with_every_card():
    st = position("""
        T@1r - T - T - T - T - T - T - T
        b    . . . . . . .
    """, hands={0: "rrr", 1: "rrrr"})
    st = act(st, 0, type="leader", colour="red", column=0, row=1)
    st = act(st, 0, type="commit", count=3)
    assert rules.to_act(st) == [1]
    st = act(st, 1, type="standing", decision="commit", answer="all")
    assert pile(st, 1) == ["red"] and len(st["discard"]) == 6  # 5:3 for the defender
    assert column(st, 0) == ["T@1r", "b"]


def test_standing_reward_and_exchange():
    st = position("""
        T@1g - T - T - T - T - T - T - T
        k    r . . . . . .
        b    b . . . . . .
        k    k . . . . . .
    """, hands={0: "kkk", 1: "rrr"})
    st["prefs"][1].update(reward="always", exchange="always")
    st = act(st, 0, type="leader", colour="green", column=0, row=1)
    st = act(st, 0, type="commit", count=0)
    st = act(st, 1, type="commit", count=0)  # the defender wins 1:0 and scores a red at once
    assert pile(st, 1) == ["red"] and st["pending"] == {"kind": "action", "seat": 0}
    st = act(st, 0, type="card", colour="black", gap=0)
    assert pile(st, 1) == ["red", "treasure"] and column(st, 0)[0] == "R@1g"


# ---- Views -------------------------------------------------------------------------------------
def test_view_shows_own_hand_sizes_pile_tops_and_no_secrets():
    st = rules.setup(3, 11)
    seat = (st["active"] + 1) % 3
    view = rules.view(st, seat)
    assert len(view["hand"]) == 8 and view["hand_sizes"] == [8, 8, 8]
    assert view["deck"] == 185 - 24 and view["piles"][0]["size"] == 0 and view["piles"][0]["top"] is None
    assert view["seat"] == seat and view["to_act"] == [st["active"]] and view["prompt"] is None
    assert view["over"] is False
    assert "seed" not in view and "deck_cards" not in view and "hands" not in view
    assert rules.view(st, None)["hand"] is None and view["quiet_turns"] == 0
    # no card ids anywhere: only colours, so nothing hints at the deck order
    assert all(not isinstance(card, int) for card in view["hand"])
    json.dumps(view)


def test_a_face_down_connecting_card_is_seen_only_by_its_placer():
    st = position("""
        T@1r - T@2r - T - T - T - T - T - T
        r      r      . . . . . .
        b      b      . . . . . .
        k      k      . . . . . .
    """, hands={0: "g"})
    st = act(st, 0, type="card", colour="green", gap=0)
    assert rules.view(st, 0)["gaps"][0] == {"card": "green", "face_down": True}
    assert rules.view(st, 1)["gaps"][0] == {"card": None, "face_down": True}
    assert rules.view(st, None)["gaps"][0]["card"] is None
    assert "green" not in rules.describe(position("""
        T@1r - T@2r - T - T - T - T - T - T
        r      r      . . . . . .
        b      b      . . . . . .
        k      k      . . . . . .
    """, hands={0: "g"}), 0, {"type": "card", "colour": "green", "gap": 0})
    assert rules.view(st, 1)["prompt"] == "External conflict over the priest: commit red cards as attacker"


def test_everything_is_shown_once_the_game_is_over():
    st = position("""
        T - T - T - T - T - T - T - T
    """, players=2, hands={0: "kkkkkkkk", 1: "kgkgkgkg"}, deck=0)
    st = act(st, 0, type="card", colour="black", column=0)
    st = act(st, 0, type="pass")                    # the deck cannot refill the hand
    view = rules.view(st, 0)
    assert view["over"] and [len(h) for h in view["hands"]] == [7, 8]  # the lion's hand too
    assert view["hands"][1] == sorted(view["hands"][1], key=["black", "green", "red", "blue"].index)
    assert "seed" in view and "deck_cards" in view and view["result"]["ranking"]


# ---- Descriptions ----------------------------------------------------------------------------
def test_descriptions_are_public_sentences():
    st = position(KINGDOM, hands={0: "gggg", 1: "gggg"})
    assert rules.describe(st, 0, {"type": "leader", "colour": "red", "column": 0, "row": 1}) == \
        "{p0} placed their priest on card 1 of column 1."
    assert rules.describe(st, 0, {"type": "card", "colour": "green", "column": 0}) == \
        "{p0} placed a green card in column 1."
    st = act(st, 0, type="card", colour="green", column=0)
    assert rules.describe(st, 1, {"type": "score", "colour": "green"}) == \
        "{p1} scored 1 green point with a card from hand."
    assert rules.describe(st, 1, {"type": "no_score"}) == "{p1} did not score a green point."
    assert "always" not in rules.describe(
        st, 1, {"type": "standing", "decision": "score", "answer": "always"})


# ---- Illegal actions ----------------------------------------------------------------------------
@pytest.mark.parametrize("action", [
    None, "pass", {}, {"type": 3}, {"type": "fly"},
    {"type": "card", "colour": "green"}, {"type": "card", "colour": "green", "column": "0"},
    {"type": "card", "colour": "green", "column": 0, "extra": 1},
    {"type": "card", "colour": "purple", "column": 0},
    {"type": "leader", "colour": "green", "column": 9, "row": 0},
    {"type": "leader", "colour": "green", "column": 0, "row": 7},
    {"type": "leader", "colour": "green", "column": True, "row": 0},
    {"type": "catastrophe", "gap": 2}, {"type": "commit", "count": 1},
    {"type": "standing", "decision": "score", "answer": "maybe"},
    {"type": "pass", "x": float("nan")},
])
def test_malformed_or_illegal_actions_raise_illegal_action(action):
    st = position(KINGDOM, hands={0: "gggg"})
    before = rules.dump(st)
    with pytest.raises(IllegalAction) as err:
        rules.apply(st, 0, action)
    assert str(err.value)
    assert rules.dump(st) == before


def test_wrong_seat_and_finished_game():
    st = position(KINGDOM, hands={0: "gggg"})
    with pytest.raises(IllegalAction, match="not to act"):
        act(st, 1, type="pass")
    with pytest.raises(IllegalAction):
        rules.apply(st, "0", {"type": "pass"})
    st["over"] = True
    with pytest.raises(IllegalAction, match="over"):
        act(st, 0, type="pass")


def test_commit_count_must_be_a_whole_number_not_a_boolean():
    st = position("""
        T@1r - T - T - T - T - T - T - T
        b    . . . . . . .
    """, hands={0: "rrr"})
    st = act(st, 0, type="leader", colour="red", column=0, row=1)
    with pytest.raises(IllegalAction):
        act(st, 0, type="commit", count=True)
    with pytest.raises(IllegalAction):
        act(st, 0, type="commit", count=1.0)
