"""Who is asked, and which answers are automatic, never depends on a seat's hidden holdings.

For every decision whose options hang on the deciding seat's hand (Tigris & Euphrates: the
attacker's and the defender's support in revolts and wars; the card game: scoring a card from
hand, committing cards, the winner's card from hand, the trader's exchange) two positions that
differ only in that seat's hand are played through `store.append`: the same seats are asked
and the same events are automatic. A seat's standing answer answers for it in both.
(Assyria keeps nothing hidden in a player's holdings: its cards lie face up.)"""
from __future__ import annotations

import html

import pytest

from pbem.play import moves as playing
from pbem.play import creation
from pbem.log import store
from pbem.games import RULES
from pbem.db.models import Event
from tests.games.tigris import helpers as tigris
from tests.games.tigris_cards import helpers as cards

REVOLT = """
r  .  .  .
P0 r  .  r
"""
WAR3 = """
r  r  .  .  .  r  r
K0 T0 g  .  g  T2 K2
.  .  .  .  g  .  .
"""
JOINABLE = """
    T@1g - T - T - T - T - T - T - T
    r      r      . . . . . .
    b      b      . . . . . .
    k      k      . . . . . .
"""


def seats(n):
    return [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(n)]


def through_the_store(rules_name: str, state: dict, steps) -> list:
    """Play `steps` from a game whose snapshot is `state`; after each: the seats the game waits
    for and, for each event it wrote, (seat, automatic)."""
    rules = RULES[rules_name]
    game, _ = creation.create_game(rules_name, seats(state["players"]), seed=1)
    game.state = rules.dump(state)
    game.save()
    seen = []
    for seat, action in steps:
        game = store.get_game(game.id)
        applied = playing.act(game.id, seat, action, game.seq)
        events = [(e.seat, e.automatic) for e in applied.events]
        seen.append((rules.to_act(applied.state), events))
    assert Event.select().where(Event.game == game, Event.automatic == True).count() == sum(  # noqa: E712
        automatic for _, events in seen for _, automatic in events)
    return seen


def same_for_both(rules_name, make, hands, steps):
    """Both positions ask the same seats and write the same automatic flags."""
    first, second = (through_the_store(rules_name, make(hand), steps) for hand in hands)
    assert first == second
    return first


# ---- Tigris & Euphrates ---------------------------------------------------------------------

def revolt(defender: str, attacker: str = "rrggkk", version: int = 3):
    state = tigris.position(REVOLT, top=3, left=4, hands={0: defender, 1: attacker}, active=1)
    if version == 1:                  # a game created before standing answers existed
        del state["standing"], state["version"]
    return state


@pytest.mark.parametrize("version", [1, 3])
@pytest.mark.parametrize("defender", ["ggggkk", "bbbbbb"])
def test_tigris_revolt_defender_is_asked_with_or_without_temples(app, defender, version):
    count = "tiles" if version == 1 else "count"        # version 1 spoke of "tiles"
    steps = [(1, {"type": "place_leader", "leader": "priest", "at": [4, 6]}),
             (1, {"type": "commit", count: 1})]
    seen = same_for_both("tigris", lambda hand: revolt(hand, version=version),
                         ["rrggkk", defender], steps)
    assert seen[-1] == ([0], [(1, False)])


def test_tigris_revolt_attacker_is_asked_with_or_without_temples(app):
    steps = [(1, {"type": "place_leader", "leader": "priest", "at": [4, 6]})]
    seen = same_for_both("tigris", lambda hand: revolt("rrggkk", hand), ["rrggkk", "bbggkk"],
                         steps)
    assert seen == [([1], [(1, False)])]


def test_tigris_war_both_sides_are_asked_with_or_without_tiles_of_its_colour(app):
    def war(hand):
        return tigris.position(WAR3, players=3, top=3, left=4, active=1,
                               hands={0: hand, 1: "ggrrkk", 2: hand})
    steps = [(1, {"type": "place_tile", "colour": "green", "at": [4, 7]}),
             (1, {"type": "choose_war", "leader": "trader"}),
             (2, {"type": "commit", "count": 0})]
    seen = same_for_both("tigris", war, ["gggkkk", "rrrkkk"], steps)
    assert [to_act for to_act, _ in seen] == [[1], [2], [0]]
    assert not any(automatic for _, events in seen for _, automatic in events)


def test_tigris_standing_never_answers_for_the_defender_whatever_he_holds(app):
    def never(hand):
        state = revolt(hand)
        state["standing"][0]["support"] = "never"
        return state
    steps = [(1, {"type": "place_leader", "leader": "priest", "at": [4, 6]}),
             (1, {"type": "commit", "count": 1})]
    seen = same_for_both("tigris", never, ["rrggkk", "ggggkk"], steps)
    assert seen[-1] == ([1], [(1, False), (0, True)])      # the defender's 0, automatic


