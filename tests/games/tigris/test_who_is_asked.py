"""Who is asked never depends on a hidden hand: a seat that commits in a revolt or war is asked
whatever tiles it holds; only public facts (an empty hand, the English variant's limits) and
the seat's own standing answer ("never commit support") let the server answer for it."""
import pytest

from pbem.games.base import IllegalAction, is_forced
from pbem.games.tigris import rules

from .helpers import position, play
from .test_rules import REVOLT, WAR3, commit, leader, tile

NEVER = {"type": "standing", "decision": "support", "answer": "never"}
ASK = {"type": "standing", "decision": "support", "answer": "ask"}


def asked(state, seat):
    """(seats to act, whether the server would answer for the seat) now."""
    return rules.to_act(state), is_forced(rules, state, seat, rules.legal_actions(state, seat))


@pytest.mark.parametrize("hands", [("rrggkk", "ggggkk"), ("rrrrrr", "kkkkkk")])
def test_the_defender_in_a_revolt_is_asked_whatever_he_holds(hands):
    seen = []
    for defender in hands:
        s = position(REVOLT, top=3, left=4, hands={0: defender, 1: "rrggkk"}, active=1)
        s = play(s, (1, leader("priest", 4, 6)))
        first = asked(s, 1)
        s = play(s, (1, commit(1)))
        seen.append((first, asked(s, 0)))
    assert seen[0] == seen[1] == (([1], False), ([0], False))


def test_the_attacker_is_asked_whatever_he_holds():
    seen = []
    for attacker in ("rrggkk", "bbggkk"):
        s = position(REVOLT, top=3, left=4, hands={0: "rrggkk", 1: attacker}, active=1)
        s = play(s, (1, leader("priest", 4, 6)))
        seen.append(asked(s, 1))
    assert seen[0] == seen[1] == ([1], False)


def test_both_sides_of_a_war_are_asked_whatever_they_hold():
    seen = []
    for green in ("gggkkk", "rrrkkk"):
        s = position(WAR3, players=3, top=3, left=4, active=1,
                     hands={0: green, 1: "ggrrkk", 2: green})
        s = play(s, (1, tile("green", 4, 7)), (1, {"type": "choose_war", "leader": "trader"}))
        attacker = asked(s, 2)
        s = play(s, (2, commit(0)))
        seen.append((attacker, asked(s, 0)))
    assert seen[0] == seen[1] == (([2], False), ([0], False))


def test_an_empty_hand_is_public_so_its_zero_is_played_at_once():
    s = position(REVOLT, top=3, left=4, hands={0: "", 1: "rrggkk"}, active=1)
    s = play(s, (1, leader("priest", 4, 6)), (1, commit(1)))
    assert rules.legal_actions(s, 0) == [commit(0)] and asked(s, 0) == ([0], True)


def test_english_variant_a_defender_already_winning_has_one_public_choice():
    s = position(REVOLT, top=3, left=4, hands={0: "rrggkk", 1: "rrggkk"}, active=1,
                 options={"english_variant": True})
    s = play(s, (1, leader("priest", 5, 5)), (1, commit(0)))    # 1 temple against 2
    assert rules.legal_actions(s, 0) == [commit(0)] and asked(s, 0) == ([0], True)


def test_english_variant_a_tie_out_of_reach_of_the_hand_size_is_public():
    s = position(REVOLT, top=3, left=4, hands={0: "rrr", 1: "rrrrrr"}, active=1,
                 options={"english_variant": True})
    s = play(s, (1, leader("priest", 5, 5)), (1, commit(6)))    # 7 against 2: 5 to tie, 3 held
    assert asked(s, 0) == ([0], True)
    s = position(REVOLT, top=3, left=4, hands={0: "ggggkk", 1: "rrrrrr"}, active=1,
                 options={"english_variant": True})
    s = play(s, (1, leader("priest", 5, 5)), (1, commit(3)))    # 4 against 2: 2 to tie
    assert rules.legal_actions(s, 0)[0] == commit(0) and asked(s, 0) == ([0], False)


def test_a_standing_never_answers_for_the_defender_whatever_he_holds():
    for defender in ("rrggkk", "ggggkk"):
        s = position(REVOLT, top=3, left=4, hands={0: defender, 1: "rrggkk"}, active=1)
        s = play(s, (1, leader("priest", 4, 6)), (1, commit(1)))
        s = play(s, (0, NEVER))                       # asked now, and for later
        assert rules.legal_actions(s, 0) == [commit(0)] and asked(s, 0) == ([0], True)
        assert rules.view(s, 0)["standing"] == {"support": "never"}
        assert "standing" not in rules.view(s, 1) or rules.view(s, 1)["standing"] == {
            "support": "ask"}


def test_a_standing_never_is_left_on_ones_own_turn_and_not_for_it():
    s = position(REVOLT, top=3, left=4, hands={0: "rrggkk", 1: "rrggkk"}, active=1)
    assert NEVER in rules.legal_actions(s, 1) and ASK not in rules.legal_actions(s, 1)
    s = play(s, (1, NEVER))
    assert s["turn"]["actions_done"] == 0 and ASK in rules.legal_actions(s, 1)
    line = rules.describe(s, 1, ASK)
    assert "standing answer" in line and "ask" not in line.replace("standing", "")
    # on his own turn he attacks: the standing answer does not answer for him
    s = play(s, (1, leader("priest", 4, 6)))
    assert s["pending"]["kind"] == "revolt" and asked(s, 1) == ([1], False)


def test_a_standing_answer_needs_a_real_choice_and_a_version_2_game():
    s = position(REVOLT, top=3, left=4, hands={0: "", 1: "rrggkk"}, active=1)
    s = play(s, (1, leader("priest", 4, 6)), (1, commit(1)))
    with pytest.raises(IllegalAction, match="real choice"):
        rules.apply(s, 0, NEVER)
    with pytest.raises(IllegalAction):
        rules.apply(s, 0, {"type": "standing", "decision": "support", "answer": "all"})
    old = rules.setup(2, 5, version=1)
    assert "standing" not in old and "version" not in old
    assert NEVER not in rules.legal_actions(old, 0)
    with pytest.raises(IllegalAction, match="before standing answers"):
        rules.apply(old, 0, NEVER)
    with pytest.raises(IllegalAction, match="versions"):
        rules.setup(2, 5, version=4)
    assert rules.setup(2, 5)["standing"] == [{"support": "ask"}] * 2
