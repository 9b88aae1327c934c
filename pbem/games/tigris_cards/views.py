"""What a seat may see, and one public line for each action."""
from __future__ import annotations

from pbem.games.base import _, ngettext

from .cards import COLOURS, FACE, face_of, is_treasure
from .hand_record import RECORD
from .scoring import colour_counts, final_ranking
from .table import THAWED, Column, find_leader, slot_at, supplies, thaw


# ---- The table ---------------------------------------------------------------------------------
def show_slot(slot: dict, row: int | None, secret_ok: bool) -> dict:
    if "ship" in slot:
        shown: dict = {"ship": slot["ship"]}
    elif slot.get("face_down") and not secret_ok:
        shown = {"card": None}
    else:
        shown = {"card": FACE[slot["card"]]}
    if row == 0:
        shown["treasure_star"] = True
    if slot.get("face_down"):
        shown["face_down"] = True
    if "leader" in slot:
        shown["leader"] = list(slot["leader"])
    return shown


def show_column(column: list) -> list[dict]:
    """Every slot of a column as `show_slot` shows it (face up to all), in new dicts. A frozen
    column keeps what it showed, as it never changes: a copy of that is several times sooner
    than showing each slot again, and every view of every seat shows every column."""
    if type(column) is not Column:
        return [show_slot(slot, row, True) for row, slot in enumerate(column)]
    try:
        shown = column.shown
    except AttributeError:
        shown = column.shown = tuple(show_slot(slot, row, True)
                                     for row, slot in enumerate(column))
    return [{**slot, "leader": list(slot["leader"])} if "leader" in slot else slot.copy()
            for slot in shown]


def show_pile(pile: list[int]) -> dict:
    """A victory pile: its size, its top card and its cards counted by colour. The counts are
    public with or without "open piles": each card is placed on a pile in view, and the log
    says which, so a careful player knows every pile by colour (the option spares the
    writing down; our ruling of 2026-12-03)."""
    return {"size": len(pile), "top": face_of(pile[-1]) if pile else None,
            "counts": colour_counts(pile)}


def hand_faces(hand: list[int]) -> list[str]:
    return sorted(map(FACE.__getitem__, hand), key=FACE_RANK.__getitem__)


FACE_RANK = {face: rank for rank, face in enumerate(COLOURS + ("treasure",))}  # a hand's order


# ---- Words -------------------------------------------------------------------------------------
def colour_name(colour: str) -> str:
    """A colour (or "treasure") in the language being spoken."""
    name = COLOUR_NAMES.get(colour)
    return colour if name is None else name()


def leader_name(colour: str) -> str:
    return LEADER_NAMES[colour]()


# Only the word asked for is looked up: pages and log lines name colours by the thousand.
COLOUR_NAMES = {"black": lambda: _("black"), "green": lambda: _("green"),
                "red": lambda: _("red"), "blue": lambda: _("blue"),
                "treasure": lambda: _("treasure")}
LEADER_NAMES = {"black": lambda: _("king"), "green": lambda: _("trader"),
                "red": lambda: _("priest"), "blue": lambda: _("farmer")}


def ship_name(ship: str) -> str:
    names = {"blue-black": _("blue-black"), "blue-green": _("blue-green"),
             "blue-red": _("blue-red")}
    return names.get(ship, ship)


def as_role(attacker: bool) -> str:
    return _("as attacker") if attacker else _("as defender")


# ---- Prompts -----------------------------------------------------------------------------------
def prompt(st: dict, seat: int | None) -> str | None:
    pending = st["pending"]
    if st["over"] or pending is None or pending["seat"] != seat:
        return None
    kind = pending["kind"]
    colour = colour_name(pending.get("colour", ""))
    if kind == "action":
        return _("Your turn: action {n} of 2").format(n=3 - st["actions_left"])
    if kind == "score":
        return _("Score a {colour} point with a {colour} card from your hand?").format(
            colour=colour)
    if kind == "reward":
        return _("You won the conflict: put a {colour} card from your hand "
                 "on your victory pile?").format(colour=colour)
    if kind == "ship":
        return _("Buy a ship with the four cards at the bottom of the column?")
    if kind == "commit":
        return commit_prompt(st, seat, colour)
    if kind == "order":
        return _("Choose which external conflict to settle next")
    return _("Trader's exchange: take a treasure for a red card from your hand?")


