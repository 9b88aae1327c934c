"""Legal actions: every action a seat may send now, exactly as `apply` accepts it,
and a plain reason when an action is not among them (in the player's language where a player
could meet it; malformed fields are answered in English, for programs)."""
from __future__ import annotations

import json

from pbem.games.base import _

from .cards import COLOURS, COLUMNS, GAPS
from .engine import (STANDING, catastrophe_targets, column_open, count_in_hand, gap_open,
                     has_colour, leader_targets)
from .table import slot_at
from .views import colour_name, ship_name


# ---- What each decision offers ------------------------------------------------------------------
def turn_actions(st: dict, seat: int) -> list[dict]:
    """Two actions a turn: a leader, a card, the catastrophe, or passing the action."""
    targets = leader_targets(st)
    acts = [{"type": "leader", "colour": colour, **pos} for colour in COLOURS for pos in targets]
    for colour in COLOURS:
        if has_colour(st, seat, colour):
            acts += [{"type": "card", "colour": colour, "column": c}
                     for c in range(COLUMNS) if column_open(st, c)]
            acts += [{"type": "card", "colour": colour, "gap": g}
                     for g in range(GAPS) if gap_open(st, g)]
    if st["catastrophes"][seat]:
        acts += [{"type": "catastrophe", **pos} for pos in catastrophe_targets(st)]
    acts.append({"type": "pass"})
    return acts


def decision_actions(st: dict, pending: dict) -> list[dict]:
    kind = pending["kind"]
    if kind == "action":
        return turn_actions(st, pending["seat"])
    seat = pending["seat"]
    if kind in ("score", "reward"):
        scores = [{"type": "score", "colour": pending["colour"]}]
        return (scores if has_colour(st, seat, pending["colour"]) else []) + [{"type": "no_score"}]
    if kind == "ship":
        return [{"type": "ship", "ship": ship} for ship in pending["ships"]] + [{"type": "no_ship"}]
    if kind == "commit":
        most = count_in_hand(st, seat, pending["colour"])
        return [{"type": "commit", "count": n} for n in range(most + 1)]
    if kind == "order":
        return [{"type": "conflict", "colour": colour} for colour in pending["colours"]]
    exchanges = [{"type": "exchange", "column": c} for c in pending["columns"]]
    return (exchanges if has_colour(st, seat, "red") else []) + [{"type": "no_exchange"}]


def standing_actions(st: dict, seat: int) -> list[dict]:
    prefs = st["prefs"][seat]
    return [{"type": "standing", "decision": kind, "answer": answer}
            for kind, answers in STANDING.items() for answer in answers if answer != prefs[kind]]


# Decisions whose options hang on the deciding seat's hand: the colour asked for, the red card
# of the exchange, the cards a conflict may take.
HAND_DECISIONS = ("score", "reward", "commit", "exchange")


def options_are_public(st: dict, pending: dict) -> bool:
    """Whether everyone can tell the options of this decision: always, except for a decision
    that hangs on a hand that holds cards (how many cards a hand holds is public)."""
    return pending["kind"] not in HAND_DECISIONS or not st["hands"][pending["seat"]]


def legal_actions(st: dict, seat: int) -> list[dict]:
    pending = st["pending"]
    if st["over"] or pending is None or pending["seat"] != seat:
        return []
    acts = decision_actions(st, pending)
    # A publicly forced answer stays a single action, so the server can play it; a seat asked
    # a choice that its hand narrows to one answer may still leave its standing answers.
    if len(acts) > 1 or not options_are_public(st, pending):
        acts += standing_actions(st, seat)
    return acts


def canonical(action) -> str:
    return json.dumps(action, sort_keys=True, allow_nan=False)


# ---- Why an action is not legal ----------------------------------------------------------------
EXPECTED = {
    "action": "leader, card, catastrophe or pass",
    "score": "score or no_score", "reward": "score or no_score", "ship": "ship or no_ship",
    "commit": "commit", "order": "conflict", "exchange": "exchange or no_exchange",
}


