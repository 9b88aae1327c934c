"""`determinize(view, seat, rng)`: a full state that the seat's view could have come from, its
unseen cards drawn at random, playable to the end, built from the view alone."""
from __future__ import annotations

import json
import random

import pytest

from pbem.games.tigris_cards import rules
from pbem.games.tigris_cards.cards import TOTAL_CARDS

from .helpers import all_cards
from .test_behaviour_fixture import choose
from .test_playouts import reshuffle_others

GAMES = [(players, seed, options, version, chooser)
         for players in (2, 3, 4)
         for seed, options, version, chooser in [(1, {}, 2, "kinds"), (2, {}, 2, "uniform"),
                                                 (3, {"open_piles": True}, 2, "kinds"),
                                                 (4, {}, 1, "kinds"), (5, {}, 3, "kinds"),
                                                 (6, {}, 3, "uniform")]]


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True)


def positions(players, seed, options, version, chooser, every=7):
    """Every `every`-th position of a seeded random game, and its end."""
    rng = random.Random(seed)
    st = rules.setup(players, seed, options, version=version)
    step = 0
    while rules.to_act(st):
        if step % every == 0:
            yield st
        seat = rules.to_act(st)[0]
        st = rules.apply(st, seat, choose(rng, rules.legal_actions(st, seat), chooser))
        step += 1
    yield st


def hidden_parts(st: dict, seat: int):
    """What `seat` cannot see of a state (the cards in the unseen places)."""
    return ([hand for s, hand in enumerate(st["hands"]) if s != seat], st["deck"], st["removed"],
            st["discard"], st["piles"])


def decision_kind(st: dict) -> tuple:
    pending, conflict = st["pending"], st["conflict"]
    return (pending and pending["kind"], conflict and conflict["type"], st["over"])


