"""Build Tigris & Euphrates positions from small text drawings, and check invariants.

A drawing is rows of whitespace-separated tokens, laid on the board from (top, left):
  .  or ~     an empty square (the terrain comes from the real board)
  r b g k     a red/blue/green/black tile;  r*  a temple carrying a treasure
  X           a catastrophe
  K0 P1 F2 T3 a leader: King, Priest, Farmer, Trader, then the owner's seat
The rest of the board is empty, except (unless far_treasures=False) three start temples
with treasures far from the middle (K1, F10, K11) so that the game does not end.
Hands are strings of tile letters.
"""
from __future__ import annotations

import random

from pbem.games.tigris import rules
from pbem.games.tigris.board import (COLORS, COLS, HAND_SIZE, NEIGHBOURS, SQUARES,
                                     TEMPLE, TILE_COUNTS, TREASURES_TOTAL)
from pbem.games.tigris.rules import Regions, draw, face_down_squares, new_turn

LETTER = {"r": "red", "b": "blue", "g": "green", "k": "black"}
FAR_TREASURES = (10, 149, 170)     # K1, F10, K11: start temples far from the middle
LEADER_LETTER = {"K": "black", "P": "red", "F": "blue", "T": "green"}


def sq(r: int, c: int) -> int:
    return r * COLS + c


def counts(letters: str) -> dict:
    return {color: sum(1 for ch in letters if LETTER.get(ch) == color) for color in COLORS}


def position(drawing: str, players: int = 2, hands: dict | None = None, active: int = 0,
             top: int = 0, left: int = 0, monuments: dict | None = None,
             options: dict | None = None, bag: str = "", treasures_taken=None,
             far_treasures: bool = True) -> dict:
    """A state with the drawn board; unlisted hands hold 6 tiles from the bag."""
    state = rules.setup(players, 0, options)
    state["board"] = [""] * SQUARES
    state["treasures"] = []
    state["leaders"] = [{c: None for c in COLORS} for _ in range(players)]
    for r, line in enumerate(l for l in drawing.strip("\n").splitlines() if l.strip()):
        for c, token in enumerate(line.split()):
            place_token(state, sq(top + r, left + c), token)
    for i in FAR_TREASURES if far_treasures else ():
        if state["board"][i] == "":
            place_token(state, i, "r*")
    state["treasures"].sort()
    state["monuments"].update({name: sq(*rc) for name, rc in (monuments or {}).items()})
    hands = hands or {}
    state["hands"] = [counts(hands.get(s, "")) for s in range(players)]
    state["out"] = {c: 0 for c in COLORS}
    state["treasures_taken"] = list(treasures_taken or [0] * players)
    state["treasures_taken"][0] += TREASURES_TOTAL - len(state["treasures"]) - sum(
        state["treasures_taken"])
    state["bag"] = fill_bag(state)
    for s in range(players):
        if s not in hands:
            draw(state, s, HAND_SIZE)
    for ch in bag:                            # the given tiles go on top of the bag
        state["bag"].remove(LETTER[ch])
    state["bag"] = [LETTER[ch] for ch in bag] + state["bag"]
    state["turn"] = new_turn(active)
    return state


def place_token(state: dict, i: int, token: str) -> None:
    if token in (".", "~"):
        return
    if token == "X":
        state["board"][i] = "catastrophe"
    elif token[0] in LETTER:
        state["board"][i] = LETTER[token[0]]
        if token.endswith("*"):
            state["treasures"].append(i)
    elif token[0] in LEADER_LETTER:
        state["leaders"][int(token[1:])][LEADER_LETTER[token[0]]] = i
    else:
        raise ValueError(f"unknown token {token!r}")


def fill_bag(state: dict) -> list[str]:
    """The tiles not on the board or in a hand, shuffled."""
    left = dict(TILE_COUNTS)
    for cell in state["board"]:
        if cell in COLORS:
            left[cell] -= 1
    for hand in state["hands"]:
        for c in COLORS:
            left[c] -= hand[c]
    rest = [c for c in COLORS for _ in range(left[c])]
    random.Random(1).shuffle(rest)
    assert all(n >= 0 for n in left.values())
    return rest


def play(state: dict, *steps) -> dict:
    """Apply (seat, action) pairs in turn, checking each is offered by legal_actions."""
    for seat, action in steps:
        assert action in rules.legal_actions(state, seat), (seat, action)
        state = rules.apply(state, seat, action)
        check_invariants(state)
    return state


# --- Invariants ------------------------------------------------------------------

def tile_places(state: dict) -> dict:
    """Tiles of each colour: board + hands + bag + out of the game."""
    total = {c: state["out"][c] + state["bag"].count(c) for c in COLORS}
    for cell in state["board"]:
        if cell in COLORS:
            total[cell] += 1
    for hand in state["hands"]:
        for c in COLORS:
            total[c] += hand[c]
    return total


def check_invariants(state: dict, before: dict | None = None) -> None:
    assert tile_places(state) == TILE_COUNTS
    assert all(n >= 0 for hand in state["hands"] for n in hand.values())
    assert all(sum(hand.values()) <= HAND_SIZE for hand in state["hands"])
    assert len(state["treasures"]) + sum(state["treasures_taken"]) == TREASURES_TOTAL
    for t in state["treasures"]:
        assert state["board"][t] == TEMPLE
    placed = [i for seat in state["leaders"] for i in seat.values() if i is not None]
    assert len(placed) == len(set(placed)), "two leaders on one square"
    for i in placed:
        assert state["board"][i] == "", "a leader on a tile or catastrophe"
    down = face_down_squares(state)
    for i in placed:  # no leader without a face-up temple next to it
        assert any(state["board"][n] == TEMPLE and n not in down for n in NEIGHBOURS[i])
    if state["pending"] is None and not state["steps"]:
        regions = Regions(state)
        for members in regions.leaders.values():
            colors = [c for _, c, _ in members]
            assert len(colors) == len(set(colors)), "two leaders of one colour in a kingdom"
        if state["unification"] is not None:
            raise AssertionError("the unification tile stayed on the board")
    if before is not None:
        for s in range(state["players"]):
            for c in COLORS:
                assert state["points"][s][c] >= before["points"][s][c], "points went down"
            assert state["treasures_taken"][s] >= before["treasures_taken"][s]
    if state["over"]:
        assert rules.to_act(state) == []
    for s in range(state["players"]):
        acts = rules.legal_actions(state, s)
        if s in rules.to_act(state):
            assert acts, "a seat to act has no legal action"
        else:
            assert acts == []