def why_illegal(st: dict, seat: int, action: dict) -> str:
    pending = st["pending"]
    kind = action.get("type")
    if kind == "standing":
        return why_standing(st, seat, action)
    expected = EXPECTED[pending["kind"]]
    if kind not in expected.replace(",", " ").split():
        return f"now the game expects an action of type {expected}, not {kind!r}"
    if pending["kind"] == "action":
        return why_turn_action(st, seat, action)
    if kind == "commit":
        most = count_in_hand(st, seat, pending["colour"])
        return _("commit takes a whole number of {colour} cards from 0 to {most} "
                 "(the {colour} cards in your hand)").format(
            colour=colour_name(pending["colour"]), most=most)
    if kind == "score":
        return _("you may only score a {colour} card, and only if you hold one").format(
            colour=colour_name(pending["colour"]))
    if kind == "exchange" and not has_colour(st, seat, "red"):
        return _("the exchange needs a red card from your hand")
    if kind == "ship":
        return _("the ships you may buy now are {ships}").format(
            ships=", ".join(ship_name(ship) for ship in pending["ships"]))
    if kind == "conflict":
        return _("the conflicts left to settle are {colours}").format(
            colours=", ".join(colour_name(colour) for colour in pending["colours"]))
    if kind == "exchange":
        cols = ", ".join(str(c + 1) for c in pending["columns"])
        return f"exchange takes a column index of a real treasure in the kingdom (columns {cols})"
    return f"that action has wrong or extra fields: {canonical(action)}"


def why_standing(st: dict, seat: int, action: dict) -> str:
    decision, answer = action.get("decision"), action.get("answer")
    if decision not in STANDING:
        return f"standing answers exist for {', '.join(STANDING)}, not {decision!r}"
    if answer not in STANDING[decision]:
        return f"a standing answer for {decision} is one of {', '.join(STANDING[decision])}"
    if st["prefs"][seat][decision] == answer:
        return f"your standing answer for {decision} is already {answer!r}"
    return _("a standing answer can only be left while you have a real choice to make")


def why_position(st: dict, action: dict) -> str | None:
    if "gap" in action:
        gap = action["gap"]
        if type(gap) is not int or not 0 <= gap < GAPS:
            return f"gap must be a whole number from 0 to {GAPS - 1}"
        return None
    column, row = action.get("column"), action.get("row")
    if type(column) is not int or not 0 <= column < COLUMNS:
        return f"column must be a whole number from 0 to {COLUMNS - 1}"
    if type(row) is not int or row < 0:
        return "row must be a whole number (0 is the treasure*)"
    return None


def why_turn_action(st: dict, seat: int, action: dict) -> str:
    kind = action["type"]
    if kind == "card":
        return why_card(st, seat, action)
    if kind in ("leader", "catastrophe"):
        if kind == "leader" and action.get("colour") not in COLOURS:
            return f"a leader's colour is one of {', '.join(COLOURS)}"
        if kind == "catastrophe" and not st["catastrophes"][seat]:
            return _("you have already played your catastrophe")
        bad = why_position(st, action)
        if bad:
            return bad
        slot = slot_at(st, {"gap": action["gap"]} if "gap" in action
                       else {"column": action["column"], "row": action["row"]})
        if slot is None:
            return _("there is no card there")
        if "ship" in slot:
            return _("a ship carries no leader and cannot be removed")
        if "leader" in slot:
            return _("that card carries a leader")
        if kind == "catastrophe" and action.get("row") == 0:
            return _("a catastrophe never removes a treasure*")
    return f"that action has wrong or extra fields: {canonical(action)}"


def why_card(st: dict, seat: int, action: dict) -> str:
    colour = action.get("colour")
    if colour not in COLOURS:
        return f"a card's colour is one of {', '.join(COLOURS)}"
    if not has_colour(st, seat, colour):
        return _("you hold no {colour} card").format(colour=colour_name(colour))
    bad = why_position(st, {k: v for k, v in action.items() if k in ("gap", "column")} | (
        {} if "gap" in action else {"row": 0}))
    if bad:
        return bad
    if "gap" in action:
        if st["gaps"][action["gap"]] is not None:
            return _("that gap already holds a connecting card")
        return _("a connecting card needs at least 3 cards under both treasures*")
    if not column_open(st, action["column"]):
        return _("column {n} is full").format(n=action["column"] + 1)
    return f"that action has wrong or extra fields: {canonical(action)}"

