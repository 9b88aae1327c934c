"""The engine's shortcuts answer as the rules they stand for: apply accepts exactly the legal
list, the closed-form feeding choices equal the matching they come from, and the state apply
returns shares nothing that can be changed with the state it was given."""
from __future__ import annotations

import itertools
import random

import pytest

from pbem.games.assyria import engine as R
from pbem.games.assyria import rules
from pbem.games.assyria.board import coords, key
from pbem.games.base import IllegalAction

from .helpers import position
from .test_recorded_behaviour import probes


def positions(players: int, seed: int, every: int = 1):
    """Every `every`-th position of a seeded random game, with the seat to act."""
    state, moves, step = rules.setup(players, seed), random.Random(seed), 0
    while rules.to_act(state):
        seat = rules.to_act(state)[0]
        if step % every == 0:
            yield state, seat
        state = rules.apply(state, seat, moves.choice(rules.legal_actions(state, seat)))
        step += 1


def containers(value) -> list:
    """Every list and dict inside a JSON-like value (the value itself included)."""
    found, todo = [], [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            found.append(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            found.append(item)
            todo.extend(item)
    return found


def same(a, b) -> bool:
    """Equal as JSON values: of one type each (True is no 1, a tuple no list), all the way down."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(same, a, b))
    return a == b


@pytest.mark.parametrize("players", [2, 3, 4])
def test_apply_accepts_an_action_exactly_when_it_is_in_the_legal_list(players):
    for state, seat in positions(players, 40 + players, every=3):
        legal = rules.legal_actions(state, seat)
        for action in probes(state, seat):
            try:
                rules.apply(state, seat, action)
                accepted = True
            except IllegalAction:
                accepted = False
            assert accepted == any(same(action, a) for a in legal), (state["phase"], action)


@pytest.mark.parametrize("players", [2, 4])
def test_a_state_after_apply_shares_no_list_or_dict_with_the_one_before(players):
    for state, seat in positions(players, 7):
        for action in rules.legal_actions(state, seat):
            after = rules.apply(state, seat, action)
            before_ids = {id(c) for c in containers(state)}
            assert not any(id(c) in before_ids for c in containers(after)), action


def test_changing_an_old_state_leaves_the_new_one_alone():
    state = rules.setup(2, 3)
    seat = rules.to_act(state)[0]
    after = rules.apply(state, seat, rules.legal_actions(state, seat)[0])
    kept = rules.dump(after)
    state["food_deck"].clear()
    state["dignitaries"]["lower"][0] = 1
    for piece in state["ziggurats"].values():
        piece[1] = 3
    assert rules.dump(after) == kept


def test_a_state_with_an_unknown_field_is_copied_deeply():
    state = rules.setup(2, 3)
    state["note"] = {"kept": [1]}
    copied = R.copy_state(state)
    assert copied == state and copied["note"] is not state["note"]
    assert copied["note"]["kept"] is not state["note"]["kept"]


def matching_feedings(state, seat) -> list[dict]:
    """The definition: each source on each unfed hut it can feed, when what is left can still
    be fed to one less than the maximum now (`max_fed` after the feeding)."""
    symbols, wild = R.feeding_resources(state, seat)
    unfed = R.unfed_huts(state, seat)
    counts = R.huts_by_food(state, unfed)
    best = R.max_fed(counts, symbols, wild)
    actions = []
    for source, h in itertools.product(R.feeding_sources(state, seat), unfed):
        if best == 0 or not R.can_feed(state, seat, source, h):
            continue
        food = R.b(state).food(h)
        left_counts, left_symbols, left_wild = dict(counts), dict(symbols), wild
        left_counts[food] -= 1
        if source in (R.PLOW, R.JOKER):
            left_wild -= 1
        else:
            left_symbols[food] -= 1
        if R.max_fed(left_counts, left_symbols, left_wild) == best - 1:
            actions.append({"type": "feed", "card": source, "hex": coords(h)})
    return actions


def test_feeding_choices_equal_the_matching_on_random_hands_and_huts():
    rng = random.Random(11)
    bd = R.b(rules.setup(4, 1))
    for _ in range(400):
        huts = rng.sample(bd.order, rng.randrange(1, 9))
        state = position(4, " ".join(f"{h}:r" for h in huts), phase="feed", active=0,
                         plows=[rng.random() < 0.5, False, False, False],
                         fed=rng.sample(huts, rng.randrange(0, 2)),
                         played={f: rng.randrange(1, 3) for f in rng.sample(R.FOODS, 2)}
                         if rng.random() < 0.3 else {})
        state["hands"][0] = rng.sample(range(len(R.CARDS)), rng.randrange(0, 5))
        expected = matching_feedings(state, 0)
        assert R.feed_actions(state, 0) == expected
        for action in expected:
            assert R.may_feed(state, 0, action["card"], key(*action["hex"]))
        assert (R.feedable(state, 0) == 0) == (expected == [])

