"""Reply codes for the card game, in the table's words: columns numbered 1.. from the left as
the table draws them, a card in a column by its row ("3.1": column 3, card 1; "3.0" the
treasure*), a connecting card by the two columns it joins ("gap 2-3").

  card (column)   red 3             card (gap)     red gap 2-3
  leader          leader red 3.1    catastrophe    catastrophe gap 2-3
  score           score red         no_score       no score
  commit          commit 2          conflict       conflict red
  exchange        exchange 3        no_exchange    no exchange
  ship            ship blue black   no_ship        no ship
  standing        score always      pass           pass
"""
from __future__ import annotations


def place(action: dict) -> str:
    if "gap" in action:
        return f"gap {action['gap'] + 1}-{action['gap'] + 2}"
    if "row" in action:
        return f"{action['column'] + 1}.{action['row']}"
    return str(action["column"] + 1)


def code(action: dict) -> str:
    kind = action.get("type")
    if kind == "card":
        return f"{action['colour']} {place(action)}"
    if kind == "leader":
        return f"leader {action['colour']} {place(action)}"
    if kind == "catastrophe":
        return f"catastrophe {place(action)}"
    if kind in ("score", "conflict"):
        return f"{kind} {action['colour']}"
    if kind == "commit":
        return f"commit {action['count']}"
    if kind == "exchange":
        return f"exchange {action['column'] + 1}"
    if kind == "ship":
        return "ship " + action["ship"].replace("-", " ")
    if kind == "standing":
        return f"{action['decision']} {action['answer']}"
    return kind.replace("_", " ")


def codes(view: dict, actions: list[dict]) -> list[str]:
    return [code(a) for a in actions]
