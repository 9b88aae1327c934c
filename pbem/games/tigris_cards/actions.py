"""Legal actions: every action a seat may send now, exactly as `apply` accepts it,
and a plain reason when an action is not among them (in the player's language where a player
could meet it; malformed fields are answered in English, for programs)."""
from __future__ import annotations

import json
import operator

from pbem.games.base import _

from .cards import CARD_COLOUR, COLOURS, COLUMNS, GAPS
from .engine import (STANDING, catastrophe_targets, column_open, count_in_hand, gap_open,
                     has_colour, leader_targets)
from .table import position_of, slot_at, slots_in
from .views import colour_name, ship_name


# ---- What each decision offers ------------------------------------------------------------------
# Every action a turn can list, built once: a listing hands out fresh copies of these (a copy of
# a small dict costs a third of building it), in the order and with the keys of a dict built
# in place. ROWS covers every row a column can reach (a treasure* and COLUMN_LIMIT cards).
ROWS = 16
LEADER_ACTS = {colour: {**{(c, r): {"type": "leader", "colour": colour, "column": c, "row": r}
                           for c in range(COLUMNS) for r in range(ROWS)},
                        **{(g, None): {"type": "leader", "colour": colour, "gap": g}
                           for g in range(GAPS)}}
               for colour in COLOURS}
COLUMN_CARD_ACTS = {colour: [{"type": "card", "colour": colour, "column": c}
                             for c in range(COLUMNS)] for colour in COLOURS}
GAP_CARD_ACTS = {colour: [{"type": "card", "colour": colour, "gap": g} for g in range(GAPS)]
                 for colour in COLOURS}
CATASTROPHE_ACTS = {**{(c, r): {"type": "catastrophe", "column": c, "row": r}
                       for c in range(COLUMNS) for r in range(ROWS)},
                    **{(g, None): {"type": "catastrophe", "gap": g} for g in range(GAPS)}}
PASS = {"type": "pass"}
copies = dict.copy


def turn_actions(st: dict, seat: int) -> list[dict]:
    """Two actions a turn: a leader, a card, the catastrophe, or passing the action."""
    targets = leader_targets(st)
    acts: list[dict] = []
    try:
        for colour in COLOURS:
            acts += map(copies, map(LEADER_ACTS[colour].__getitem__, targets))
    except KeyError:  # a row past ROWS (never in play): built in place
        acts = [{"type": "leader", "colour": colour, "gap": c} if r is None else
                {"type": "leader", "colour": colour, "column": c, "row": r}
                for colour in COLOURS for c, r in targets]
    held = {CARD_COLOUR[card] for card in st["hands"][seat]}
    if held:
        columns = [c for c in range(COLUMNS) if column_open(st, c)]
        gaps = [g for g in range(GAPS) if gap_open(st, g)]
        for colour in COLOURS:
            if colour in held:
                acts += map(copies, map(COLUMN_CARD_ACTS[colour].__getitem__, columns))
                acts += map(copies, map(GAP_CARD_ACTS[colour].__getitem__, gaps))
    if st["catastrophes"][seat]:
        for c, r, slot in slots_in(st):  # as `catastrophe_targets` finds them
            if r != 0 and "card" in slot and "leader" not in slot and not slot.get("face_down"):
                template = CATASTROPHE_ACTS.get((c, r))
                acts.append(template.copy() if template is not None else
                            {"type": "catastrophe", **position_of(c, r)})
    acts.append(PASS.copy())
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
    try:
        chosen = STANDING_ACTS[standing_of(prefs)]
    except KeyError:  # not a known answer: listed as `apply` would refuse it (never in play)
        return [{"type": "standing", "decision": kind, "answer": answer}
                for kind, answers in STANDING.items() for answer in answers
                if answer != prefs[kind]]
    return list(map(copies, chosen))


def _standing_lists() -> dict[tuple, list[dict]]:
    """Every seat's standing answers -> the standing actions listed (the other answers)."""
    lists: dict[tuple, list[dict]] = {(): []}
    for kind, answers in STANDING.items():
        lists = {key + (own,): acts + [{"type": "standing", "decision": kind, "answer": answer}
                                       for answer in answers if answer != own]
                 for key, acts in lists.items() for own in answers}
    return lists


STANDING_ACTS = _standing_lists()
standing_of = operator.itemgetter(*STANDING)  # a seat's standing answers, in STANDING's order


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


# ---- Whether an action is listed, without listing them all (apply's check) ------------------
def is_listed(st: dict, seat: int, action: dict) -> bool:
    """True only when `action` is one of `legal_actions(st, seat)` with the same JSON types (so
    its canonical JSON is listed too). A turn's action is checked on its own position; a
    decision's few answers, and standing answers, are compared one by one."""
    pending = st["pending"]
    if st["over"] or pending is None or pending["seat"] != seat:
        return False
    kind = action.get("type")
    if kind == "standing":
        return listed_standing(st, pending, action)
    if pending["kind"] == "action":
        check = TURN_CHECKS.get(kind)
        return check is not None and check(st, seat, action)
    check = DECISION_CHECKS.get(pending["kind"])
    if check is not None:
        return check(st, pending, action)
    # a decision's answers (its standing answers are the other actions listed)
    return any(same_json(action, legal) for legal in decision_actions(st, pending))


