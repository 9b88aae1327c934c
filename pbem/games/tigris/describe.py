"""One public line per action, in the rulebook's terms (nothing hidden: no swapped colours)."""
from __future__ import annotations

from pbem.games.base import IllegalAction

from .board import COLORS, LEADER_COLORS, LEADERS, block_squares, from_rc, label
from .rules import conflict_winner
from .view import KINDS


def describe(rules, state: dict, seat: int, action: dict) -> str:
    try:
        after = rules.apply(state, seat, action)
    except IllegalAction as error:
        return f"{{p{seat}}} tried an illegal action ({error})."
    parts = [what(state, seat, action)]
    parts += outcome(state, after, action)
    parts += points_scored(state, after)
    parts += treasures_taken(state, after, action)
    parts += leaders_home(state, after, seat, action)
    if not same_conflict(state["pending"], after["pending"]):
        parts += what_follows(after)
    if after["over"]:
        parts.append("the game is over")
    return "; ".join(p for p in parts if p) + "."


def what(state: dict, seat: int, action: dict) -> str:
    """The action itself."""
    who = f"{{p{seat}}}"
    kind = action["type"]
    at = from_rc(action.get("at")) if kind != "take_treasures" else None
    if kind == "place_leader":
        return f"{who} placed their {action['leader']} on {label(at)}"
    if kind == "move_leader":
        old = state["leaders"][seat][LEADER_COLORS[action["leader"]]]
        return f"{who} moved their {action['leader']} from {label(old)} to {label(at)}"
    if kind == "withdraw_leader":
        old = state["leaders"][seat][LEADER_COLORS[action["leader"]]]
        return f"{who} withdrew their {action['leader']} from {label(old)}"
    if kind == "place_tile":
        return f"{who} placed a {action['color']} tile ({KINDS[action['color']]}) on {label(at)}"
    if kind == "place_catastrophe":
        cell = state["board"][at]
        hit = f", destroying a {cell} tile" if cell in COLORS else ""
        return f"{who} placed a catastrophe on {label(at)}{hit}"
    if kind == "swap":
        n = len(action["tiles"])
        return f"{who} swapped {n} tile{'s' if n != 1 else ''}"
    if kind == "pass":
        return f"{who} passed"
    if kind == "commit":
        return committed(state, who, action["tiles"])
    if kind == "choose_war":
        return f"{who} chose the war of the {action['leader']}s to be fought next"
    if kind == "build_monument":
        first, *_, last = block_squares(at)
        return f"{who} built the {action['monument']} monument on {label(first)}-{label(last)}"
    if kind == "decline_monument":
        return f"{who} declined to build a monument"
    if kind == "take_treasures":
        squares = ", ".join(label(from_rc(rc)) for rc in action["at"])
        return f"{who}'s trader took {len(action['at'])} treasure(s) from {squares}"
    return f"{who} acted"


def committed(state: dict, who: str, count: int) -> str:
    pending = state["pending"]
    role = "attacker" if pending["committed"][0] is None else "defender"
    color = "red" if pending["kind"] == "revolt" else pending["color"]
    conflict = ("the revolt" if pending["kind"] == "revolt"
                else f"the war of the {LEADERS[pending['color']]}s")
    tiles = f"{count} {color} tile{'s' if count != 1 else ''}"
    return f"{who} committed {tiles} as the {role} in {conflict}"


def outcome(state: dict, after: dict, action: dict) -> list[str]:
    """Who won a conflict that this action decided."""
    pending = state["pending"]
    if action["type"] != "commit" or pending["committed"][0] is None:
        return []
    done = dict(pending, committed=[pending["committed"][0], action["tiles"]])
    winner, _ = conflict_winner(done)
    attack = done["strength"][0] + done["committed"][0]
    defence = done["strength"][1] + done["committed"][1]
    name = "revolt" if pending["kind"] == "revolt" else f"war of the {LEADERS[pending['color']]}s"
    removed = sum(after["out"].values()) - sum(state["out"].values()) - action["tiles"]
    extra = f", removing {removed} tile{'s' if removed != 1 else ''}" if removed else ""
    high, low = max(attack, defence), min(attack, defence)        # the winner's total first
    return [f"{{p{winner}}} won the {name} {high}:{low}{extra}"]


def points_scored(state: dict, after: dict) -> list[str]:
    parts = []
    for s in range(state["players"]):
        for color in COLORS:
            gain = after["points"][s][color] - state["points"][s][color]
            if gain:
                parts.append(f"{{p{s}}} scored {gain} {color} point{'s' if gain != 1 else ''}")
    return parts


def treasures_taken(state: dict, after: dict, action: dict) -> list[str]:
    if action["type"] == "take_treasures":
        return []
    return [f"{{p{s}}}'s trader took {n} treasure{'s' if n != 1 else ''}"
            for s in range(state["players"])
            if (n := after["treasures_taken"][s] - state["treasures_taken"][s])]


def leaders_home(state: dict, after: dict, seat: int, action: dict) -> list[str]:
    """Leaders that went back to their owner (beaten, or left without a temple)."""
    moved = LEADER_COLORS.get(action.get("leader")) if action["type"] in (
        "move_leader", "withdraw_leader") else None
    parts = []
    for s in range(state["players"]):
        for color in COLORS:
            if (state["leaders"][s][color] is not None and after["leaders"][s][color] is None
                    and not (s == seat and color == moved)):
                parts.append(f"{{p{s}}}'s {LEADERS[color]} went home")
    return parts


def same_conflict(before: dict | None, after: dict | None) -> bool:
    """True while the attacker's commitment leaves the same conflict waiting."""
    keys = ("kind", "color", "attacker", "defender", "squares")
    return (before is not None and after is not None
            and all(before.get(k) == after.get(k) for k in keys))


def what_follows(after: dict) -> list[str]:
    pending = after["pending"]
    if pending is None:
        return []
    kind = pending["kind"]
    if kind == "revolt":
        name = LEADERS[pending["color"]]
        return [f"a revolt follows: {{p{pending['attacker']}}}'s {name} against "
                f"{{p{pending['defender']}}}'s ({pending['strength'][0]}:{pending['strength'][1]})"]
    if kind == "war":
        return [f"war of the {LEADERS[pending['color']]}s: {{p{pending['attacker']}}} attacks "
                f"{{p{pending['defender']}}} ({pending['strength'][0]}:{pending['strength'][1]})"]
    if kind == "war_order":
        return ["wars follow: " + ", ".join(LEADERS[c] + "s" for c in pending["colors"])]
    if kind == "monument":
        return [f"{{p{pending['seat']}}} may build a monument"]
    return [f"{{p{pending['seat']}}}'s trader must choose which treasures to take"]