def test_tigris_standing_answer_is_an_event_and_answers_at_once(app):
    steps = [(1, {"type": "place_leader", "leader": "priest", "at": [4, 6]}),
             (1, {"type": "commit", "count": 1}),
             (0, {"type": "standing", "decision": "support", "answer": "never"})]
    seen = same_for_both("tigris", revolt, ["rrggkk", "kkkkkk"], steps)
    assert seen[-1] == ([1], [(0, False), (0, True)])


# ---- The card game -----------------------------------------------------------------------------

def card_position(drawing, **hands):
    def make(hand):
        return cards.position(drawing, hands={0: hands.get("active", ""), 1: hand})
    return make


def test_cards_score_from_hand_is_asked_with_or_without_the_colour(app):
    make = card_position("""
        T@1g - T - T - T - T - T - T - T
        r    . . . . . . .
    """, active="gggg")
    seen = same_for_both("tigris_cards", make, ["gb", "bb"],
                         [(0, {"type": "card", "colour": "green", "column": 0})])
    assert seen == [([1], [(0, False)])]


def test_cards_the_active_seat_is_asked_to_score_in_its_own_kingdom(app):
    def make(hand):
        return cards.position("""
            T@0g - T - T - T - T - T - T - T
            r    . . . . . . .
        """, hands={0: hand, 1: "kkkk"})
    seen = same_for_both("tigris_cards", make, ["gg", "gk"],
                         [(0, {"type": "card", "colour": "green", "column": 0})])
    assert seen == [([0], [(0, False)])]


def test_cards_commitments_are_asked_with_or_without_red(app):
    def make(hand):
        return cards.position("""
            T@1r - T - T - T - T - T - T - T
            b    . . . . . . .
        """, hands={0: hand, 1: hand})
    steps = [(0, {"type": "leader", "colour": "red", "column": 0, "row": 1}),
             (0, {"type": "commit", "count": 0})]
    seen = same_for_both("tigris_cards", make, ["rrrb", "kkkb"], steps)
    assert seen == [([0], [(0, False)]), ([1], [(0, False)])]


def test_cards_the_winners_card_from_hand_is_asked_with_or_without_red(app):
    def make(hand):
        return cards.position("""
            T@1r - T - T - T - T - T - T - T
            b    . . . . . . .
        """, hands={0: "kkk", 1: hand})
    steps = [(0, {"type": "leader", "colour": "red", "column": 0, "row": 1}),
             (0, {"type": "commit", "count": 0}),
             (1, {"type": "commit", "count": 0})]       # 1:0, the defender played nothing
    seen = same_for_both("tigris_cards", make, ["rk", "kk"], steps)
    assert seen[-1] == ([1], [(1, False)])


def test_cards_the_traders_exchange_is_asked_with_or_without_red(app):
    make = card_position(JOINABLE, active="k")
    seen = same_for_both("tigris_cards", make, ["rr", "bb"],
                         [(0, {"type": "card", "colour": "black", "gap": 0})])
    assert seen == [([1], [(0, False)])]


def test_cards_standing_answers_answer_whatever_the_hand(app):
    def make(hand):
        state = cards.position("""
            T@1g - T - T - T - T - T - T - T
            r    . . . . . . .
        """, hands={0: "gggg", 1: hand})
        state["prefs"][1]["score"] = "always"
        return state
    seen = same_for_both("tigris_cards", make, ["gb", "bb"],
                         [(0, {"type": "card", "colour": "green", "column": 0})])
    assert seen == [([0], [(0, False)])]


# ---- The Tigris turn page shows the standing answer, and its button, in both languages --------

def test_tigris_turn_page_shows_the_standing_answer_and_its_button(app, client):
    from pbem.play import links
    game, _ = creation.create_game("tigris", seats(2), seed=5)
    token = links.issue(app.config["SECRET_KEY"], game, 0, 3600)
    page = html.unescape(client.get(f"/turn/{token}").get_data(as_text=True))
    assert "Standing answer for revolts and wars on other players' turns:" in page
    assert "<strong>ask me</strong>" in page
    assert ">From now on, never commit tiles in conflicts on other players' turns</button>" \
        in page
    hu = html.unescape(client.get(f"/turn/{token}?lang=hu").get_data(as_text=True))
    assert "Előre megadott válasz mások körében zajló lázadásokra és háborúkra:" in hu
    assert ">Mostantól mások körében soha ne adj be lapkát konfliktusban</button>" in hu
    never = {"type": "standing", "decision": "support", "answer": "never"}
    applied = playing.act(game.id, 0, never, game.seq)
    assert applied.events[0].summary == "{p0} left a standing answer for support in conflicts."
    page = html.unescape(client.get(f"/turn/{token}?lang=en").get_data(as_text=True))
    assert "<strong>never commit tiles, whatever you hold</strong>" in page
    assert ">From now on, ask me in conflicts on other players' turns</button>" in page
    other = links.issue(app.config["SECRET_KEY"], game, 1, 3600)
    assert "never commit tiles" not in client.get(f"/turn/{other}?lang=en").get_data(as_text=True)