def commit_prompt(st: dict, seat: int, colour: str) -> str:
    conflict = st["conflict"]
    if conflict["type"] == "internal":
        text = _("Internal conflict over the {leader}: commit {colour} cards {as_role}")
    else:
        text = _("External conflict over the {leader}: commit {colour} cards {as_role}")
    return text.format(leader=leader_name(conflict["leader"]), colour=colour,
                       as_role=as_role(seat == conflict["attacker"]))


def public_decision(st: dict) -> dict | None:
    pending = st["pending"]
    if pending is None:
        return None
    return thaw(pending)  # a pending decision holds only public facts


def public_conflict(st: dict) -> dict | None:
    conflict = st["conflict"]
    if conflict is None:
        return None
    shown = {key: thaw(value) if isinstance(value, THAWED) else value
             for key, value in conflict.items() if key != "played"}
    shown["played"] = [len(cards) for cards in conflict["played"]]
    return shown


# ---- The view ----------------------------------------------------------------------------------
# The turn's public counters of a rules version's end checks: whether a card left a hand this
# turn (version 2), the passes of this turn and the turns passed in a row (version 1).
FLOW_COUNTERS = ("card_left_hand", "passes", "passing_turns")


def view(st: dict, seat: int | None, to_act: list[int]) -> dict:
    over, players = st["over"], st["players"]
    placer_sees = over or seat == st["active"]
    shown = {
        "seat": seat, "to_act": to_act, "prompt": prompt(st, seat), "over": over,
        "players": players, "turn": st["turn"], "active": st["active"],
        "actions_left": st["actions_left"], "options": dict(st["options"]),
        "columns": [show_column(column) for column in st["columns"]],
        "gaps": [None if slot is None else show_slot(slot, None, placer_sees)
                 for slot in st["gaps"]],
        "supply": supplies(st),
        "catastrophes": list(st["catastrophes"]), "ships": list(st["ships"]),
        "hand_sizes": [len(hand) for hand in st["hands"]],
        "deck": len(st["deck"]), "removed": len(st["removed"]),
        "destroyed": [face_of(card) for card in st["destroyed"]],
        "discard": len(st["discard"]),
        # every discarded card lay face up (cards played in a conflict, of its colour; a ship's
        # four from a column): what a player who kept count knows, by face
        "discard_counts": colour_counts(st["discard"]),
        "piles": [show_pile(pile) for pile in st["piles"]],
        "hand": hand_faces(st["hands"][seat]) if seat is not None else None,
        "standing": dict(st["prefs"][seat]) if seat is not None else None,
        "decision": public_decision(st), "conflict": public_conflict(st),
        "real_treasures": sum(1 for column in st["columns"] if is_treasure(column[0]["card"])),
        # turns in a row that left the table full and in which no card left any hand
        # (a full round of them ends the game)
        "quiet_turns": st.get("quiet_turns"),

        # what the flow does next (all public: the steps an action set off, still to run)
        "queue": [thaw(step) for step in st["queue"]],
    }
    for counter in FLOW_COUNTERS:
        if counter in st:
            shown[counter] = st[counter]
    if RECORD in st:  # rules version 3: per seat, colour -> at most so many in hand, if its
        # declines meant "none": what a careful player writes down (hand_record.py)
        shown[RECORD] = [dict(bounds) for bounds in st[RECORD]]
    if over:
        shown.update(
            hands=[hand_faces(hand) for hand in st["hands"]],
            pile_cards=[[face_of(card) for card in pile] for pile in st["piles"]],
            deck_cards=[face_of(card) for card in st["deck"]],
            removed_cards=[face_of(card) for card in st["removed"]],
            seed=st["seed"], end=st["end"], result=final_ranking(st["piles"]))
    return shown


