"""Reply codes (pbem/games/codes.py and each game's codes.py): one per legal action, unique in
the position once case and spaces are set aside, in every game of RULES and player count."""
from __future__ import annotations

import random

import pytest

from pbem.games import RULES
from pbem.games.codes import MAX_CODE, codes_of, match, normal, numbered, pattern, unique
from pbem.games.tigris.presenter import square_label
from tests.support.games import GAMES, player_counts, random_moves


def positions(rules, players, seed):
    """(view, actions) of the seat asked in positions of a seeded random game to its end: the
    first 60 moves, then every 20th."""
    for move, (state, seat, _action) in enumerate(random_moves(rules, players, seed)):
        if move < 60 or move % 20 == 0:
            yield rules.view(state, seat), rules.legal_actions(state, seat)


@pytest.mark.parametrize("name", GAMES)
def test_every_position_of_every_player_count_has_unique_codes(name):
    """Every game, with codes of its own or numbered ones: one code an action, unique once
    case and spaces are set aside, short, and each answer matches its action."""
    rules = RULES[name]
    own_codes = getattr(rules, "codes", None) is not None
    checked = 0
    for players in player_counts(rules):
        for seed in range(2):
            for view, actions in positions(rules, players, seed):
                codes = codes_of(rules, view, actions)
                assert len(codes) == len(actions)
                assert len({normal(c) for c in codes}) == len(codes), codes
                assert all(0 < len(c) <= MAX_CODE for c in codes)
                if own_codes:
                    own = rules.codes(view, actions)
                    assert own == codes, "the game's own codes are not unique without help"
                for index in random.Random(len(actions)).sample(range(len(actions)),
                                                               min(5, len(actions))):
                    assert match(codes, "  " + codes[index].upper().replace(" ", "   ")) == index
                checked += 1
    assert checked >= 2 * len(player_counts(rules))


def test_tigris_codes_name_squares_as_the_board_draws_them():
    rules = RULES["tigris"]
    state = rules.setup(2, 3)
    seat = rules.to_act(state)[0]
    actions = rules.legal_actions(state, seat)
    codes = rules.codes(rules.view(state, seat), actions)
    tile = next(i for i, a in enumerate(actions) if a["type"] == "place_tile")
    action = actions[tile]
    assert codes[tile] == f"{action['colour']} {square_label(action['at'])}"
    assert "pass" in codes
    assert any(c.startswith("swap ") for c in codes)
    assert match(codes, "PASS") == codes.index("pass")


def test_tigris_codes_are_the_same_in_the_words_of_rules_version_2():
    rules = RULES["tigris"]
    now, before = rules.setup(2, 3), rules.setup(2, 3, version=2)
    seat = rules.to_act(now)[0]
    actions, old = rules.legal_actions(now, seat), rules.legal_actions(before, seat)
    assert len(actions) == len(old) and {"colour"} <= set(next(
        a for a in actions if a["type"] == "place_tile")) and {"color"} <= set(next(
            a for a in old if a["type"] == "place_tile"))
    assert rules.codes(rules.view(now, seat), actions) == rules.codes(rules.view(before, seat), old)


def test_a_game_without_codes_gets_numbers_and_repeated_codes_are_numbered():
    class Plain:
        pass

    class Careless:
        def codes(self, view, actions):
            return ["go"] * len(actions)

    class Broken:
        def codes(self, view, actions):
            raise KeyError("oops")

    actions = [{"type": "a"}, {"type": "b"}, {"type": "c"}]
    assert codes_of(Plain(), {}, actions) == ["1", "2", "3"] == numbered(actions)
    assert codes_of(Careless(), {}, actions) == ["go", "go #2", "go #3"]
    assert codes_of(Broken(), {}, actions) == ["1", "2", "3"]
    assert unique(["go", "go #2", "go"]) == ["go", "go #2", "go #3"]
    assert match(["go", "go #2"], "nothing") is None


def test_the_pattern_of_hundreds_of_codes_is_a_few_examples():
    rules = RULES["tigris"]
    state = rules.setup(3, 1)
    seat = rules.to_act(state)[0]
    actions = rules.legal_actions(state, seat)
    codes = codes_of(rules, rules.view(state, seat), actions)
    assert len(codes) > 300
    shapes = pattern(codes)
    assert len(shapes) < 30
    assert set(shapes) <= set(codes)
