"""The contract the search relies on, for every engine that has `determinize` (every game in
RULES that has it, plugins too, and two test engines): over seeded random positions of every
player count and every seat, the determinized state shows that seat exactly the view it was
made from, and plays on (legal actions of whoever is to act apply). The built-in games must
keep theirs: the computer players search them."""
from __future__ import annotations

import functools
import random

import pytest

from pbem.bots.heuristic import moves
from pbem.games import RULES
from pbem.games.base import GAME_PACKAGES
from tests.bots import bids, hidden_duel
from tests.bots.helpers import canonical, random_positions
from tests.support.games import GAMES

ENGINES = {**{name: RULES[name] for name in GAMES if hasattr(RULES[name], "determinize")},
           "hidden_duel": hidden_duel.rules, "bids": bids.rules}
GAMES = 2          # seeded random games a player count
POSITIONS = 12     # positions looked at a game, spread over it


def engine(name):
    return ENGINES[name]


@pytest.mark.parametrize("name", GAME_PACKAGES)
def test_every_built_in_game_can_be_determinized(name):
    assert getattr(RULES[name], "determinize", None) is not None, \
        f"{name} lost its determinize: the bots cannot search it"


@functools.lru_cache(maxsize=None)
def spread_positions(rules, players, seed):
    """About POSITIONS positions of one seeded random game, from its start to its end (the
    game played once a test process: the tests only read its positions)."""
    played = list(random_positions(rules, players, seed))
    every = max(1, len(played) // POSITIONS)
    return played[::every][:POSITIONS]


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_the_determinized_state_shows_the_seat_its_own_view(name):
    rules = engine(name)
    checked = 0
    for players in range(rules.min_players, rules.max_players + 1):
        for seed in range(GAMES):
            for state, _ in spread_positions(rules, players, seed):
                for seat in range(players):
                    view = rules.view(state, seat)
                    made = rules.determinize(view, seat, random.Random(seed * 31 + seat))
                    assert canonical(rules.view(made, seat)) == canonical(view), \
                        (name, players, seed, seat)
                    checked += 1
    assert checked >= 2 * GAMES


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_the_determinized_state_plays_on(name):
    rules = engine(name)
    rng = random.Random(5)
    for players in range(rules.min_players, rules.max_players + 1):
        for state, seats in spread_positions(rules, players, 9)[::3]:
            made = rules.determinize(rules.view(state, seats[0]), seats[0], rng)
            assert rules.to_act(made) == rules.to_act(state)
            for _ in range(40):
                to_act = rules.to_act(made)
                if not to_act:
                    assert rules.result(made)["ranking"]
                    break
                made = rules.apply(made, to_act[0],
                                   rng.choice(moves(rules.legal_actions(made, to_act[0]))))


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_the_seat_s_own_legal_actions_are_legal_in_the_determinized_state(name):
    """The search offers the seat the actions it was given at the root of its tree."""
    rules = engine(name)
    for players in (rules.min_players, rules.max_players):
        for state, seats in spread_positions(rules, players, 4):
            for seat in seats:
                made = rules.determinize(rules.view(state, seat), seat, random.Random(seat))
                assert canonical(rules.legal_actions(made, seat)) == \
                    canonical(rules.legal_actions(state, seat))


def public_record(name: str, state) -> dict:
    """What a careful player writes down from the public log, read from a full state: every
    player's Tigris points and treasures and the tiles laid face up out of the game (by
    colour), every card game victory pile by colour."""
    if name == "tigris":
        swapped = state.get("swapped")
        return {"points": state["points"], "treasures": state["treasures_taken"],
                "out face up": None if swapped is None else
                {c: n - swapped[c] for c, n in state["out"].items()}}
    if name == "tigris_cards":
        from pbem.games.tigris_cards.cards import face_of
        return {"piles": [sorted(face_of(card) for card in pile) for pile in state["piles"]]}
    return {}


@pytest.mark.parametrize("name", ["tigris", "tigris_cards"])
def test_every_imagined_state_agrees_with_the_public_record(name):
    """Our ruling: what the log says in public (points and treasures as scored, the tiles laid
    face up, the cards placed on victory piles) is in every view, and every determinized state
    keeps it, with hidden scoring and closed piles too."""
    rules = engine(name)
    checked = 0
    for players in range(rules.min_players, rules.max_players + 1):
        for seed in range(GAMES):
            for state, _ in spread_positions(rules, players, seed):
                expected = public_record(name, state)
                for seat in range(players):
                    made = rules.determinize(rules.view(state, seat), seat,
                                             random.Random(seed * 7 + seat))
                    assert public_record(name, made) == expected, (players, seed, seat)
                    checked += 1
    assert checked >= 20
