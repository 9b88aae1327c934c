"""What one seat may see: the public board plus its own screen (everything once over)."""
from __future__ import annotations

from pbem.games.base import _

from .board import BOARD_ROWS, COLORS, CORNER_TREASURES, DYNASTIES, LEADERS, label, to_rc
from .decisions import decision_of, public
from .rules import face_down_squares


def view(rules, state: dict, seat: int | None) -> dict:
    over = state["over"]
    to_act = rules.to_act(state)
    seats = range(state["players"])
    out = {
        "seat": seat,
        "to_act": to_act,
        "prompt": decision_of(state).prompt(state) if seat in to_act else None,
        "over": over,
        "options": dict(state["options"]),
        "version": state.get("version", 1),     # the rules version: the words of its actions
        "active": state["turn"]["active"],
        "actions_done": state["turn"]["actions_done"],
        "terrain": list(BOARD_ROWS),
        "tiles": board_tiles(state),
        "leaders": [{"seat": s, "dynasty": DYNASTIES[s], "leader": LEADERS[c], "color": c,
                     "at": to_rc(i), "square": label(i)}
                    for s in seats for c in COLORS      # not the dict's order: see Assyria's view
                    if (i := state["leaders"][s].get(c)) is not None],
        "catastrophes": [to_rc(i) for i, cell in enumerate(state["board"])
                         if cell == "catastrophe"],
        "treasures": [{"at": to_rc(t), "square": label(t), "corner": t in CORNER_TREASURES}
                      for t in state["treasures"]],
        "monuments": {name: (to_rc(at) if at is not None else None)
                      for name, at in state["monuments"].items()},
        "unification": to_rc(state["unification"]) if state["unification"] is not None else None,
        # public facts a careful player keeps in mind (and `determinize` needs): the squares
        # whose monument was declined, the tile placed in the action under way, and the
        # colour of the four tiles that turned face down under each monument
        "declined": [to_rc(i) for i in state["declined"]],
        "placed": to_rc(state["turn"]["placed"]) if state["turn"]["placed"] is not None else None,
        "monument_tiles": {name: state["board"][at] for name, at in state["monuments"].items()
                           if at is not None},
        "bag": len(state["bag"]),
        "out_of_game": sum(state["out"].values()),  # colours hidden: swapped tiles are secret
        "conflict": public(state),      # the decision waiting, all of it public
        # every player's points and treasures as the log announced them (a careful player
        # writes them down, behind the screens or not: our ruling of 2026-12-03)
        "players": [player(state, s) for s in seats],
    }
    if "swapped" in state:              # version 3: the tiles out of the game laid face up
        out["out_by_colour"] = {c: state["out"][c] - state["swapped"][c] for c in COLORS}
        out["swapped"] = sum(state["swapped"].values())
    if seat is not None:
        out["hand"] = dict(state["hands"][seat])
        if "standing" in state:          # the seat's own standing answers (version 2 games)
            out["standing"] = dict(state["standing"][seat])
        out["points"] = dict(state["points"][seat])
        out["treasures_taken"] = state["treasures_taken"][seat]
    if over:
        out["result"] = rules.result(state)
        out["hands"] = [dict(h) for h in state["hands"]]
        out["bag_tiles"] = list(state["bag"])
        out["seed"] = state["seed"]
        out["end_reason"] = _(state["end_reason"]) if state["end_reason"] else None
    return out


def board_tiles(state: dict) -> list[dict]:
    down = face_down_squares(state)
    return [{"at": to_rc(i), "square": label(i), "color": None if i in down else cell,
             "face_down": i in down}
            for i, cell in enumerate(state["board"]) if cell in COLORS]


def player(state: dict, s: int) -> dict:
    return {"seat": s, "dynasty": DYNASTIES[s],
            "hand_size": sum(state["hands"][s].values()),
            "catastrophes": state["catastrophes"][s],
            "leaders_in_supply": [LEADERS[c] for c in COLORS if state["leaders"][s][c] is None],
            "points": dict(state["points"][s]),
            "treasures_taken": state["treasures_taken"][s]}
