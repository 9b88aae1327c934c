"""The rulebook's own worked examples."""
from pbem.games.tigris import rules
from pbem.games.tigris.rules import final_colors

from .helpers import play, position, sq

# The sample opening ("Példajáték"): Jenő 0, Krisztina 1, Péter 2, Anita 3.
OPENING = """
~ ~ ~ ~ . r . . . . . .
. . . . . . . . . . . .
. . r . . . . . . r . .
~ ~ ~ ~ . . . . . . . .
"""


def opening():
    return position(OPENING, players=4, top=3, hands={
        0: "rrbggk", 1: "bbggkk", 2: "rggkkb", 3: "rrrrgk"})


def test_sample_opening_king_and_priest_make_two_kingdoms():
    s = play(opening(),
             (0, {"type": "place_leader", "leader": "king", "at": [4, 2]}),
             (0, {"type": "place_leader", "leader": "priest", "at": [4, 9]}))
    assert s["leaders"][0]["black"] == sq(4, 2) and s["leaders"][0]["red"] == sq(4, 9)
    assert rules.to_act(s) == [1]


def test_sample_opening_farmer_and_farm_score_one_blue():
    s = play(opening(),
             (0, {"type": "place_leader", "leader": "king", "at": [4, 2]}),
             (0, {"type": "place_leader", "leader": "priest", "at": [4, 9]}),
             (1, {"type": "place_leader", "leader": "farmer", "at": [5, 1]}))
    line = rules.describe(s, 1, {"type": "place_tile", "colour": "blue", "at": [6, 1]})
    assert line == "{p1} placed a blue tile (farm) on B7; {p1} scored 1 blue point."
    s = play(s, (1, {"type": "place_tile", "colour": "blue", "at": [6, 1]}))
    assert s["points"][1] == {"red": 0, "blue": 1, "green": 0, "black": 0}
    assert s["points"][0] == {"red": 0, "blue": 0, "green": 0, "black": 0}
    assert sum(s["hands"][1].values()) == 6          # drew one tile at the end of the turn


def test_sample_opening_king_scores_the_temple_and_revolt_is_won_4_to_1():
    s = play(opening(),
             (0, {"type": "place_leader", "leader": "king", "at": [4, 2]}),
             (0, {"type": "place_leader", "leader": "priest", "at": [4, 9]}),
             (1, {"type": "place_leader", "leader": "farmer", "at": [5, 1]}),
             (1, {"type": "place_tile", "colour": "blue", "at": [6, 1]}),
             (2, {"type": "place_leader", "leader": "king", "at": [4, 5]}),
             (2, {"type": "place_tile", "colour": "red", "at": [4, 6]}))
    # No priest in Péter's kingdom, so his king takes the red point.
    assert s["points"][2]["red"] == 1
    # Anita's priest joins Jenő's priest's kingdom: a revolt, 1 temple each.
    s = play(s, (3, {"type": "place_leader", "leader": "priest", "at": [6, 9]}))
    assert s["pending"]["kind"] == "revolt"
    assert s["pending"]["strength"] == [1, 1]
    assert rules.to_act(s) == [3]
    s = play(s, (3, {"type": "commit", "count": 3}))
    assert rules.to_act(s) == [0]                     # the defender decides now
    assert {"type": "commit", "count": 2} in rules.legal_actions(s, 0)
    line = rules.describe(s, 0, {"type": "commit", "count": 0})
    assert "{p3} won the revolt 4:1" in line and "{p0}'s priest went home" in line
    s = play(s, (0, {"type": "commit", "count": 0}))
    assert s["leaders"][0]["red"] is None
    assert s["points"][3]["red"] == 1
    assert s["out"]["red"] == 3                        # committed temples leave the game
    assert rules.to_act(s) == [3]                      # her second action now
    s = play(s, (3, {"type": "place_tile", "colour": "red", "at": [6, 10]}))
    assert s["points"][3]["red"] == 2
    assert sum(s["hands"][3].values()) == 6            # she drew 4 tiles
    assert s["hands"][0]["red"] == 2                   # Jenő kept his temples
    assert rules.to_act(s) == [0]


# The war example: traders and kings at war; the lion (seat 0) attacks the traders' war.
WAR = """
r  r  .  .  .  r  r
K0 T0 g  .  g  T1 K1
.  .  .  .  g  .  .
"""


