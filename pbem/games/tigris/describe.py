"""One public line per action, in the rulebook's terms (nothing hidden: no swapped colours)."""
from __future__ import annotations

from pbem.games.base import IllegalAction, _, ngettext

from . import words
from .board import COLORS, LEADER_COLORS, LEADERS, block_squares, from_rc, label
from .decisions import DECISIONS
from .rules import conflict_winner


def describe(rules, state: dict, seat: int, action: dict) -> str:
    try:
        after = rules.apply(state, seat, action)
    except IllegalAction as error:
        return _("{p} tried an illegal action ({error}).").format(p=f"{{p{seat}}}", error=error)
    parts = [what(state, seat, action)]
    parts += outcome(state, after, action)
    parts += points_scored(state, after)
    parts += treasures_taken(state, after, action)
    parts += leaders_home(state, after, seat, action)
    if not same_conflict(state["pending"], after["pending"]):
        parts += what_follows(after)
    if after["over"]:
        parts.append(_("the game is over"))
    return "; ".join(p for p in parts if p) + "."


def what(state: dict, seat: int, action: dict) -> str:
    """The action itself."""
    who = f"{{p{seat}}}"
    kind = action["type"]
    at = from_rc(action.get("at")) if kind != "take_treasures" else None
    if kind == "place_leader":
        return _("{p} placed {leader} on {square}").format(
            p=who, leader=words.their_leader(action["leader"]), square=label(at))
    if kind == "move_leader":
        old = state["leaders"][seat][LEADER_COLORS[action["leader"]]]
        return _("{p} moved {leader} from {old} to {new}").format(
            p=who, leader=words.their_leader(action["leader"]), old=label(old), new=label(at))
    if kind == "withdraw_leader":
        old = state["leaders"][seat][LEADER_COLORS[action["leader"]]]
        return _("{p} withdrew {leader} from {old}").format(
            p=who, leader=words.their_leader(action["leader"]), old=label(old))
    if kind == "place_tile":
        return _("{p} placed a {colour} tile ({kind}) on {square}").format(
            p=who, colour=words.colour(action["colour"]), kind=words.kind(action["colour"]),
            square=label(at))
    if kind == "place_catastrophe":
        cell = state["board"][at]
        if cell in COLORS:
            return _("{p} placed a catastrophe on {square}, destroying a {colour} tile").format(
                p=who, square=label(at), colour=words.colour(cell))
        return _("{p} placed a catastrophe on {square}").format(p=who, square=label(at))
    if kind == "swap":
        n = len(action["tiles"])
        return ngettext("{p} swapped {n} tile", "{p} swapped {n} tiles", n).format(p=who, n=n)
    if kind == "pass":
        return _("{p} passed").format(p=who)
    if kind == "commit":
        return committed(state, who, action["count"])
    if kind == "choose_war":
        return _("{p} chose {war} to be fought next").format(
            p=who, war=words.the_war(action["leader"]))
    if kind == "build_monument":
        first, *_rest, last = block_squares(at)
        return _("{p} built the {monument} monument on {first}-{last}").format(
            p=who, monument=words.monument(action["monument"]), first=label(first),
            last=label(last))
    if kind == "decline_monument":
        return _("{p} declined to build a monument").format(p=who)
    if kind == "standing":
        return _("{p} left a standing answer for support in conflicts").format(p=who)
    if kind == "take_treasures":
        squares = ", ".join(label(from_rc(rc)) for rc in action["at"])
        return ngettext("{p}'s trader took {n} treasure from {squares}",
                        "{p}'s trader took {n} treasures from {squares}", len(action["at"])).format(
            p=who, n=len(action["at"]), squares=squares)
    return _("{p} acted").format(p=who)


def committed(state: dict, who: str, count: int) -> str:
    pending = state["pending"]
    entry = DECISIONS[pending["kind"]]
    color, conflict = entry.tile_colour(pending), entry.in_name(pending)
    if pending["committed"][0] is None:
        line = ngettext("{p} committed {n} {colour} tile as the attacker {conflict}",
                        "{p} committed {n} {colour} tiles as the attacker {conflict}", count)
    else:
        line = ngettext("{p} committed {n} {colour} tile as the defender {conflict}",
                        "{p} committed {n} {colour} tiles as the defender {conflict}", count)
    return line.format(p=who, n=count, colour=words.colour(color), conflict=conflict)


def outcome(state: dict, after: dict, action: dict) -> list[str]:
    """Who won a conflict that this action decided."""
    pending = state["pending"]
    if action["type"] != "commit" or pending["committed"][0] is None:
        return []
    done = dict(pending, committed=[pending["committed"][0], action["count"]])
    winner, _loser = conflict_winner(done)
    attack = done["strength"][0] + done["committed"][0]
    defence = done["strength"][1] + done["committed"][1]
    name = DECISIONS[pending["kind"]].name(pending)
    removed = sum(after["out"].values()) - sum(state["out"].values()) - action["count"]
    extra = (ngettext(", removing {n} tile", ", removing {n} tiles", removed).format(n=removed)
             if removed else "")
    high, low = max(attack, defence), min(attack, defence)        # the winner's total first
    return [_("{p} won {conflict} {high}:{low}{extra}").format(
        p=f"{{p{winner}}}", conflict=name, high=high, low=low, extra=extra)]


def points_scored(state: dict, after: dict) -> list[str]:
    parts = []
    for s in range(state["players"]):
        for color in COLORS:
            gain = after["points"][s][color] - state["points"][s][color]
            if gain:
                parts.append(ngettext("{p} scored {n} {colour} point",
                                      "{p} scored {n} {colour} points", gain).format(
                    p=f"{{p{s}}}", n=gain, colour=words.colour(color)))
    return parts


def treasures_taken(state: dict, after: dict, action: dict) -> list[str]:
    if action["type"] == "take_treasures":
        return []
    return [ngettext("{p}'s trader took {n} treasure", "{p}'s trader took {n} treasures",
                     n).format(p=f"{{p{s}}}", n=n)
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
                parts.append(_("{leader} went home").format(
                    leader=words.whose_leader(LEADERS[color], f"{{p{s}}}")))
    return parts


def same_conflict(before: dict | None, after: dict | None) -> bool:
    """True while the attacker's commitment leaves the same conflict waiting."""
    keys = ("kind", "color", "attacker", "defender", "squares")
    return (before is not None and after is not None
            and all(before.get(k) == after.get(k) for k in keys))


def what_follows(after: dict) -> list[str]:
    pending = after["pending"]
    return [] if pending is None else [DECISIONS[pending["kind"]].follows(pending)]
