"""What a seat may see, and one public line for each action."""
from __future__ import annotations

from .cards import COLOURS, LEADERS, face_of, is_treasure
from .scoring import colour_counts, final_ranking
from .table import find_leader, slot_at, supply


# ---- The table ---------------------------------------------------------------------------------
def show_slot(slot: dict, row: int | None, secret_ok: bool) -> dict:
    shown: dict = {}
    if "ship" in slot:
        shown["ship"] = slot["ship"]
    elif slot.get("face_down") and not secret_ok:
        shown["card"] = None
    else:
        shown["card"] = face_of(slot["card"])
    if row == 0:
        shown["treasure_star"] = True
    if slot.get("face_down"):
        shown["face_down"] = True
    if "leader" in slot:
        shown["leader"] = list(slot["leader"])
    return shown


def show_pile(pile: list[int], open_piles: bool) -> dict:
    shown = {"size": len(pile), "top": face_of(pile[-1]) if pile else None}
    if open_piles:
        shown["counts"] = colour_counts(pile)
    return shown


def hand_faces(hand: list[int]) -> list[str]:
    order = COLOURS + ("treasure",)
    return sorted((face_of(card) for card in hand), key=order.index)


# ---- Prompts -----------------------------------------------------------------------------------
def prompt(st: dict, seat: int | None) -> str | None:
    pending = st["pending"]
    if st["over"] or pending is None or pending["seat"] != seat:
        return None
    kind = pending["kind"]
    if kind == "action":
        return f"Your turn: action {3 - st['actions_left']} of 2"
    if kind == "score":
        return f"Score a {pending['colour']} point with a {pending['colour']} card from your hand?"
    if kind == "reward":
        return (f"You won the conflict: put a {pending['colour']} card from your hand "
                "on your victory pile?")
    if kind == "ship":
        return "Buy a ship with the four cards at the bottom of the column?"
    if kind == "commit":
        conflict = st["conflict"]
        role = "attacker" if seat == conflict["attacker"] else "defender"
        where = "Internal" if conflict["type"] == "internal" else "External"
        return (f"{where} conflict over the {LEADERS[conflict['leader']]}: "
                f"commit {pending['colour']} cards as {role}")
    if kind == "order":
        return "Choose which external conflict to settle next"
    return "Trader's exchange: take a treasure for a red card from your hand?"


def public_decision(st: dict) -> dict | None:
    pending = st["pending"]
    if pending is None:
        return None
    return dict(pending)  # a pending decision holds only public facts


def public_conflict(st: dict) -> dict | None:
    conflict = st["conflict"]
    if conflict is None:
        return None
    shown = {key: value for key, value in conflict.items() if key != "played"}
    shown["played"] = [len(cards) for cards in conflict["played"]]
    return shown


# ---- The view ----------------------------------------------------------------------------------
def view(st: dict, seat: int | None, to_act: list[int]) -> dict:
    over, players = st["over"], st["players"]
    open_piles = st["options"].get("open_piles", False) or over
    placer_sees = over or seat == st["active"]
    shown = {
        "seat": seat, "to_act": to_act, "prompt": prompt(st, seat), "over": over,
        "players": players, "turn": st["turn"], "active": st["active"],
        "actions_left": st["actions_left"], "options": dict(st["options"]),
        "columns": [[show_slot(slot, row, True) for row, slot in enumerate(column)]
                    for column in st["columns"]],
        "gaps": [None if slot is None else show_slot(slot, None, placer_sees)
                 for slot in st["gaps"]],
        "supply": [supply(st, s) for s in range(players)],
        "catastrophes": list(st["catastrophes"]), "ships": list(st["ships"]),
        "hand_sizes": [len(hand) for hand in st["hands"]],
        "deck": len(st["deck"]), "removed": len(st["removed"]),
        "destroyed": [face_of(card) for card in st["destroyed"]],
        "discard": len(st["discard"]),
        "piles": [show_pile(pile, open_piles) for pile in st["piles"]],
        "hand": hand_faces(st["hands"][seat]) if seat is not None else None,
        "standing": dict(st["prefs"][seat]) if seat is not None else None,
        "decision": public_decision(st), "conflict": public_conflict(st),
        "real_treasures": sum(1 for column in st["columns"] if is_treasure(column[0]["card"])),
    }
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
        return f"the connecting card between columns {pos['gap'] + 1} and {pos['gap'] + 2}"
    if pos["row"] == 0:
        return f"the treasure* of column {pos['column'] + 1}"
    return f"card {pos['row']} of column {pos['column'] + 1}"


def describe(st: dict, seat: int, action: dict) -> str:
    who, kind = f"{{p{seat}}}", action.get("type")
    pending = st["pending"] or {}
    if kind == "pass":
        return f"{who} passed an action."
    if kind == "leader":
        return describe_leader(st, seat, action)
    if kind == "card" and "gap" in action:
        return (f"{who} placed a connecting card face down between columns "
                f"{action['gap'] + 1} and {action['gap'] + 2}.")
    if kind == "card":
        return f"{who} placed a {action['colour']} card in column {action['column'] + 1}."
    if kind == "catastrophe":
        pos = {k: action[k] for k in ("gap", "column", "row") if k in action}
        colour = face_of(slot_at(st, pos)["card"])
        return f"{who} played the catastrophe and removed the {colour} card, {where(pos)}."
    if kind == "score" and pending.get("kind") == "reward":
        return (f"{who} won the conflict and put a {action['colour']} card from hand "
                "on the victory pile.")
    if kind == "score":
        return f"{who} scored 1 {action['colour']} point with a card from hand."
    if kind == "no_score":
        return f"{who} did not score a {pending['colour']} point."
    if kind == "ship":
        return f"{who} bought the {action['ship']} ship in column {pending['column'] + 1}."
    if kind == "no_ship":
        return f"{who} did not buy a ship."
    if kind == "commit":
        role = "attacker" if st["conflict"] and seat == st["conflict"]["attacker"] else "defender"
        return f"{who} committed {action['count']} {pending['colour']} card(s) as {role}."
    if kind == "conflict":
        return f"{who} chose to settle the {action['colour']} conflict next."
    if kind == "exchange":
        return (f"{who}'s trader took the treasure of column {action['column'] + 1}, "
                f"putting a red card from hand in its place.")
    if kind == "no_exchange":
        return f"{who} did not exchange a treasure."
    if kind == "standing":
        return f"{who} left a standing answer for {action['decision']} decisions."
    return f"{who} acted."


def describe_leader(st: dict, seat: int, action: dict) -> str:
    pos = {k: action[k] for k in ("gap", "column", "row") if k in action}
    name = LEADERS[action["colour"]]
    old = find_leader(st, seat, action["colour"])
    if old is None:
        return f"{{p{seat}}} placed their {name} on {where(pos)}."
    return f"{{p{seat}}} moved their {name} from {where(old)} to {where(pos)}."