# ---- One public line per action ----------------------------------------------------------------
def where(pos: dict) -> str:
    if "gap" in pos:
        return _("the connecting card between columns {a} and {b}").format(
            a=pos["gap"] + 1, b=pos["gap"] + 2)
    if pos["row"] == 0:
        return _("the treasure* of column {n}").format(n=pos["column"] + 1)
    return _("card {row} of column {n}").format(row=pos["row"], n=pos["column"] + 1)


def standing_line(decision: str) -> str:
    lines = {
        "score": _("{p} left a standing answer for score decisions."),
        "commit": _("{p} left a standing answer for commit decisions."),
        "reward": _("{p} left a standing answer for reward decisions."),
        "exchange": _("{p} left a standing answer for exchange decisions."),
    }
    return lines[decision]


def describe(st: dict, seat: int, action: dict) -> str:
    who, kind = f"{{p{seat}}}", action.get("type")
    pending = st["pending"] or {}
    colour = colour_name(action.get("colour") or pending.get("colour", ""))
    if kind == "pass":
        return _("{p} passed an action.").format(p=who)
    if kind == "leader":
        return describe_leader(st, seat, action)
    if kind == "card" and "gap" in action:
        return _("{p} placed a connecting card face down between columns {a} and {b}.").format(
            p=who, a=action["gap"] + 1, b=action["gap"] + 2)
    if kind == "card":
        return _("{p} placed a {colour} card in column {n}.").format(
            p=who, colour=colour, n=action["column"] + 1)
    if kind == "catastrophe":
        pos = {k: action[k] for k in ("gap", "column", "row") if k in action}
        return _("{p} played the catastrophe and removed the {colour} card, {where}.").format(
            p=who, colour=colour_name(face_of(slot_at(st, pos)["card"])), where=where(pos))
    if kind == "score" and pending.get("kind") == "reward":
        return _("{p} won the conflict and put a {colour} card from hand "
                 "on the victory pile.").format(p=who, colour=colour)
    if kind == "score":
        return _("{p} scored 1 {colour} point with a card from hand.").format(p=who, colour=colour)
    if kind == "no_score":
        return _("{p} did not score a {colour} point.").format(p=who, colour=colour)
    if kind == "ship":
        return _("{p} bought the {ship} ship in column {n}.").format(
            p=who, ship=ship_name(action["ship"]), n=pending["column"] + 1)
    if kind == "no_ship":
        return _("{p} did not buy a ship.").format(p=who)
    if kind == "commit":
        attacker = bool(st["conflict"]) and seat == st["conflict"]["attacker"]
        if action["count"] == 0:
            return _("{p} committed no support {as_role}.").format(p=who, as_role=as_role(attacker))
        return ngettext("{p} committed {n} {colour} card {as_role}.",
                        "{p} committed {n} {colour} cards {as_role}.", action["count"]).format(
            p=who, n=action["count"], colour=colour, as_role=as_role(attacker))
    if kind == "conflict":
        return _("{p} chose to settle the {colour} conflict next.").format(p=who, colour=colour)
    if kind == "exchange":
        return _("{p}'s trader took the treasure of column {n}, "
                 "putting a red card from hand in its place.").format(
            p=who, n=action["column"] + 1)
    if kind == "no_exchange":
        return _("{p} did not exchange a treasure.").format(p=who)
    if kind == "standing":
        return standing_line(action["decision"]).format(p=who)
    return _("{p} acted.").format(p=who)


def describe_leader(st: dict, seat: int, action: dict) -> str:
    pos = {k: action[k] for k in ("gap", "column", "row") if k in action}
    name = leader_name(action["colour"])
    old = find_leader(st, seat, action["colour"])
    if old is None:
        return _("{p} placed their {leader} on {where}.").format(
            p=f"{{p{seat}}}", leader=name, where=where(pos))
    return _("{p} moved their {leader} from {old} to {new}.").format(
        p=f"{{p{seat}}}", leader=name, old=where(old), new=where(pos))
