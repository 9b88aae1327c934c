"""What one seat may see: the public board plus its own screen (everything once over)."""
from __future__ import annotations

from pbem.games.base import _

from . import words
from .board import BOARD_ROWS, COLORS, CORNER_TREASURES, DYNASTIES, LEADERS, label, to_rc
from .rules import face_down_squares, pending_seat


def view(rules, state: dict, seat: int | None) -> dict:
    over = state["over"]
    to_act = rules.to_act(state)
    seats = range(state["players"])
    show_scores = over or state["options"]["open_scoring"]
    out = {
        "seat": seat,
        "to_act": to_act,
        "prompt": prompt(state, seat) if seat in to_act else None,
        "over": over,
        "options": dict(state["options"]),
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
        "conflict": conflict(state),
        "players": [player(state, s, show_scores or s == seat) for s in seats],
    }
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


def player(state: dict, s: int, scores: bool) -> dict:
    out = {"seat": s, "dynasty": DYNASTIES[s],
           "hand_size": sum(state["hands"][s].values()),
           "catastrophes": state["catastrophes"][s],
           "leaders_in_supply": [LEADERS[c] for c in COLORS if state["leaders"][s][c] is None]}
    if scores:
        out["points"] = dict(state["points"][s])
        out["treasures_taken"] = state["treasures_taken"][s]
    return out


def conflict(state: dict) -> dict | None:
    """The conflict or decision in progress, all of it public."""
    pending = state["pending"]
    if pending is None:
        return None
    out = {"kind": pending["kind"], "seat": pending_seat(pending)}
    if pending["kind"] in ("revolt", "war"):
        out.update(color=pending["color"], leader=LEADERS[pending["color"]],
                   attacker=pending["attacker"], defender=pending["defender"],
                   squares=[to_rc(i) for i in pending["squares"]],
                   strength=list(pending["strength"]), committed=list(pending["committed"]))
    elif pending["kind"] == "war_order":
        out["wars"] = [LEADERS[c] for c in pending["colors"]]
    elif pending["kind"] == "treasure":
        out["treasures"] = [to_rc(t) for t in pending["treasures"]]
    return out


def prompt(state: dict, seat: int) -> str:
    pending = state["pending"]
    if pending is None:
        return _("Your turn: action {n} of {total}").format(
            n=state["turn"]["actions_done"] + 1, total=2)
    kind = pending["kind"]
    if kind in ("revolt", "war"):
        color = "red" if kind == "revolt" else pending["color"]
        what = _("Revolt") if kind == "revolt" else words.war_prompt(LEADERS[pending["color"]])
        if pending["committed"][0] is None:
            line = _("{conflict}: commit {colour} {kind} tiles as the attacker")
        else:
            line = _("{conflict}: commit {colour} {kind} tiles as the defender")
        return line.format(conflict=what, colour=words.colour(color), kind=words.kind(color))
    if kind == "war_order":
        return _("Choose which war is fought next")
    if kind == "monument":
        return _("Build a monument on the square you completed, or decline")
    return _("Your trader takes treasures: choose which")
