"""The rulebook's worked examples. Seats: 0 bow, 1 lion, 2 bull, 3 vase (clockwise)."""
from pbem.games.tigris_cards import rules
from pbem.games.tigris_cards.scoring import final_ranking

from .helpers import LETTER, Pool, act, column, hand, pile, position, token

BOW, LION, BULL, VASE = 0, 1, 2, 3


def test_trader_placed_then_green_card_scores_one_green():
    # "Az oroszlán 1. akciójaként lerakja kereskedőjét a piros kártyára, 2. akciójaként pedig
    # lerak a piros kártya alá egy zöldet. Ezért jár neki 1 zöld győzelmi pont."
    st = position("""
        T - T - T - T - T - T - T - T
        r . . . . . . .
    """, hands={LION: "gggrbk"}, active=LION)
    st = act(st, LION, type="leader", colour="green", column=0, row=1)
    st = act(st, LION, type="card", colour="green", column=0)
    assert column(st, 0) == ["T", "r@1g", "g"]
    assert st["pending"] == {"kind": "score", "seat": LION, "colour": "green"}
    st = act(st, LION, type="score", colour="green")
    assert pile(st, LION) == ["green"]


def test_king_scores_two_green_cards_in_a_kingdom_without_trader():
    st = position("""
        T@1k - T - T - T - T - T - T - T
        r . . . . . . .
    """, hands={LION: "ggggrbkk"}, active=LION)
    for _ in range(2):
        st = act(st, LION, type="card", colour="green", column=0)
        assert st["pending"]["kind"] == "score" and st["pending"]["seat"] == LION
        st = act(st, LION, type="score", colour="green")
    assert column(st, 0) == ["T@1k", "r", "g", "g"]
    assert pile(st, LION) == ["green", "green"]
    assert st["active"] == BULL  # two actions: the lion's turn is over


def test_joining_card_lets_the_lions_trader_exchange_a_treasure_for_a_red_card():
    st = position("""
        T - T@1g - T - T - T - T - T - T
        r r . . . . . .
        b b . . . . . .
        k g . . . . . .
    """, hands={LION: "krrgbb", BULL: "rrr"}, active=LION)
    st = act(st, LION, type="card", colour="black", gap=0)
    # no conflict: only the lion has a trader; the black connecting card never scores
    assert st["pending"] == {"kind": "exchange", "seat": LION, "columns": [0, 1]}
    assert not st["gaps"][0].get("face_down")
    st = act(st, LION, type="exchange", column=1)
    assert pile(st, LION) == ["treasure"]
    assert column(st, 1) == ["R@1g", "r", "b", "g"]  # the trader stays on the new card
    assert hand(st, LION).count("red") == 1


def test_catastrophe_removes_the_blue_card_and_splits_the_kingdom():
    st = position("""
        T b T@2k - T - T - T - T - T - T
        r r . . . . . .
        b b . . . . . .
        k g . . . . . .
    """, active=BOW, hands={BOW: "rrgg"})
    assert rules.view(st, BOW)["gaps"][0]["card"] == "blue"
    st = act(st, BOW, type="catastrophe", gap=0)
    assert st["gaps"][0] is None  # two kingdoms again
    assert st["catastrophes"][BOW] is False
    assert [token({"card": c}, 1) for c in st["destroyed"]] == ["b"]
    assert {"type": "catastrophe", "column": 0, "row": 1} not in rules.legal_actions(st, BOW)


def test_internal_conflict_three_to_one_won_by_the_bow():
    st = position("""
        T - T - T - T - T - T - T - T
        r@1g . . . . . . .
        b    . . . . . . .
        k    . . . . . . .
    """, hands={BOW: "rrrrggbb", LION: "rkk"}, active=BOW)
    # (A) the bow places his trader in this kingdom: an internal conflict with the lion's trader
    st = act(st, BOW, type="leader", colour="green", column=0, row=2)
    conflict = rules.view(st, LION)["conflict"]
    assert conflict["attacker"] == BOW and conflict["defender"] == LION
    assert conflict["base"] == [0, 1]  # the lion's trader stands on a red card
    # (B) the bow plays three red cards: 3:1
    st = act(st, BOW, type="commit", count=3)
    assert rules.view(st, LION)["conflict"]["played"] == [3, 0]
    assert rules.to_act(st) == [LION]
    # (C) the lion plays one red card: 3:2
    st = act(st, LION, type="commit", count=1)
    # (D) the bow keeps one of his red cards as a victory point; (E) the lion's trader goes home
    assert pile(st, BOW) == ["red"]
    assert column(st, 0) == ["T", "r", "b@0g", "k"]
    assert "green" in rules.view(st, LION)["supply"][LION]
    assert len(st["discard"]) == 3  # the bow's other two and the lion's one


