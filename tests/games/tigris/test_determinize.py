"""`determinize(view, seat, rng)`: a full state made from one seat's view alone, showing that
seat exactly that view, playable to the end, with the unseen tiles drawn at random."""
import json
import random

import pytest

from pbem.games.base import copy_json
from pbem.games.tigris import rules
from pbem.games.tigris.board import COLORS, TILE_COUNTS

from .helpers import check_invariants, play, position
from .test_rules import MONUMENT, REVOLT, commit, leader, tile

OPTIONS = [None, {"english_variant": True}, {"open_scoring": True}]


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def random_positions(players: int, seed: int, every: int = 4, version: int | None = None):
    """Every `every`-th position of a seeded game (tile placements weigh most, so that wars,
    monuments and treasure choices come up), and its end."""
    rng = random.Random(seed)
    state = rules.setup(players, seed, OPTIONS[seed % 3], version=version)
    moves = 0
    while not state["over"]:
        if moves % every == 0:
            yield state
        seat = rules.to_act(state)[0]
        actions = rules.legal_actions(state, seat)
        tiles = [a for a in actions if a["type"] == "place_tile"]
        state = rules.apply(state, seat, rng.choice(
            tiles if tiles and rng.random() < 0.7 else actions))
        moves += 1
    yield state


def hidden_part(state: dict, seat: int) -> tuple:
    others = [s for s in range(state["players"]) if s != seat]
    return ([state["hands"][s] for s in others], state["bag"], state["out"])


def scrambled(state: dict, seat: int, rng: random.Random) -> dict:
    """The same game with what `seat` cannot see changed: the other hands, the bag and the
    colours of the swapped tiles dealt again, the seed. (Points, treasures and the tiles laid
    face up out of the game are in the public record: they stay.)"""
    s = copy_json(state)                # a state is JSON data: a deep copy, several times sooner
    others = [t for t in range(s["players"]) if t != seat]
    face_up = {c: s["out"][c] - s["swapped"][c] for c in COLORS}
    pool = list(s["bag"]) + [c for t in others for c in COLORS for _ in range(s["hands"][t][c])]
    pool += [c for c in COLORS for _ in range(s["swapped"][c])]
    rng.shuffle(pool)
    for t in others:
        size = sum(s["hands"][t].values())
        s["hands"][t] = {c: pool[:size].count(c) for c in COLORS}
        del pool[:size]
    s["bag"], pool = pool[:len(s["bag"])], pool[len(s["bag"]):]
    s["swapped"] = {c: pool.count(c) for c in COLORS}
    s["out"] = {c: face_up[c] + s["swapped"][c] for c in COLORS}
    s["seed"] += 1
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_determinized_state_shows_the_seat_exactly_its_view(players):
    checked = 0
    for seed in range(3):
        for state in random_positions(players, seed, version=1 if seed == 1 else None):
            for seat in range(players):
                view = rules.view(state, seat)
                made = rules.determinize(view, seat, random.Random(seed + 10 * seat))
                assert canonical(rules.view(made, seat)) == canonical(view)
                assert rules.to_act(made) == rules.to_act(state)
                assert made.get("version") == state.get("version")
                check_invariants(made)
                if seat in rules.to_act(state):
                    assert rules.legal_actions(made, seat) == rules.legal_actions(state, seat)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_determinized_state_plays_to_the_end(players):
    rng = random.Random(players)
    for state in list(random_positions(players, 7, every=30))[:-1]:
        seat = rng.randrange(players)
        made = rules.determinize(rules.view(state, seat), seat, random.Random(1))
        moves = 0
        while not made["over"]:
            to_act = rules.to_act(made)[0]
            before = made
            made = rules.apply(made, to_act, rng.choice(rules.legal_actions(made, to_act)))
            check_invariants(made, before)
            moves += 1
            assert moves < 3000
        assert rules.result(made)["ranking"]


def test_two_seeds_draw_different_unseen_tiles():
    differ = same = 0
    for state in random_positions(3, 4, every=10):
        if state["over"]:
            continue
        view = rules.view(state, 0)
        one = rules.determinize(view, 0, random.Random(1))
        two = rules.determinize(view, 0, random.Random(2))
        if hidden_part(one, 0) != hidden_part(two, 0):
            differ += 1
        else:
            same += 1
    assert differ > 5 and differ > 5 * same


def test_the_real_state_s_secrets_do_not_change_the_drawing():
    rng = random.Random(3)
    checked = 0
    for players in (2, 3, 4):
        for state in random_positions(players, players + 20, every=9):
            if state["over"]:
                continue
            seat = rng.randrange(players)
            twin = scrambled(state, seat, rng)
            view = rules.view(state, seat)
            assert canonical(rules.view(twin, seat)) == canonical(view)
            assert hidden_part(twin, seat) != hidden_part(state, seat) or not state["bag"]
            made = rules.determinize(view, seat, random.Random(9))
            again = rules.determinize(rules.view(twin, seat), seat, random.Random(9))
            assert made == again
            checked += 1
    assert checked > 20


def test_the_unseen_tiles_are_those_not_on_the_board_nor_in_the_seat_s_hand():
    state = list(random_positions(2, 3, every=40))[1]
    seat = 1
    made = rules.determinize(rules.view(state, seat), seat, random.Random(4))
    unseen = {c: made["hands"][0][c] + made["bag"].count(c) + made["out"][c] for c in COLORS}
    on_board = {c: state["board"].count(c) for c in COLORS}
    assert {c: unseen[c] + on_board[c] + state["hands"][seat][c] for c in COLORS} == TILE_COUNTS
    assert sum(made["hands"][0].values()) == sum(state["hands"][0].values())
    assert len(made["bag"]) == len(state["bag"])
    assert sum(made["out"].values()) == sum(state["out"].values())


def test_a_defender_who_committed_is_refilled_at_the_end_of_the_turn():
    s = position(REVOLT, top=3, left=4, hands={0: "rrggkk", 1: "rrrggk"}, active=1)
    s = play(s, (1, leader("priest", 4, 6)), (1, commit(1)), (0, commit(1)))
    assert sum(s["hands"][0].values()) == 5 and s["turn"]["committers"] == [1, 0]
    made = rules.determinize(rules.view(s, 1), 1, random.Random(2))
    assert made["turn"]["committers"] == [0]
    made = rules.apply(made, 1, {"type": "pass"})
    assert sum(made["hands"][0].values()) == 6


def test_a_monument_waiting_offers_the_same_choice_and_remembers_the_declined_squares():
    s = position(MONUMENT, top=3, left=4, hands={0: "rrggkk"})
    s = play(s, (0, tile("red", 4, 5)))
    assert s["pending"]["kind"] == "monument"
    for seat in (0, 1):
        made = rules.determinize(rules.view(s, seat), seat, random.Random(seat))
        assert rules.legal_actions(made, 0) == rules.legal_actions(s, 0)
    declined = play(s, (0, {"type": "decline_monument"}))
    view = rules.view(declined, 1)
    assert view["declined"] and view["placed"] is None
    made = rules.determinize(view, 1, random.Random(3))
    assert made["declined"] == declined["declined"]
    built = play(s, (0, rules.legal_actions(s, 0)[0]))
    made = rules.determinize(rules.view(built, 1), 1, random.Random(3))
    assert made["board"] == built["board"] and made["monuments"] == built["monuments"]


def test_a_view_that_does_not_add_up_is_refused():
    view = rules.view(rules.setup(2, 1), 0)
    view["bag"] += 1
    with pytest.raises(ValueError):
        rules.determinize(view, 0, random.Random(1))
