"""A full state made from one seat's view: what the seat sees, and a random draw of the rest.

Inferred from the view (public, or the seat's own):
- the board: tiles, catastrophes, leaders, treasures, monuments, the colour of the tiles under
  each monument, the declined squares, the unification tile, the tile placed in the action under
  way; whose turn it is, how many actions are done, the decision or conflict waiting (all of it
  is in the view) and so the steps left of the action;
- the seat's own hand and standing answers; each player's catastrophes, hand size, points by
  colour and treasures (announced in the log as they are scored, so in every view);
- who committed tiles this turn: a player not on turn whose hand holds fewer than 6 tiles
  (only committing empties a hand between one's own turns); committed tiles are refilled;
- the tiles out of the game by colour that were laid face up (committed in conflicts, removed
  in wars, destroyed by catastrophes: version 3 views count them apart from the swapped ones;
  in older views only the attacker's tiles of the conflict under way are known);
- the tiles not seen: each colour's total, less the board (face-down tiles too), the seat's
  hand and the tiles out of the game laid face up.
Drawn at random (from `rng`) among the tiles not seen: the other hands (their sizes kept), the
order and content of the bag (its size kept), and the colours of the swapped tiles (their
number kept: they leave face down). Views that hide the others' treasures (none now) would have
them dealt among those players at random.
Not known and not drawn: the others' standing answers are "ask me", and the seed is drawn (it
is spent at setup).
"""
from __future__ import annotations

import random

from pbem.games.base import _

from .board import (CATASTROPHE, COLORS, EMPTY, HAND_SIZE, SQUARES, TILE_COUNTS,
                    TREASURES_TOTAL, block_squares, from_rc)
from .decisions import DECISIONS
END_REASONS = ("the bag could not refill a hand during a swap",
               "the bag could not refill every hand to 6",
               "only 2 or fewer treasures remain on the board")


def square(rc) -> int | None:
    return None if rc is None else from_rc(rc)


def determinize(view: dict, seat: int, rng: random.Random, standing: dict) -> dict:
    """A state whose view for `seat` is `view`; `standing`: the default standing answers."""
    players = len(view["players"])
    board = board_of(view)
    hands = [dict(view["hands"][s]) for s in range(players)] if view["over"] else [
        dict(view["hand"]) if s == seat else None for s in range(players)]
    conflict = view["conflict"]
    decision = DECISIONS[conflict and conflict["kind"]]
    pending = conflict and decision.from_public(conflict)
    if "out_by_colour" in view:         # version 3: every tile laid face up out of the game
        known_out = dict(view["out_by_colour"])
    else:
        known_out = {color: 0 for color in COLORS}
        if decision.conflict and pending["committed"][0]:    # the attacker's tiles, face up
            known_out[decision.tile_colour(pending)] += pending["committed"][0]
    bag, out = deal_unseen(view, seat, rng, board, hands, known_out)
    state = {
        "players": players,
        "seed": view["seed"] if view["over"] else rng.getrandbits(32),
        "options": dict(view["options"]),
        "board": board,
        "treasures": [from_rc(t["at"]) for t in view["treasures"]],
        "monuments": {name: square(rc) for name, rc in view["monuments"].items()},
        "declined": sorted(from_rc(rc) for rc in view["declined"]),
        "unification": square(view["unification"]),
        "leaders": leaders_of(view, players),
        "catastrophes": [p["catastrophes"] for p in view["players"]],
        "hands": hands,
        "bag": bag,
        "out": out,
        "points": points_of(view, seat),
        "treasures_taken": treasures_of(view, seat, rng),
        "turn": {"active": view["active"], "actions_done": view["actions_done"],
                 "placed": square(view["placed"]), "committers": committers(view)},
        "steps": [] if view["over"] else list(decision.steps_left),
        "pending": pending,
        "over": view["over"],
        "end_reason": end_reason(view),
    }
    if view["version"] >= 2:            # the players' standing answers came with version 2
        state["version"] = view["version"]
        state["standing"] = [dict(view["standing"]) if s == seat else dict(standing)
                             for s in range(players)]
    if "out_by_colour" in view:         # version 3: the swapped tiles, apart
        state["swapped"] = {color: out[color] - known_out[color] for color in COLORS}
    return state