def sampled(players, seed, options, version, chooser):
    """Every 7th position of a game chosen by kinds, every 35th of a uniform one, the first
    of each kind of decision (pending kind, conflict type) and the end. A uniform game's 2,000
    to 5,600 positions are two thirds commitments to one internal conflict after another: every
    35th still gives 70 to 170 positions a game (every 7th gave 320 to 810), and with the first
    of each kind the rare ones (an order of conflicts, a ship, an exchange) are all met:
    measured, for each player count and rules version every kind that every 7th position of
    each game met, and more."""
    every = 7 if chooser == "kinds" else 35
    met = set()
    for step, st in enumerate(positions(players, seed, options, version, chooser, every=1)):
        kind = decision_kind(st)
        if step % every == 0 or kind not in met or not rules.to_act(st):
            met.add(kind)
            yield st


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}p-seed{g[1]}-v{g[3]}")
def test_the_determinized_state_shows_the_seat_the_same_view(game):
    checked = 0
    for n, st in enumerate(sampled(*game)):
        for seat in range(st["players"]):
            view = rules.view(st, seat)
            kept = canonical(view)
            state = rules.determinize(view, seat, random.Random(n))
            assert canonical(view) == kept, "determinize must not change the view it is given"
            assert canonical(rules.view(state, seat)) == kept
            assert sorted(all_cards(state)) == list(range(TOTAL_CARDS))
            assert rules.to_act(state) == rules.to_act(st)
            assert rules.load(json.loads(json.dumps(rules.dump(state)))) == state
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_determinized_state_plays_to_the_end(players):
    # every 600th position of a uniform game: 6, 13 and 12 of them with 2, 3 and 4 players
    # (action and commit decisions, with 2 and 3 players a reward too), each played out to the
    # end by thousands of uniform random moves (every 400th played out half as many again)
    played = 0
    for n, st in enumerate(positions(players, 10 + players, {}, 2, "uniform", every=600)):
        if st["over"]:
            continue
        played += 1
        seat = n % players
        rng = random.Random(n)
        state = rules.determinize(rules.view(st, seat), seat, rng)
        steps = 0
        while rules.to_act(state):
            actor = rules.to_act(state)[0]
            state = rules.apply(state, actor, rng.choice(rules.legal_actions(state, actor)))
            steps += 1
            assert steps < 20000
        assert rules.result(state)["ranking"]
        assert sorted(all_cards(state)) == list(range(TOTAL_CARDS))
    assert played >= 6


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_seeds_draw_different_unseen_cards(players):
    differ = same = 0
    for st in positions(players, 20 + players, {}, 2, "kinds", every=5):
        if st["over"]:
            continue
        seat = st["active"]
        view = rules.view(st, seat)
        one = rules.determinize(view, seat, random.Random(1))
        two = rules.determinize(view, seat, random.Random(2))
        if hidden_parts(one, seat) != hidden_parts(two, seat):
            differ += 1
        else:
            same += 1
    assert differ > 10 * max(same, 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_real_states_hidden_cards_do_not_matter(players):
    """Two real states alike but for what the seat cannot see give one determinized state."""
    rng = random.Random(players)
    compared = 0
    for n, st in enumerate(positions(players, 30 + players, {}, 2, "uniform", every=101)):
        if st["over"]:
            continue
        seat = n % players
        twin = reshuffle_others(st, seat, rng)
        assert hidden_parts(twin, seat) != hidden_parts(st, seat)
        one = rules.determinize(rules.view(st, seat), seat, random.Random(n))
        two = rules.determinize(rules.view(twin, seat), seat, random.Random(n))
        assert rules.dump(one) == rules.dump(two)
        compared += 1
    assert compared >= 3


def test_the_flow_is_kept_and_other_seats_standing_answers_are_ask():
    for st in positions(3, 5, {}, 2, "kinds", every=3):
        if st["over"]:
            continue
        seat = (st["active"] + 1) % 3
        state = rules.determinize(rules.view(st, seat), seat, random.Random(9))
        assert [len(h) for h in state["hands"]] == [len(h) for h in st["hands"]]
        assert (state["pending"], state["queue"], state["card_left_hand"]) == \
            (st["pending"], st["queue"], st["card_left_hand"])
        others = [s for s in range(3) if s != seat]
        assert all(state["prefs"][s] == {k: "ask" for k in st["prefs"][s]} for s in others)
        assert state["prefs"][seat] == st["prefs"][seat]


def test_a_view_of_another_seat_is_refused():
    st = rules.setup(2, 1)
    with pytest.raises(ValueError):
        rules.determinize(rules.view(st, 0), 1, random.Random(0))


@pytest.mark.parametrize("players", [2, 3])
def test_the_discarded_cards_are_known_by_face_and_left_out_of_the_unseen(players):
    """Every discarded card lay face up (played in a conflict, or one of a ship's four), so a
    player who kept count knows the pile by face: the view counts it, and the drawn hands and
    deck come from what is left of each colour."""
    from pbem.games.tigris_cards.cards import CARD_COLOUR, COLOURS
    from pbem.games.tigris_cards.scoring import colour_counts
    checked = 0
    for n, st in enumerate(positions(players, 5, {}, 2, "kinds", every=5)):
        if not st["discard"]:
            continue
        seat = rules.to_act(st)[0] if rules.to_act(st) else 0
        view = rules.view(st, seat)
        assert view["discard_counts"] == colour_counts(st["discard"])
        assert sum(view["discard_counts"].values()) == view["discard"]
        drawn = rules.determinize(view, seat, random.Random(n))
        assert colour_counts(drawn["discard"]) == colour_counts(st["discard"])
        # so the unseen places together hold the same colours as the real ones
        unseen = [card for s, hand in enumerate(drawn["hands"]) if s != seat for card in hand]
        real = [card for s, hand in enumerate(st["hands"]) if s != seat for card in hand]
        unseen += drawn["deck"] + drawn["removed"]
        real += st["deck"] + st["removed"]
        for pile, real_pile in zip(drawn["piles"], st["piles"]):
            unseen += pile[:-1]
            real += real_pile[:-1]
        assert {c: sum(CARD_COLOUR[x] == c for x in unseen) for c in COLOURS} == \
               {c: sum(CARD_COLOUR[x] == c for x in real) for c in COLOURS}
        checked += 1
    assert checked > 5
