"""The contract between the server and every game in RULES (pbem/games/base.py, `Rules`):
seeded random games of every player count from min_players to max_players are played to
their end, and at moves spread over each game every member the server calls answers as the
protocol says: setup, to_act, legal_actions, apply, view, result, describe, dump, load and
default_action; forced and turn_of where the game has them. The log's own replay of the
moves (`undo.Replay`, actions read back from JSON as the log stores them) ends in the state
the game reached live. No game is named: a plugin game is checked like the built-in ones."""
from __future__ import annotations

import json

import pytest

from pbem.games import RULES
from pbem.games.base import LANGUAGES, check_options, default_move, speaking, why_not_rules
from pbem.log import undo
from tests.support.games import GAMES, player_counts, random_moves

SEEDS = (1, 2)          # seeded random games a player count


def checked(move: int) -> bool:
    """Whether move number `move` is checked member by member: 0, 1, 2, 4, 8, ... (a dozen in
    the longest game; the last move is checked too)."""
    return move & (move - 1) == 0


def as_json(value):
    """`value` as the log and the pages read it back: JSON, keys sorted, no NaN."""
    return json.loads(json.dumps(value, sort_keys=True, allow_nan=False))


def dumped(rules, state) -> str:
    return json.dumps(rules.dump(state), sort_keys=True)


def check_position(rules, state, players, seat, action):
    """Every member the server calls, in one position of a running game."""
    waiting = rules.to_act(state)
    assert rules.result(state) is None
    for other in range(players):
        legal = rules.legal_actions(state, other)
        if other in waiting:
            assert legal and as_json(legal) == legal, (other, legal)
            chosen = rules.default_action(state, other)
            assert chosen in legal and default_move(rules, state, other) == chosen
            if hasattr(rules, "forced"):
                assert rules.forced(state, other, legal) in (True, False)
        else:
            assert legal == [], f"seat {other} is not asked, yet has legal actions"
    for viewer in [*range(players), None]:
        view = rules.view(state, viewer)
        assert as_json(view) == view, f"the view of seat {viewer} is not JSON"
    if hasattr(rules, "turn_of"):
        assert as_json(rules.turn_of(state)) == rules.turn_of(state)

    copy = rules.load(as_json(rules.dump(state)))     # the snapshot the store keeps
    assert dumped(rules, copy) == dumped(rules, state)
    assert rules.to_act(copy) == waiting
    for s in waiting:
        assert rules.legal_actions(copy, s) == rules.legal_actions(state, s), s
    for v in [*range(players), None]:
        assert rules.view(copy, v) == rules.view(state, v), v
    for s in waiting:
        assert rules.default_action(copy, s) == rules.default_action(state, s), s

    for language in LANGUAGES:
        with speaking(language):
            line = rules.describe(state, seat, action)
        assert isinstance(line, str) and line.strip(), (language, action)

    before = dumped(rules, state)
    after = rules.apply(state, seat, action)
    assert dumped(rules, state) == before, "apply changed the state it was given"
    assert dumped(rules, rules.apply(state, seat, as_json(action))) == dumped(rules, after), \
        "the action read back from JSON plays differently"


def check_end(rules, state, players):
    assert rules.to_act(state) == []
    assert all(rules.legal_actions(state, seat) == [] for seat in range(players))
    result = rules.result(state)
    assert as_json(result) == result
    ranked = [seat for tie in result["ranking"] for seat in tie]
    assert sorted(ranked) == list(range(players)) and all(result["ranking"]), result
    for viewer in [*range(players), None]:
        assert as_json(rules.view(state, viewer)) == rules.view(state, viewer)
    assert dumped(rules, rules.load(as_json(rules.dump(state)))) == dumped(rules, state)


@pytest.mark.parametrize("name", GAMES)
def test_the_game_says_what_it_is(name):
    rules = RULES[name]
    assert why_not_rules(rules) is None and rules.name == name
    assert check_options(rules, {}) == rules.options
    for players in player_counts(rules):
        assert dumped(rules, rules.setup(players, 3)) == dumped(rules, rules.setup(players, 3))
        assert dumped(rules, rules.setup(players, 3, dict(rules.options))) == \
            dumped(rules, rules.setup(players, 3)), "the default options are not the options"


@pytest.mark.parametrize("name", GAMES)
def test_random_games_of_every_player_count_keep_the_contract_to_their_end(name):
    rules, games = RULES[name], 0
    for players in player_counts(rules):
        for seed in SEEDS:
            replay = undo.Replay(rules)
            replay.step(0, None, {"players": players, "seed": seed, "options": {}})
            state = None
            for move, (state, seat, action) in enumerate(random_moves(rules, players, seed)):
                waiting = rules.to_act(state)
                assert len(set(waiting)) == len(waiting) and set(waiting) <= set(range(players))
                if checked(move):
                    check_position(rules, state, players, seat, action)
                    assert dumped(rules, replay.state) == dumped(rules, state), \
                        f"the replay of the log differs from the live game at move {move}"
                replay.step(move + 1, seat, as_json(action))
            check_position(rules, state, players, seat, action)
            end = rules.apply(state, seat, action)
            check_end(rules, end, players)
            assert dumped(rules, replay.state) == dumped(rules, end), \
                "the replay of the log ends elsewhere than the live game"
            games += 1
    assert games == len(SEEDS) * len(player_counts(rules))