def board_of(view: dict) -> list[str]:
    board = [EMPTY] * SQUARES
    for tile in view["tiles"]:
        board[from_rc(tile["at"])] = tile["color"]
    for name, colour in view["monument_tiles"].items():
        for i in block_squares(from_rc(view["monuments"][name])):
            board[i] = colour
    for rc in view["catastrophes"]:
        board[from_rc(rc)] = CATASTROPHE
    if any(cell is None for cell in board):
        raise ValueError("a face-down tile without a monument over it")
    return board


def leaders_of(view: dict, players: int) -> list[dict]:
    leaders = [{color: None for color in COLORS} for _ in range(players)]
    for leader in view["leaders"]:
        leaders[leader["seat"]][leader["color"]] = from_rc(leader["at"])
    return leaders


def deal_unseen(view: dict, seat: int, rng: random.Random, board: list[str],
                hands: list[dict | None], known_out: dict) -> tuple[list[str], dict]:
    """Fill the hands not seen and return (bag, tiles out of the game by colour): the tiles
    not seen, shuffled, dealt to the other hands, then the bag, then out of the game."""
    unseen = dict(TILE_COUNTS)
    for cell in board:
        if cell in unseen:
            unseen[cell] -= 1
    for hand in hands:
        for color in COLORS:
            unseen[color] -= hand[color] if hand is not None else 0
    bag = list(view["bag_tiles"]) if view["over"] else None
    for color in COLORS:
        unseen[color] -= known_out[color] + (bag.count(color) if bag is not None else 0)
    pool = [color for color in COLORS for _ in range(unseen[color])]
    if min(unseen.values()) < 0:
        raise ValueError("the view shows more tiles of a colour than the game has")
    rng.shuffle(pool)
    for s, hand in enumerate(hands):
        if hand is None:
            size = view["players"][s]["hand_size"]
            hands[s] = {color: pool[:size].count(color) for color in COLORS}
            del pool[:size]
    if bag is None:
        bag, pool = pool[:view["bag"]], pool[view["bag"]:]
    if len(bag) != view["bag"] or len(pool) + sum(known_out.values()) != view["out_of_game"]:
        raise ValueError("the view's tile counts do not add up")
    return bag, {color: known_out[color] + pool.count(color) for color in COLORS}


def points_of(view: dict, seat: int) -> list[dict]:
    """Every player's points as the view shows them (views before they counted them from the
    log: the others' taken to be the seat's own)."""
    return [dict(p["points"]) if "points" in p else dict(view["points"])
            for p in view["players"]]


def treasures_of(view: dict, seat: int, rng: random.Random) -> list[int]:
    """Treasures taken: those shown; the rest of the ones off the board dealt at random among
    the players whose count is hidden."""
    taken = [p.get("treasures_taken") for p in view["players"]]
    taken[seat] = view["treasures_taken"]
    hidden = [s for s, n in enumerate(taken) if n is None]
    left = TREASURES_TOTAL - len(view["treasures"]) - sum(n for n in taken if n is not None)
    for s in hidden:
        taken[s] = 0
    for _treasure in range(left if hidden else 0):
        taken[rng.choice(hidden)] += 1
    return taken


def committers(view: dict) -> list[int]:
    """Players who committed tiles this turn: those not on turn with fewer than 6 tiles,
    clockwise from the active player."""
    players, active = len(view["players"]), view["active"]
    order = [(active + k) % players for k in range(1, players)]
    return [s for s in order if view["players"][s]["hand_size"] < HAND_SIZE]


def end_reason(view: dict) -> str | None:
    """The end's reason as the rules keep it (the view shows it in the reader's language)."""
    shown = view.get("end_reason")
    if shown is None:
        return None
    return next((reason for reason in END_REASONS if _(reason) == shown), shown)
