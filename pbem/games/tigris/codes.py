"""Reply codes for Tigris & Euphrates, in the board's own words: squares as the board draws
them (column letter, row number: "F7"), tiles by colour, leaders by name.

  place_tile          red F7              place_leader, move_leader   king F7
  withdraw_leader     withdraw king       place_catastrophe           catastrophe F7
  swap                swap 2 red 1 blue   pass                        pass
  commit              commit 2            choose_war                  war king
  build_monument      monument red black F7                           decline_monument: no monument
  take_treasures      treasure F7 G8      standing                    support never
"""
from __future__ import annotations

from .board import COLS, label
from .vocabulary import as_now

COLORS = ("red", "blue", "green", "black")


def square(at) -> str:
    """[row, col] as the board draws it: "F7"."""
    return label(at[0] * COLS + at[1])


def code(action: dict) -> str:
    action = as_now(action)             # a game of rules version 1 or 2 says "color", "tiles"
    kind = action.get("type")
    if kind == "place_tile":
        return f"{action['colour']} {square(action['at'])}"
    if kind in ("place_leader", "move_leader"):
        return f"{action['leader']} {square(action['at'])}"
    if kind == "withdraw_leader":
        return f"withdraw {action['leader']}"
    if kind == "place_catastrophe":
        return f"catastrophe {square(action['at'])}"
    if kind == "swap":
        tiles = action["tiles"]
        return "swap " + " ".join(f"{tiles.count(c)} {c}" for c in COLORS if c in tiles)
    if kind == "commit":
        return f"commit {action['count']}"
    if kind == "choose_war":
        return f"war {action['leader']}"
    if kind == "build_monument":
        first, second = action["monument"].split("/")
        return f"monument {first} {second} {square(action['at'])}"
    if kind == "decline_monument":
        return "no monument"
    if kind == "take_treasures":
        return "treasure " + " ".join(square(at) for at in action["at"])
    if kind == "standing":
        return f"{action['decision']} {action['answer']}"
    return kind.replace("_", " ")


def codes(view: dict, actions: list[dict]) -> list[str]:
    return [code(a) for a in actions]
