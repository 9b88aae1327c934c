"""The public record of what a seat's answers say of its hand (rules version 3,
`hand_record.py`), the views that show it and the determinization that believes it."""
import random
from collections import Counter

from pbem.games.tigris_cards import rules
from pbem.games.tigris_cards.cards import CARD_COLOUR
from pbem.games.tigris_cards.determinize import BELIEF
from pbem.games.tigris_cards.hand_record import drew, played_in_view

from .helpers import act, position

PRIEST_OF_SEAT_1 = """
    T - T - T - T - T - T - T - T
    b@1r . . . . . . .
    k    . . . . . . .
"""


def views(st):
    return [rules.view(st, seat).get("at_most") for seat in list(range(st["players"])) + [None]]


def test_a_declined_point_is_noted_for_every_seat_to_see():
    st = position(PRIEST_OF_SEAT_1, players=3, hands={0: "rrk", 1: "rrg", 2: "g"})
    assert views(st) == [[{}, {}, {}]] * 4
    st = act(st, 0, type="card", colour="red", column=0)
    assert st["pending"] == {"kind": "score", "seat": 1, "colour": "red"}
    st = act(st, 1, type="no_score")     # holding two: a belief, not a fact
    assert views(st) == [[{}, {"red": 0}, {}]] * 4


def test_cards_drawn_since_raise_the_bound_and_a_whole_hand_drops_it():
    st = position(PRIEST_OF_SEAT_1, players=3, hands={0: "rrk", 1: "rrg", 2: "g"})
    st = act(act(st, 0, type="card", colour="red", column=0), 1, type="no_score")
    st["at_most"][2] = {"black": 0}
    st = act(st, 0, type="pass")         # the turn ends: every hand is filled to 8
    # seat 1 drew 5, seat 2 drew 7; seat 0's own bounds were none
    assert st["at_most"] == [{}, {"red": 5}, {"black": 7}]
    record = {"at_most": [{"red": 2}]}
    drew(record, 0, 6)
    assert record["at_most"] == [{}]     # at most 8 of 8: nothing known


def test_a_card_played_face_up_lowers_the_bound_and_one_it_cannot_hold_drops_it():
    record = {"at_most": [{"red": 1, "blue": 0}]}
    played_in_view(record, 0, "red")
    assert record["at_most"] == [{"red": 0, "blue": 0}]
    played_in_view(record, 0, "green")   # no note for green: nothing changes
    played_in_view(record, 0, "blue")    # it held a blue one after all: the reading was wrong
    assert record["at_most"] == [{"red": 0}]


def test_a_face_down_connecting_card_does_not_count():
    st = position("""
        T - T - T - T - T - T - T - T
        k   k . . . . . .
        k   k . . . . . .
        k   k . . . . . .
    """, players=2, hands={0: "rb"})
    st["at_most"][0] = {"red": 1}
    st = act(st, 0, type="card", colour="red", gap=0)     # placed face down: unseen then
    assert st["gaps"][0] is not None and st["hands"][0] != []
    assert st["at_most"][0] == {"red": 1}   # still true: a card leaving never adds one


def test_a_lost_defence_is_noted_and_a_won_one_is_not():
    st = position(PRIEST_OF_SEAT_1, players=2, hands={0: "rrgg", 1: "rrk"})
    st = act(st, 0, type="leader", colour="red", column=0, row=2)
    won = act(act(st, 0, type="commit", count=1), 1, type="commit", count=1)   # 1:1
    assert won["at_most"] == [{}, {}]
    lost = act(act(st, 0, type="commit", count=2), 1, type="commit", count=1)  # 2:1
    assert lost["at_most"] == [{}, {"red": 0}]


def test_games_of_rules_version_2_keep_no_record_and_their_views_do_not_show_one():
    st = rules.setup(3, 5, version=2)
    assert "at_most" not in st and "at_most" not in rules.view(st, 0)
    assert rules.setup(3, 5)["at_most"] == [{}, {}, {}]


def test_the_determinization_believes_the_record_in_most_drawings():
    """Seat 1 declined black: in about BELIEF of the drawings its hand holds none (the others
    deal it as the cards fall, mostly with some black); the view drawn from is kept."""
    st = position(PRIEST_OF_SEAT_1, players=3, hands={0: "rrk", 1: "kkkrrgg", 2: "g"})
    st["at_most"][1] = {"black": 0, "red": 1}
    view = rules.view(st, 0)
    kept, without = 200, 0
    for n in range(kept):
        state = rules.determinize(view, 0, random.Random(n))
        assert rules.view(state, 0) == view
        colours = Counter(CARD_COLOUR[card] for card in state["hands"][1])
        without += colours["black"] == 0 and colours["red"] <= 1
    # both notes believed at once in BELIEF² of the drawings, a blind deal rarely fits them
    assert BELIEF ** 2 - 0.12 < without / kept < BELIEF ** 2 + 0.2


def test_a_bound_of_n_deals_the_colour_as_n_draws_bring_it():
    """At most 2 blue, two cards drawn since a decline: believed, the hand holds as much blue as
    two draws bring (2 / 8 of a blind hand's), not as much as a blind hand of 8: with
    BELIEF 0.7, about 0.45 of the blind mean in all."""
    st = position(PRIEST_OF_SEAT_1, players=3, hands={0: "rrk", 1: "kkkrrgg", 2: "g"})

    def mean_blue(bounds) -> float:
        st["at_most"][1] = bounds
        view, total = rules.view(st, 0), 0
        for n in range(300):
            state = rules.determinize(view, 0, random.Random(n))
            total += sum(CARD_COLOUR[card] == "blue" for card in state["hands"][1])
        return total / 300

    blind, believed = mean_blue({}), mean_blue({"blue": 2})
    assert blind > 1.2
    expected = (BELIEF * 2 / 8 + 1 - BELIEF) * blind
    assert abs(believed - expected) < 0.15, (blind, believed, expected)


def test_a_refused_exchange_notes_no_red_card():
    st = position("""
        T@1g - T - T - T - T - T - T - T
        r       r       . . . . . .
        b       b       . . . . . .
        k       k       . . . . . .
    """, players=2, hands={0: "k", 1: "rr"})
    st = act(st, 0, type="card", colour="black", gap=0)
    assert st["pending"]["kind"] == "exchange"
    assert act(st, 1, type="no_exchange")["at_most"] == [{}, {"red": 0}]
    assert act(st, 1, type="exchange", column=0)["at_most"] == [{}, {}]
