"""determinize: a full state from one seat's view, its unseen parts (the order of the decks and
the reshuffle seed) drawn at random, everything else read from the view."""
from __future__ import annotations

import json
import random

import pytest

from pbem.games.assyria import engine as R
from pbem.games.assyria import rules
from pbem.games.base import copy_json

from .helpers import check_invariants, position


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def positions(players: int, seed: int, every: int):
    """Every `every`-th position of a seeded random game, and its last one (game over)."""
    state, moves, step = rules.setup(players, seed), random.Random(seed), 0
    while rules.to_act(state):
        if step % every == 0:
            yield state
        seat = rules.to_act(state)[0]
        state = rules.apply(state, seat, moves.choice(rules.legal_actions(state, seat)))
        step += 1
    yield state


def hidden(state) -> tuple:
    return state["food_deck"], state["expansion_deck"], state["seed"]


def with_other_secrets(state, rng):
    """The same position with the decks in another order and another seed."""
    other = copy_json(state)
    rng.shuffle(other["food_deck"])
    rng.shuffle(other["expansion_deck"])
    other["seed"] = rng.randrange(10 ** 9)
    other["shuffles"] += 1
    return other


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_determinized_state_shows_every_seat_the_view_it_was_built_from(players):
    rng = random.Random(players)
    for seed in range(3):
        for state in positions(players, seed, every=5):
            for seat in [*range(players), None]:
                view = rules.view(state, seat)
                made = rules.determinize(view, seat, rng)
                assert canonical(rules.view(made, seat)) == canonical(view), (seed, seat)
                check_invariants(made)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_determinized_state_plays_to_the_end(players):
    rng = random.Random(10 + players)
    for state in positions(players, 20 + players, every=40):
        seat = rules.to_act(state)[0] if rules.to_act(state) else 0
        made = rules.determinize(rules.view(state, seat), seat, rng)
        while rules.to_act(made):
            check_invariants(made)
            actor = rules.to_act(made)[0]
            made = rules.apply(made, actor, rng.choice(rules.legal_actions(made, actor)))
        assert rules.result(made) is not None


def test_two_rng_seeds_draw_different_decks():
    draws = []
    for state in positions(3, 5, every=30):
        view = rules.view(state, 1)
        if view["over"]:
            continue
        a = rules.determinize(view, 1, random.Random(1))
        b = rules.determinize(view, 1, random.Random(2))
        assert rules.view(a, 1) == rules.view(b, 1) == view
        draws.append(hidden(a) != hidden(b))
    assert len(draws) >= 5 and all(draws)


def test_the_same_rng_seed_draws_the_same_state():
    state = next(positions(4, 8, every=1))
    view = rules.view(state, 2)
    assert rules.determinize(view, 2, random.Random(3)) == \
        rules.determinize(view, 2, random.Random(3))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_real_states_secrets_do_not_reach_the_determinized_state(players):
    rng = random.Random(30 + players)
    for state in positions(players, 30 + players, every=9):
        if not rules.to_act(state):
            continue                            # over: the seed is shown, nothing is secret
        other = with_other_secrets(state, rng)
        for seat in range(players):
            view, other_view = rules.view(state, seat), rules.view(other, seat)
            assert view == other_view
            assert rules.determinize(view, seat, random.Random(seat)) == \
                rules.determinize(other_view, seat, random.Random(seat))


def test_the_unseen_cards_are_the_ones_no_view_shows():
    """The deck holds the kinds of card not in hands, columns, draft or discards; the expansion
    deck the expansion cards neither showing nor discarded."""
    state = position(4, "1,1:r", phase="actions", active=0, expansion=[4, 2],
                     expansion_discards=[3, 4, 2], expansion_deck=[4, 3, 3, 3])
    deck = state["food_deck"]
    state["hands"][0], state["discards"], state["food_deck"] = deck[:3], deck[3:6], deck[6:]
    made = rules.determinize(rules.view(state, 3), 3, random.Random(0))

    def kinds(cards):
        return sorted(map(R.kind, cards))
    assert kinds(made["food_deck"]) == kinds(state["food_deck"])
    assert kinds(made["discards"]) == kinds(state["discards"])
    assert [kinds(c) for c in made["columns"]] == [kinds(c) for c in state["columns"]]
    assert sorted(made["expansion_deck"]) == [3, 3, 3, 4]    # of 2 2 3 3 3 3 4 4 4


def test_the_seats_still_to_act_follow_the_phase():
    state = rules.setup(4, 6)
    seat = state["active"]
    state = rules.apply(state, seat, rules.legal_actions(state, seat)[0])
    view = rules.view(state, 0)
    assert rules.determinize(view, 0, random.Random(0))["queue"] == state["queue"]
    while state["phase"] != "draft":
        seat = rules.to_act(state)[0]
        state = rules.apply(state, seat, rules.legal_actions(state, seat)[0])
    seat = rules.to_act(state)[0]
    state = rules.apply(state, seat, rules.legal_actions(state, seat)[0])
    made = rules.determinize(rules.view(state, 1), 1, random.Random(0))
    assert made["queue"] == state["queue"] and len(made["queue"]) == 2


def test_the_discard_pile_is_in_every_view_by_kind():
    state = position(2, "", discards=[0, 39, 7])
    for seat in (None, 0, 1):
        assert rules.view(state, seat)["discard_pile"] == ["grape-1", "joker", "palm-1"]


def test_a_view_of_another_seat_is_refused():
    state = rules.setup(2, 1)
    with pytest.raises(ValueError, match="seat 0"):
        rules.determinize(rules.view(state, 0), 1, random.Random(0))
