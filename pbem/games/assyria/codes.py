"""Reply codes for Assyria, in the map's words: hexes as the board and the log name them
("hut 1,0"), cards by food and symbols ("date 2"), farming columns numbered from 1.

  start     start 1,0          draft       draft date 1      column     column 2
  hut       hut 3,3            feed        feed 4,4 salt 1   extend     extend 4,3
  build     build 2,4          well        well 7            dignitary  dignitary middle
  offering  offer 1            buy_food    buy date 2        buy_plow   buy plow
  end_actions  end             end_wells   no wells
"""
from __future__ import annotations

from .engine import PLAYED


def hex_name(at) -> str:
    return f"{at[0]},{at[1]}"


def card(name: str) -> str:
    if name == PLAYED:
        return "leftover"
    return name.replace("-", " ")


def code(action: dict) -> str:
    kind = action.get("type")
    if kind in ("start", "hut", "extend", "build"):
        return f"{kind} {hex_name(action['hex'])}"
    if kind == "feed":
        return f"feed {hex_name(action['hex'])} {card(action['card'])}"
    if kind in ("draft", "buy_food"):
        return f"{'draft' if kind == 'draft' else 'buy'} {card(action['card'])}"
    if kind == "column":
        return f"column {action['column'] + 1}"
    if kind == "well":
        return f"well {action['site']}"
    if kind == "dignitary":
        return f"dignitary {action['dignitary']}"
    if kind == "offering":
        return f"offer {action['camels']}"
    if kind == "buy_plow":
        return "buy plow"
    if kind == "end_actions":
        return "end"
    if kind == "end_wells":
        return "no wells"
    return kind.replace("_", " ")


def codes(view: dict, actions: list[dict]) -> list[str]:
    return [code(a) for a in actions]
