"""Reply codes (pbem/games/codes.py and each game's codes.py): one per legal action, unique in
the position once case and spaces are set aside, in every engine and player count."""
from __future__ import annotations

import random

import pytest

from pbem.games import RULES
from pbem.games.codes import codes_of, match, normal, numbered, pattern, unique
from pbem.present.boards.tigris import square_label

GAMES = ("tigris", "tigris_cards", "assyria")
MOVES = {"tigris": 60, "tigris_cards": 300, "assyria": 300}


def positions(name, players, seed):
    """(view, actions) of the seat asked in each position of a seeded random playout."""
    rules = RULES[name]
    rng = random.Random(seed)
    state = rules.setup(players, seed)
    for _ in range(MOVES[name]):
        waiting = rules.to_act(state)
        if not waiting:
            return
        seat = rng.choice(waiting)
        actions = rules.legal_actions(state, seat)
        yield rules.view(state, seat), actions
        state = rules.apply(state, seat, rng.choice(actions))


@pytest.mark.parametrize("name", GAMES)
def test_every_position_of_every_player_count_has_unique_codes_of_its_own(name):
    rules = RULES[name]
    kinds = set()
    for players in range(rules.min_players, rules.max_players + 1):
        for seed in range(2):
            for view, actions in positions(name, players, seed):
                own = rules.codes(view, actions)
                assert len(own) == len(actions)
                assert len({normal(c) for c in own}) == len(own), own   # unique without help
                codes = codes_of(rules, view, actions)
                assert codes == own
                for index in random.Random(len(actions)).sample(range(len(actions)),
                                                               min(5, len(actions))):
                    assert match(codes, "  " + codes[index].upper().replace(" ", "   ")) == index
                kinds.update(a["type"] for a in actions)
    assert len(kinds) >= 8          # the playouts met most kinds of action


def test_tigris_codes_name_squares_as_the_board_draws_them():
    rules = RULES["tigris"]
    state = rules.setup(2, 3)
    seat = rules.to_act(state)[0]
    actions = rules.legal_actions(state, seat)
    codes = rules.codes(rules.view(state, seat), actions)
    tile = next(i for i, a in enumerate(actions) if a["type"] == "place_tile")
    action = actions[tile]
    assert codes[tile] == f"{action['color']} {square_label(action['at'])}"
    assert "pass" in codes
    assert any(c.startswith("swap ") for c in codes)
    assert match(codes, "PASS") == codes.index("pass")


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