def same_json(action: dict, legal: dict) -> bool:
    """Equal, and every value of the same type (True is not 1, 1.0 is not 1 in JSON)."""
    return action == legal and all(type(action[key]) is type(value)
                                   for key, value in legal.items())


JSON_TYPES = (str, int, bool, float, type(None), list, dict)


def of_json_types(action: dict) -> bool:
    """Whether the action's keys are strings and its values of JSON's own types (what a JSON
    decoder gives), so that `is_listed` answers for it alone."""
    return all(type(key) is str for key in action) and \
        all(type(value) in JSON_TYPES for value in action.values())


def named_slot(st: dict, action: dict, fields: int) -> tuple[int, int | None, dict | None]:
    """(column, row, slot) of the table position an action names when it holds `fields` fields
    besides a position ("column" and "row", or "gap"), whole numbers on the table; a gap's row is
    None. (-1, None, None) when it names none."""
    if "gap" in action:
        gap = action["gap"]
        if len(action) == fields + 1 and type(gap) is int and 0 <= gap < GAPS:
            return gap, None, st["gaps"][gap]
        return -1, None, None
    column, row = action.get("column"), action.get("row")
    if len(action) == fields + 2 and type(column) is int and type(row) is int \
            and 0 <= column < COLUMNS and 0 <= row < len(st["columns"][column]):
        return column, row, st["columns"][column][row]
    return -1, None, None


def is_colour(value) -> bool:
    return type(value) is str and value in COLOURS


def listed_pass(st: dict, seat: int, action: dict) -> bool:
    return len(action) == 1


def listed_leader(st: dict, seat: int, action: dict) -> bool:
    """As `turn_actions` lists leaders: any colour on any unoccupied civilization card."""
    if not is_colour(action.get("colour")):
        return False
    _column, _row, slot = named_slot(st, action, 2)
    return slot is not None and "card" in slot and "leader" not in slot


def listed_card(st: dict, seat: int, action: dict) -> bool:
    """As `turn_actions` lists cards: a colour in hand, an open column or gap."""
    colour = action.get("colour")
    if len(action) != 3 or not is_colour(colour) or not has_colour(st, seat, colour):
        return False
    if "gap" in action:
        gap = action["gap"]
        return type(gap) is int and 0 <= gap < GAPS and gap_open(st, gap)
    column = action.get("column")
    return type(column) is int and 0 <= column < COLUMNS and column_open(st, column)


def listed_catastrophe(st: dict, seat: int, action: dict) -> bool:
    """As `catastrophe_targets`: a face-up card without a leader, not a treasure*."""
    if not st["catastrophes"][seat]:
        return False
    _column, row, slot = named_slot(st, action, 1)
    return slot is not None and row != 0 and "card" in slot and "leader" not in slot \
        and not slot.get("face_down")


def listed_commit(st: dict, pending: dict, action: dict) -> bool:
    """As `decision_actions` lists a commitment: 0 up to the cards of the colour in hand."""
    count = action.get("count")
    return action["type"] == "commit" and len(action) == 2 and type(count) is int and \
        0 <= count <= count_in_hand(st, pending["seat"], pending["colour"])


def listed_score(st: dict, pending: dict, action: dict) -> bool:
    """As `decision_actions` lists a point: "no_score", or "score" with a card of the colour."""
    if action["type"] == "no_score":
        return len(action) == 1
    return action["type"] == "score" and len(action) == 2 and \
        type(action.get("colour")) is str and action["colour"] == pending["colour"] and \
        has_colour(st, pending["seat"], pending["colour"])


def listed_standing(st: dict, pending: dict, action: dict) -> bool:
    """As `legal_actions` lists standing answers: another answer than the seat's own, while
    the decision asked is a real choice."""
    decision, answer = action.get("decision"), action.get("answer")
    if len(action) != 3 or type(decision) is not str or type(answer) is not str or \
            decision not in STANDING or answer not in STANDING[decision]:
        return False
    return answer != st["prefs"][pending["seat"]][decision] and offers_standing(st, pending)


def offers_standing(st: dict, pending: dict) -> bool:
    """Whether `legal_actions` lists standing answers with this decision: when it has more
    than one answer, or its options are not public."""
    if not options_are_public(st, pending):
        return True
    if pending["kind"] != "action":
        return len(decision_actions(st, pending)) > 1
    seat = pending["seat"]  # a turn: more than its "pass"
    return bool(leader_targets(st)) or bool(st["catastrophes"][seat] and catastrophe_targets(st)) \
        or bool(st["hands"][seat]) and (any(column_open(st, c) for c in range(COLUMNS)) or
                                        any(gap_open(st, g) for g in range(GAPS)))


DECISION_CHECKS = {"commit": listed_commit, "score": listed_score, "reward": listed_score}
TURN_CHECKS = {"pass": listed_pass, "leader": listed_leader, "card": listed_card,
               "catastrophe": listed_catastrophe}


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

