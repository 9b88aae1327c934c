"""Whole games: random playouts with invariants, replay, storage, views and log lines."""
import json
import random

import pytest

from pbem.games import base
from pbem.games.base import copy_json
from pbem.games.assyria import rules

from .helpers import check_invariants, playout

GAMES = {2: 25, 3: 25, 4: 25}


def test_rules_satisfy_the_protocol():
    assert isinstance(rules, base.Rules)
    assert (rules.name, rules.min_players, rules.max_players) == ("assyria", 2, 4)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_to_the_end_keep_every_invariant(players):
    for seed in range(GAMES[players]):
        def check(before, seat, action, after):
            assert before == snapshot[0], "apply must not change the state it is given"
            check_invariants(after)
            assert all(after["score"][s] >= before["score"][s] for s in range(players))
            snapshot[0] = copy_json(after)
        start = rules.setup(players, seed)
        snapshot = [copy_json(start)]
        check_invariants(start)
        final, log = playout(players, seed, check)
        result = rules.result(final)
        assert sorted(s for tie in result["ranking"] for s in tie) == list(range(players))
        assert final["reign"] == 3 and final["expansion_deck"] and len(final["expansion_deck"]) == 1
        assert rules.to_act(final) == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_replay_from_the_seed_equals_the_live_game_and_storage_round_trips(players):
    seed = 100 + players
    final, log = playout(players, seed)
    state = rules.setup(players, seed)
    for i, (seat, action) in enumerate(log):
        if i % 25 == 0:
            data = rules.dump(state)
            assert json.loads(json.dumps(data)) == data
            assert rules.load(data) == state and rules.dump(rules.load(data)) == data
        state = rules.apply(state, seat, json.loads(json.dumps(action)))
    assert state == final
    assert rules.load(json.loads(json.dumps(rules.dump(final)))) == final


def shuffled_secrets(state, rng):
    """The same position with the decks (the only secrets) in another order."""
    other = copy_json(state)
    rng.shuffle(other["food_deck"])
    rng.shuffle(other["expansion_deck"])
    other["seed"] = rng.randrange(10 ** 9)
    return other


def test_views_are_json_and_leak_no_deck_order_or_seed():
    rng = random.Random(5)
    state = rules.setup(4, 77)
    moves = random.Random(77)
    while rules.to_act(state):
        for seat in [None, 0, 1, 2, 3]:
            view = rules.view(state, seat)
            json.dumps(view)
            assert view["seat"] == seat and view["to_act"] == rules.to_act(state)
            assert "seed" not in view
            assert rules.view(shuffled_secrets(state, rng), seat) == view
            assert (view["prompt"] is None) == (seat not in rules.to_act(state))
        seat = rules.to_act(state)[0]
        state = rules.apply(state, seat, moves.choice(rules.legal_actions(state, seat)))
    view = rules.view(state, None)
    assert view["over"] and view["seed"] == 77


def test_every_legal_action_applies_and_describes_publicly():
    state = rules.setup(3, 9)
    moves = random.Random(9)
    seen = set()
    while rules.to_act(state):
        seat = rules.to_act(state)[0]
        actions = rules.legal_actions(state, seat)
        for action in actions:
            rules.apply(state, seat, action)
            line = rules.describe(state, seat, action)
            assert line.startswith(f"{{p{seat}}}") and line.endswith(".")
            seen.add(action["type"])
        state = rules.apply(state, seat, moves.choice(actions))
    assert {"start", "draft", "column", "hut", "feed", "end_actions"} <= seen


def test_reshuffles_happen_in_long_games_and_stay_deterministic():
    shuffles = []
    for seed in range(6):
        final, _ = playout(4, seed)
        shuffles.append(final["shuffles"])
    assert any(shuffles)


def test_junk_actions_raise_illegal_action_only():
    rng = random.Random(4)
    junk = [None, 3, "x", [], {}, {"type": None}, {"type": "feed", "card": ["a"], "hex": [1, 1]},
            {"type": "hut", "hex": [True, 1]}, {"type": "column", "column": "1"},
            {"type": "well", "site": 1.5}, {"type": "offering", "camels": True},
            {"type": "dignitary", "dignitary": {}}, {"type": "buy_food", "card": None},
            {"type": "extend"}, {"type": "build", "hex": [0, 0, 0]}, {"type": "draft"},
            {"type": "start", "hex": None}, {"type": "nope"}]
    state = rules.setup(4, 4)
    while rules.to_act(state):
        seat = rules.to_act(state)[0]
        for action in junk:
            with pytest.raises(base.IllegalAction):
                rules.apply(state, seat, action)
        with pytest.raises(base.IllegalAction):
            rules.apply(state, (seat + 1) % 4, rules.legal_actions(state, seat)[0])
        state = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
    with pytest.raises(base.IllegalAction, match="over"):
        rules.apply(state, 0, {"type": "end_actions"})


def test_describe_lines():
    state = rules.setup(4, 2)
    seat = state["active"]
    assert rules.describe(state, seat, {"type": "start", "hex": [1, 0]}) == \
        f"{{p{seat}}} put a ziggurat base on the start hex 1,0 (barley, outside)."
    assert rules.describe(state, 1, {"type": "offering", "camels": 2}) == \
        "{p1} offered 2 camels to the gods."


def test_the_last_end_of_actions_announces_the_flood():
    from .helpers import position
    state = position(4, "", phase="actions", active=3, reign=1, turn=2)
    assert rules.describe(state, 3, {"type": "end_actions"}) == \
        "{p3} ended their actions; the flood ends reign I."
    state = position(4, "", phase="actions", active=2, reign=3, turn=3)
    assert rules.describe(state, 2, {"type": "end_actions"}) == "{p2} ended their actions."


@pytest.mark.parametrize("name", ["game-2p.json", "game-4p.json"])
def test_archived_games_still_replay_to_the_same_result(name):
    """Recorded with version 1; a rules change that breaks this must bump `rules.version`."""
    from pathlib import Path
    record = json.loads((Path(__file__).with_name("fixtures") / name).read_text())
    assert record["version"] == rules.version
    state = rules.setup(record["players"], record["seed"])
    for seat, action in record["log"]:
        state = rules.apply(state, seat, action)
    assert rules.result(state) == record["result"]
