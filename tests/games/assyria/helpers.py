"""Small helpers for Assyria tests: positions drawn as text, cards by name, random playouts."""
from __future__ import annotations

import random

from pbem.games.assyria import rules
from pbem.games.assyria import engine as R

RED, GREEN, YELLOW, BLUE = 0, 1, 2, 3
LETTERS = {"r": RED, "g": GREEN, "y": YELLOW, "b": BLUE}


def draw(state: dict, drawing: str) -> None:
    """Put pieces on the board: `q,r:x` is a hut of colour x (r g y b), `q,r:X2` a ziggurat of
    colour X with 2 levels; `#` starts a comment."""
    for line in drawing.splitlines():
        for token in line.split("#")[0].split():
            at, piece = token.split(":")
            assert at in R.b(state).hexes, f"{at} is not on the board"
            seat = LETTERS[piece[0].lower()]
            if piece[0].isupper():
                state["ziggurats"][at] = [seat, int(piece[1:] or 1)]
            else:
                state["huts"][at] = seat


def cards(*kinds: str, used: tuple = ()) -> list[int]:
    """Distinct card ids of the given kinds ("grape-2", "joker"), avoiding `used`."""
    taken, out = set(used), []
    for k in kinds:
        card = next(c for c in range(len(R.CARDS)) if R.kind(c) == k and c not in taken)
        taken.add(card)
        out.append(card)
    return out


def position(players: int = 4, drawing: str = "", phase: str = "actions", active: int = 0,
             **fields) -> dict:
    """A mid-game state: an empty board with `drawing` on it, `active` to act in `phase`."""
    state = rules.setup(players, 1)
    state["ziggurats"], state["huts"] = {}, {}
    state["plows"] = [False] * players
    draw(state, drawing)
    order = fields.pop("order", list(range(players)))
    state.update(order=order, phase=phase, active=active,
                 queue=order[order.index(active) + 1:])
    for name, value in fields.items():
        assert name in state, name
        state[name] = value
    return state


def act(state: dict, seat: int, **action) -> dict:
    """Apply one action, checking first that it is in the legal list."""
    assert action in rules.legal_actions(state, seat), (action, rules.legal_actions(state, seat))
    return rules.apply(state, seat, action)


def all_card_ids(state: dict) -> list[int]:
    ids = list(state["food_deck"]) + state["discards"] + state["draft"]
    ids += [c for hand in state["hands"] for c in hand]
    ids += [c for column in state["columns"] for c in column]
    return sorted(ids)


def check_invariants(state: dict) -> None:
    """Pieces conserved, tracks in range, only the active seat may act."""
    n = state["players"]
    assert all_card_ids(state) == list(range(len(R.CARDS)))
    expansion = sorted(state["expansion_deck"] + state["expansion"] + state["expansion_discards"])
    assert expansion == sorted(R.EXPANSION_DECK + (R.EXPANSION_FIRST,))
    assert sum(state["plows"]) + state["plow_pile"] == n
    assert 0 <= len(state["wells"]) <= R.WELLS[n] and len(set(state["wells"])) == len(state["wells"])
    occupied = list(state["huts"]) + list(state["ziggurats"])
    assert len(occupied) == len(set(occupied))
    assert all(h in R.b(state).hexes for h in occupied)
    for seat in range(n):
        assert 0 <= R.huts_in_stock(state, seat) <= R.HUTS
        assert all(0 <= R.pieces_in_stock(state, seat, lv) <= R.ZIGGURAT_PIECES for lv in (1, 2, 3))
        assert 0 <= state["camels"][seat] <= R.MAX_CAMELS
        assert 0 <= state["offering"][seat] < len(R.OFFERING_TRACK)
        assert state["score"][seat] >= 0
    for seat in range(n):
        if seat not in rules.to_act(state):
            assert rules.legal_actions(state, seat) == []


def playout(players: int, seed: int, check=None) -> tuple[dict, list]:
    """A random game to the end; returns the final state and the [seat, action] log."""
    state = rules.setup(players, seed)
    rng = random.Random(seed * 31 + players)
    log = []
    while rules.to_act(state):
        seat = rules.to_act(state)[0]
        actions = rules.legal_actions(state, seat)
        assert actions, f"seat {seat} must act but has no legal action in {state['phase']}"
        action = rng.choice(actions)
        assert isinstance(rules.describe(state, seat, action), str)
        before = state
        state = rules.apply(state, seat, action)
        if check:
            check(before, seat, action, state)
        log.append([seat, action])
    return state, log
