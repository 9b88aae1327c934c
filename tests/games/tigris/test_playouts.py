"""Seeded random games to the end, with invariants, replay, dump/load and view-leak checks."""
import collections
import json
import random

import pytest

from pbem.games.base import IllegalAction, copy_json, is_forced
from pbem.games.tigris import rules
from pbem.games.tigris.board import COLORS

from .helpers import check_invariants

# Tile placements weigh most, so that kingdoms grow and conflicts, monuments and treasures occur.
WEIGHTS = {"place_tile": 10, "place_leader": 4, "move_leader": 1, "withdraw_leader": 0.3,
           "place_catastrophe": 0.3, "swap": 0.3, "pass": 0.2}
SEEDS = {2: range(1, 7), 3: range(11, 17), 4: range(21, 27)}
ENGLISH = {"english_variant": True, "open_scoring": True}


def pick(rng: random.Random, actions: list[dict]) -> dict:
    by_type = collections.defaultdict(list)
    for action in actions:
        by_type[action["type"]].append(action)
    types = sorted(by_type)
    kind = rng.choices(types, [WEIGHTS.get(t, 1) for t in types])[0]
    return rng.choice(by_type[kind])


def reshuffle_secrets(state: dict, seat, rng: random.Random) -> dict:
    """Other seats' hands and the bag dealt again from their pooled tiles, sizes kept."""
    s = copy_json(state)                # a state is JSON data: a deep copy, several times sooner
    others = [o for o in range(s["players"]) if o != seat]
    pool = list(s["bag"]) + [c for o in others for c in COLORS for _ in range(s["hands"][o][c])]
    rng.shuffle(pool)
    for o in others:
        size = sum(s["hands"][o].values())
        s["hands"][o] = {c: pool[:size].count(c) for c in COLORS}
        pool = pool[size:]
    s["bag"] = pool
    return s


def redeal_own(state: dict, seat: int, rng: random.Random) -> dict:
    """The seat's own tiles dealt again from its hand and the bag, its hand size kept."""
    s = copy_json(state)
    pool = list(s["bag"]) + [c for c in COLORS for _ in range(s["hands"][seat][c])]
    rng.shuffle(pool)
    size = sum(s["hands"][seat].values())
    s["hands"][seat] = {c: pool[:size].count(c) for c in COLORS}
    s["bag"] = pool[size:]
    return s


def check_asked_alike(state: dict, rng: random.Random) -> None:
    """A seat to decide is asked, or answered for, the same whatever its tiles are."""
    seat = rules.to_act(state)[0]
    forced = is_forced(rules, state, seat, rules.legal_actions(state, seat))
    for _ in range(3):
        twin = redeal_own(state, seat, rng)
        assert rules.to_act(twin) == [seat]
        assert is_forced(rules, twin, seat, rules.legal_actions(twin, seat)) == forced, \
            state["pending"]


def check_views(state: dict, rng: random.Random) -> None:
    for seat in list(range(state["players"])) + [None]:
        view = rules.view(state, seat)
        json.dumps(view)
        if not state["over"]:
            assert "seed" not in view and "bag_tiles" not in view
            assert rules.view(reshuffle_secrets(state, seat, rng), seat) == view


def random_game(players: int, seed: int, options: dict | None = None):
    rng = random.Random(seed)
    state = rules.setup(players, seed, options)
    log, kinds = [], collections.Counter()
    check_invariants(state)
    untouched = rules.dump(state)
    while not state["over"]:
        seat = rules.to_act(state)[0]
        action = pick(rng, rules.legal_actions(state, seat))
        line = rules.describe(state, seat, action)
        assert line.endswith(".") and "None" not in line
        if action["type"] == "swap":
            assert not any(color in line.split(";")[0] for color in COLORS)
        before = state
        state = rules.apply(state, seat, action)
        assert before == untouched                           # apply did not touch its input
        log.append((seat, action))
        kinds[action["type"]] += 1
        check_invariants(state, before)
        untouched = rules.dump(state)
        assert rules.load(json.loads(json.dumps(untouched))) == state
        if len(log) % 3 == 0:
            check_views(state, rng)
        if not state["over"] and state["pending"] and state["pending"]["kind"] in (
                "revolt", "war"):
            check_asked_alike(state, rng)
        assert len(log) < 3000, "a runaway game"
    check_views(state, rng)
    return state, log, kinds


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_to_the_end(players):
    kinds = collections.Counter()
    for seed in SEEDS[players]:
        options = ENGLISH if seed % 3 == 0 else None
        state, log, counted = random_game(players, seed, options)
        kinds += counted
        result = rules.result(state)
        assert sorted(s for place in result["ranking"] for s in place) == list(range(players))
        # Replay from the seed rebuilds the same game.
        replay = rules.setup(players, seed, options)
        for seat, action in log:
            replay = rules.apply(replay, seat, action)
        assert replay == state
        assert rules.dump(rules.load(rules.dump(state))) == rules.dump(state)
    # The games reached the rules worth testing.
    assert kinds["commit"] > 0 and kinds["place_leader"] > 0 and kinds["place_tile"] > 0


def test_only_seats_to_act_may_act():
    state = rules.setup(3, 11)
    for seat in (1, 2):
        with pytest.raises(IllegalAction):
            rules.apply(state, seat, {"type": "pass"})
        assert rules.legal_actions(state, seat) == []


JUNK = [None, -1, 0, 99, True, "x", "red", [], {}, [0], [3, 99], [[0, 0]], ["red", 7]]


def test_mutated_actions_raise_illegal_action_or_apply_cleanly():
    """A fuzzer: legal actions with one field replaced by junk never crash apply."""
    rng = random.Random(5)
    state = rules.setup(3, 5)
    for _ in range(120):
        if state["over"]:
            break
        seat = rules.to_act(state)[0]
        actions = rules.legal_actions(state, seat)
        for action in rng.sample(actions, min(4, len(actions))):
            for key in list(action) + ["type"]:
                bad = dict(action, **{key: rng.choice(JUNK)})
                try:
                    after = rules.apply(state, seat, bad)
                except IllegalAction:
                    continue
                assert bad in actions or bad["type"] == "swap", bad
                check_invariants(after)
        state = rules.apply(state, seat, pick(rng, actions))