def test_war_example_attacker_1_plus_4_beats_defender_2_plus_1():
    s = position(WAR, top=3, left=4, hands={0: "ggggrk", 1: "gkkkrr"})
    s = play(s, (0, {"type": "place_tile", "colour": "red", "at": [4, 7]}))
    assert s["unification"] == sq(4, 7)
    assert s["pending"] == {"kind": "war_order", "seat": 0, "colors": ["green", "black"]}
    s = play(s, (0, {"type": "choose_war", "leader": "trader"}))
    assert s["pending"]["attacker"] == 0 and s["pending"]["strength"] == [1, 2]
    s = play(s, (0, {"type": "commit", "count": 4}), (1, {"type": "commit", "count": 1}))
    # The loser's trader and both of his green tiles leave; the winner scores 2 + 1 green.
    assert s["leaders"][1]["green"] is None
    assert s["board"][sq(4, 8)] == "" and s["board"][sq(5, 8)] == ""
    assert s["points"][0]["green"] == 3
    assert s["points"][0]["red"] == 0                  # the uniting tile scores nothing
    assert s["out"]["green"] == 7                      # 5 committed + 2 removed
    # The kingdom fell in two: the kings' war fell away, the unification tile came off.
    assert s["leaders"][1]["black"] == sq(4, 10) and s["leaders"][0]["black"] == sq(4, 4)
    assert s["unification"] is None and s["pending"] is None
    assert s["turn"]["actions_done"] == 1 and rules.to_act(s) == [0]


def test_final_scoring_example_ranking():
    s = rules.setup(4, 5)
    s["over"] = True
    s["end_reason"] = "example"
    pts = {0: (6, 15, 15, 22), 1: (10, 11, 14, 10), 2: (11, 12, 13, 11), 3: (10, 7, 13, 12)}
    for seat, values in pts.items():
        s["points"][seat] = dict(zip(("red", "blue", "green", "black"), values))
    s["treasures_taken"] = [3, 0, 0, 3]
    assert final_colors(s["points"][3], 3) == [10, 10, 12, 13]     # lion: all 3 on blue
    assert final_colors(s["points"][0], 3) == [9, 15, 15, 22]      # bow: red only 9
    result = rules.result(s)
    # pot 11 first; lion and bull tie on 10, 10 - lion's third colour 12 beats 11; bow last.
    assert result["ranking"] == [[2], [3], [1], [0]]
    assert result["scores"] == {"0": 9, "1": 10, "2": 11, "3": 10}


# The treasure example: the lion (seat 3) lays a farm; the bull's farmer (seat 1) scores it;
# the lion's trader then takes the upper treasure, because it stands on a framed corner.
TREASURE = """
.  r* .
.  r  .
.  ~  .
F1 r* T3
"""


def test_treasure_example_corner_treasure_goes_to_the_trader():
    s = position(TREASURE, players=4, top=1, active=3, hands={3: "bbrrgk"})
    before = list(s["treasures_taken"])
    s = play(s, (3, {"type": "place_tile", "colour": "blue", "at": [3, 1]}))
    assert s["points"][1]["blue"] == 1 and s["points"][3]["blue"] == 0
    assert sq(1, 1) not in s["treasures"] and sq(4, 1) in s["treasures"]
    assert s["treasures_taken"][3] == before[3] + 1


# The monument example: the bull (seat 1) builds red/black; the bow's farmer loses its
# last temple and goes home; the bull scores black at the end of his turn, the bow red at his.
MONUMENT = """
r*  r  F0 .
r   .  .  .
K1  r  P0 .
"""


def test_monument_example():
    s = position(MONUMENT, top=3, left=4, active=1, hands={1: "rrggkk"})
    s = play(s, (1, {"type": "place_tile", "colour": "red", "at": [4, 5]}),
             (1, {"type": "build_monument", "monument": "red/black", "at": [3, 4]}))
    assert s["leaders"][0]["blue"] is None
    s = play(s, (1, {"type": "pass"}))
    assert s["points"][1]["black"] == 1 and s["points"][1]["red"] == 0
    assert s["points"][0]["red"] == 1                  # the tile itself, for the bow's priest
    s = play(s, (0, {"type": "pass"}))
    assert s["points"][0]["red"] == 2 and s["points"][0]["black"] == 0