def test_external_conflict_five_five_won_by_the_defending_bull():
    # Kingdom 1 = columns 1-3 with 3 green cards (one a connecting card) and the lion's trader;
    # kingdom 2 = column 4 with the bull's trader and 1 green card. Red leaders on both sides.
    st = position("""
        T r T g T@0r - R@3r - T - T - T - T
        k@1g g    b    g@2g . . . .
        b    b    g    b    . . . .
        b    k    k    k    . . . .
    """, hands={VASE: "gbbk", LION: "ggrr", BULL: "ggggk", BOW: "bb"}, active=VASE)
    # (A) the vase joins the kingdoms with a green card: two external conflicts
    st = act(st, VASE, type="card", colour="green", gap=2)
    assert st["gaps"][2]["face_down"]
    assert rules.view(st, LION)["gaps"][2]["card"] is None  # face down for the others
    assert st["pending"] == {"kind": "order", "seat": VASE, "gap": 2,
                             "colours": ["green", "red"]}
    st = act(st, VASE, type="conflict", colour="green")
    # the lion sits nearer the vase clockwise than the bull: the lion attacks
    conflict = st["conflict"]
    assert (conflict["attacker"], conflict["defender"]) == (LION, BULL)
    assert conflict["base"] == [3, 1]
    # (B) the lion adds two green cards: 5:1; (C) the bull adds four: 5:5, the defender wins
    st = act(st, LION, type="commit", count=2)
    st = act(st, BULL, type="commit", count=4)
    # (D) one of the bull's green cards and the 3 green cards of kingdom 1 go to the bull
    assert pile(st, BULL) == ["green"] * 4
    assert len(st["discard"]) == 5
    # (E) blue and black slide up; the lion's trader goes home; kingdom 1 falls apart
    assert column(st, 0) == ["T", "k", "b", "b"]
    assert column(st, 1) == ["T", "b", "k"]
    assert column(st, 2) == ["T@0r", "b", "k"]
    assert st["gaps"][1] is None
    assert "green" in rules.view(st, BOW)["supply"][LION]
    # the red conflict comes now: the vase is involved, so the vase attacks; 1:1, the bow defends
    assert st["conflict"]["leader"] == "red"
    assert (st["conflict"]["attacker"], st["conflict"]["defender"]) == (VASE, BOW)
    st = act(st, VASE, type="commit", count=0)
    st = act(st, BOW, type="commit", count=0)
    assert st["pending"] == {"kind": "reward", "seat": BOW, "colour": "red"}
    st = act(st, BOW, type="no_score")
    # the connecting card turns face up; the bull's trader cannot exchange a treasure:
    # the joined kingdom holds only one real treasure now
    assert "face_down" not in st["gaps"][2]
    assert rules.view(st, LION)["gaps"][2]["card"] == "green"
    assert st["pending"] == {"kind": "action", "seat": VASE}
    assert st["actions_left"] == 1


def test_ship_bought_with_four_blue_cards_blue_black():
    st = position("""
        T@0k - T - T - T - T - T - T - T
        b . . . . . . .
        b . . . . . . .
        b . . . . . . .
    """, hands={BULL: "bbgg", BOW: "bkkk"}, active=BULL, actions_left=1)
    st = act(st, BULL, type="card", colour="blue", column=0)
    # the king's owner is offered the blue point first (no farmer in the kingdom)
    assert st["pending"] == {"kind": "score", "seat": BOW, "colour": "blue"}
    st = act(st, BOW, type="no_score")
    assert st["pending"] == {"kind": "ship", "seat": BULL, "column": 0,
                             "ships": ["blue-black", "blue-green", "blue-red"]}
    st = act(st, BULL, type="ship", ship="blue-black")
    assert column(st, 0) == ["T@0k", "Sk"]
    assert len(st["discard"]) == 4 and st["ships"] == ["blue-green", "blue-red"]
    # the bull's turn ends (no ship point: the bull has no leader there); the vase passes;
    # at the end of the bow's turns the bow's king may score a black card
    assert st["pending"] == {"kind": "action", "seat": VASE}
    st = act(st, VASE, type="pass")
    st = act(st, VASE, type="pass")
    st = act(st, BOW, type="pass")
    st = act(st, BOW, type="pass")
    assert st["pending"] == {"kind": "score", "seat": BOW, "colour": "black"}
    st = act(st, BOW, type="score", colour="black")
    assert pile(st, BOW) == ["black"]


def test_final_scoring_example_bow_first_then_lion_bull_vase():
    counts = {BOW: (5, 7, 6, 5), LION: (6, 4, 6, 6), BULL: (4, 9, 5, 6), VASE: (9, 7, 8, 3)}
    pool = Pool()
    piles = [[pool.take(colour) for colour, n in zip(("green", "red", "blue", "black"), counts[s])
              for _ in range(n)] for s in range(4)]
    result = final_ranking(piles)
    assert result["ranking"] == [[BOW], [LION], [BULL], [VASE]]
    assert result["scores"] == {"0": 5, "1": 4, "2": 4, "3": 3}
    assert result["tiebreak"]["1"][1] == 6 and result["tiebreak"]["2"][1] == 5
    assert LETTER  # the helper's letters are the rulebook's colours
