"""Every decision Tigris & Euphrates asks of a player, one entry each, keyed by the kind of
the decision waiting (`state["pending"]["kind"]`; None: the active player's action).

    kind        asked of                      rulebook
    None        the active player             "A játékos lépése": one of the turn's 2 actions
    "revolt"    attacker, then defender       "Belső konfliktus (lázadás)": commit temples
    "war"       attacker, then defender       "Külső konfliktus (háború)": commit the colour
    "war_order" the active player             several wars: which is fought next
    "monument"  the active player             a 2x2 of one colour: build a monument or not
    "treasure"  the trader's owner            2 or more treasures in a kingdom: which to take

An entry says who acts (`seat`), what they may do (`actions`), what their answer does
(`answer`), what is played when they miss their deadline (`default`), whether a lone option is
public (`lone_option_is_public`: the server may play it at once), whether it is a conflict's
(`conflict`: undo stops there), how it reads in the log (`follows`, `name`) and on the page
(`prompt`, `public`: the view's `conflict`), and how a determinized state gets it back from the
view (`from_public`, `steps_left`). rules.py starts the decisions (it puts them in
`state["pending"]`); game.py, view.py, describe.py, determinize.py and the presenter look the
entry up (`decision_of(state)`, `DECISIONS[kind]`); none of them branches on the kind.
"""
from __future__ import annotations

from pbem.games.base import IllegalAction, _

from . import words
from .board import LEADER_COLORS, LEADERS, TEMPLE, from_rc, to_rc
from .rules import (ACTIONS_PER_TURN, build_monument, commit, commit_choices, commit_role,
                    decline_monument, do_free_action, free_actions, monument_choices,
                    resolve_revolt, resolve_war, standing_actions, standing_answer, start_war,
                    take_treasures, treasure_choices)


class Decision:
    """What every decision has in common; each kind below says what is its own."""

    kind: str | None = None
    conflict = False            # a revolt's or a war's: its choices may follow hidden tiles
    steps_left: tuple[str, ...] = ()    # what is left of the action while it waits

    def seat(self, state: dict) -> int:
        return state["pending"]["seat"]

    def actions(self, state: dict, seat: int) -> list[dict]:
        raise NotImplementedError

    def answer(self, state: dict, seat: int, action: dict) -> None:
        raise NotImplementedError

    def default(self, state: dict) -> dict:
        """The first choice (pbem's pace rules: see TigrisRules.default_action)."""
        return self.actions(state, self.seat(state))[0]

    def lone_option_is_public(self, state: dict) -> bool:
        """Whether everyone can tell the seat has one choice (so the server may play it)."""
        return True

    def public(self, pending: dict) -> dict:
        """The view's `conflict` beyond its kind and seat: all of it is public."""
        return {}

    def from_public(self, conflict: dict) -> dict:
        """The pending decision as the rules keep it, from the view's `conflict`."""
        return {"kind": self.kind, "seat": conflict["seat"]}

    def prompt(self, state: dict) -> str:
        raise NotImplementedError

    def follows(self, pending: dict) -> str:
        """The log's words when the decision comes up: "wars follow: kings, priests"."""
        raise NotImplementedError


# --- The turn's action ---------------------------------------------------------

class TurnAction(Decision):
    """Place a leader, place a tile, place a catastrophe, swap tiles, or pass."""

    def seat(self, state: dict) -> int:
        return state["turn"]["active"]

    def actions(self, state: dict, seat: int) -> list[dict]:
        return free_actions(state, seat) + standing_actions(state, seat)

    def answer(self, state: dict, seat: int, action: dict) -> None:
        do_free_action(state, seat, action)

    def default(self, state: dict) -> dict:
        return {"type": "pass"}

    def prompt(self, state: dict) -> str:
        return _("Your turn: action {n} of {total}").format(
            n=state["turn"]["actions_done"] + 1, total=ACTIONS_PER_TURN)


# --- Conflicts: committing tiles -------------------------------------------------

class Conflict(Decision):
    """The attacker commits tiles of the conflict's colour, then the defender."""

    conflict = True

    def seat(self, state: dict) -> int:
        pending = state["pending"]
        return pending["attacker"] if commit_role(pending) == 0 else pending["defender"]

    def tile_colour(self, pending: dict) -> str:
        """The colour of the tiles committed."""
        return pending["color"]

    def choices(self, state: dict, have: int | None = None) -> list[int]:
        """How many tiles the seat may commit, holding `have` of the colour (None: what its
        hand holds)."""
        if have is None:
            have = state["hands"][self.seat(state)][self.tile_colour(state["pending"])]
        return commit_choices(state, have)

    def left_standing(self, state: dict) -> bool:
        """The committing seat is not on turn and left the standing answer "never commit
        support": it commits nothing, whatever its hand holds."""
        seat = self.seat(state)
        return (seat != state["turn"]["active"]
                and standing_answer(state, "support", seat) == "never")

    def lone_option_is_public(self, state: dict) -> bool:
        """From the seat's standing answer, or from the conflict and how many tiles its hand
        holds (public), never from the colours in its hand."""
        if self.left_standing(state):
            return True
        hand_size = sum(state["hands"][self.seat(state)].values())
        return len(self.choices(state, have=hand_size)) == 1

    def actions(self, state: dict, seat: int) -> list[dict]:
        if self.left_standing(state):
            return [{"type": "commit", "count": 0}]
        actions = [{"type": "commit", "count": n} for n in self.choices(state)]
        if not self.lone_option_is_public(state):
            actions += standing_actions(state, seat)    # asked to commit: may answer for later
        return actions

    def answer(self, state: dict, seat: int, action: dict) -> None:
        count = action.get("count")
        if action["type"] != "commit" or not isinstance(count, int) or isinstance(count, bool):
            raise IllegalAction("commit a number of tiles: {'type': 'commit', 'count': n}")
        if count not in self.choices(state):
            raise IllegalAction(_("you may not commit {n} tiles now (allowed: {allowed})").format(
                n=count, allowed=self.choices(state)))
        decided = commit(state, seat, self.tile_colour(state["pending"]), count)
        if decided is not None:
            self.resolve(state, decided)

    def resolve(self, state: dict, pending: dict) -> None:
        raise NotImplementedError

    def default(self, state: dict) -> dict:
        return {"type": "commit", "count": 0}

    def public(self, pending: dict) -> dict:
        return {"color": pending["color"], "leader": LEADERS[pending["color"]],
                "attacker": pending["attacker"], "defender": pending["defender"],
                "squares": [to_rc(i) for i in pending["squares"]],
                "strength": list(pending["strength"]), "committed": list(pending["committed"])}

    def from_public(self, conflict: dict) -> dict:
        return {"kind": self.kind, "color": conflict["color"], "attacker": conflict["attacker"],
                "defender": conflict["defender"],
                "squares": [from_rc(rc) for rc in conflict["squares"]],
                "strength": list(conflict["strength"]), "committed": list(conflict["committed"])}

    def title(self, pending: dict) -> str:
        raise NotImplementedError

    def prompt(self, state: dict) -> str:
        pending = state["pending"]
        colour = self.tile_colour(pending)
        if pending["committed"][0] is None:
            line = _("{conflict}: commit {colour} {kind} tiles as the attacker")
        else:
            line = _("{conflict}: commit {colour} {kind} tiles as the defender")
        return line.format(conflict=self.title(pending), colour=words.colour(colour),
                           kind=words.kind(colour))


class Revolt(Conflict):
    """A leader placed where one of its colour rules: temples (red) decide."""

    kind = "revolt"
    steps_left = ("treasures", "end_action")

    def tile_colour(self, pending: dict) -> str:
        return TEMPLE

    def resolve(self, state: dict, pending: dict) -> None:
        resolve_revolt(state, pending)

    def title(self, pending: dict) -> str:
        return _("Revolt")

    def name(self, pending: dict) -> str:
        return _("the revolt")

    def in_name(self, pending: dict) -> str:
        return _("in the revolt")

    def follows(self, pending: dict) -> str:
        name = LEADERS[pending["color"]]
        attacker, defender = f"{{p{pending['attacker']}}}", f"{{p{pending['defender']}}}"
        return _("a revolt follows: {attacker_leader} against {defender}'s ({a}:{d})").format(
            attacker_leader=words.whose_leader(name, attacker), defender=defender,
            defender_leader=words.whose_leader(name, defender),
            a=pending["strength"][0], d=pending["strength"][1])


class War(Conflict):
    """Two kingdoms joined with two leaders of a colour: that colour's tiles decide."""

    kind = "war"
    steps_left = ("wars", "monument", "treasures", "end_action")

    def resolve(self, state: dict, pending: dict) -> None:
        resolve_war(state, pending)

    def title(self, pending: dict) -> str:
        return words.war_prompt(LEADERS[pending["color"]])

    def name(self, pending: dict) -> str:
        return words.the_war(LEADERS[pending["color"]])

    def in_name(self, pending: dict) -> str:
        return words.in_the_war(LEADERS[pending["color"]])

    def follows(self, pending: dict) -> str:
        return _("{war}: {attacker} attacks {defender} ({a}:{d})").format(
            war=words.war_title(LEADERS[pending["color"]]),
            attacker=f"{{p{pending['attacker']}}}", defender=f"{{p{pending['defender']}}}",
            a=pending["strength"][0], d=pending["strength"][1])


# --- After a unification, a monument, a treasure -----------------------------------

class WarOrder(Decision):
    """Several wars at once: the active player chooses which is fought next."""

    kind = "war_order"
    steps_left = ("wars", "monument", "treasures", "end_action")

    def actions(self, state: dict, seat: int) -> list[dict]:
        return [{"type": "choose_war", "leader": LEADERS[c]} for c in state["pending"]["colors"]]

    def answer(self, state: dict, seat: int, action: dict) -> None:
        pending = state["pending"]
        name = action.get("leader") if action["type"] == "choose_war" else None
        color = LEADER_COLORS.get(name) if isinstance(name, str) else None
        if color not in pending["colors"]:
            raise IllegalAction(_("choose one of the wars: {wars}").format(
                wars=", ".join(words.leader(LEADERS[c]) for c in pending["colors"])))
        state["pending"] = None
        start_war(state, color)

    def public(self, pending: dict) -> dict:
        return {"wars": [LEADERS[c] for c in pending["colors"]]}

    def from_public(self, conflict: dict) -> dict:
        return {"kind": self.kind, "seat": conflict["seat"],
                "colors": [LEADER_COLORS[name] for name in conflict["wars"]]}

    def prompt(self, state: dict) -> str:
        return _("Choose which war is fought next")

    def follows(self, pending: dict) -> str:
        wars = ", ".join(words.leaders_plural(LEADERS[c]) for c in pending["colors"])
        return _("wars follow: {wars}").format(wars=wars)


class Monument(Decision):
    """The placed tile completed a 2x2 of one colour: build a monument on it, or decline."""

    kind = "monument"
    steps_left = ("monument", "treasures", "end_action")

    def actions(self, state: dict, seat: int) -> list[dict]:
        return [{"type": "build_monument", "monument": name, "at": to_rc(tl)}
                for name, tl in monument_choices(state)] + [{"type": "decline_monument"}]

    def answer(self, state: dict, seat: int, action: dict) -> None:
        if action["type"] == "decline_monument":
            decline_monument(state)
        elif action["type"] == "build_monument":
            name = action.get("monument")
            choice = (name if isinstance(name, str) else None, from_rc(action.get("at")))
            if choice not in monument_choices(state):
                raise IllegalAction(_("that monument cannot be built there"))
            build_monument(state, *choice)
        else:
            raise IllegalAction(_("build a monument or decline it"))
        state["pending"] = None
        state["steps"].pop(0)

    def default(self, state: dict) -> dict:
        return {"type": "decline_monument"}

    def prompt(self, state: dict) -> str:
        return _("Build a monument on the square you completed, or decline")

    def follows(self, pending: dict) -> str:
        return _("{p} may build a monument").format(p=f"{{p{pending['seat']}}}")


class Treasure(Decision):
    """A kingdom with a trader holds 2 or more treasures: all but one are taken."""

    kind = "treasure"
    steps_left = ("treasures", "end_action")

    def actions(self, state: dict, seat: int) -> list[dict]:
        return [{"type": "take_treasures", "at": [to_rc(t) for t in taken]}
                for taken in treasure_choices(state["pending"]["treasures"])]

    def answer(self, state: dict, seat: int, action: dict) -> None:
        squares = action.get("at") if action["type"] == "take_treasures" else None
        taken = sorted(from_rc(rc) for rc in squares) if isinstance(squares, list) and all(
            from_rc(rc) is not None for rc in squares) else None
        if taken not in treasure_choices(state["pending"]["treasures"]):
            raise IllegalAction(_("take all treasures of the kingdom but one, framed corner "
                                  "treasures first"))
        take_treasures(state, seat, taken)
        state["pending"] = None

    def public(self, pending: dict) -> dict:
        return {"treasures": [to_rc(t) for t in pending["treasures"]]}

    def from_public(self, conflict: dict) -> dict:
        return {"kind": self.kind, "seat": conflict["seat"],
                "treasures": [from_rc(rc) for rc in conflict["treasures"]]}

    def prompt(self, state: dict) -> str:
        return _("Your trader takes treasures: choose which")

    def follows(self, pending: dict) -> str:
        return _("{p}'s trader must choose which treasures to take").format(
            p=f"{{p{pending['seat']}}}")


DECISIONS: dict[str | None, Decision] = {
    entry.kind: entry for entry in (TurnAction(), Revolt(), War(), WarOrder(), Monument(), Treasure())}


def decision_of(state: dict) -> Decision:
    """The entry of the decision waiting in `state` (the turn's action when none is)."""
    pending = state["pending"]
    return DECISIONS[None if pending is None else pending["kind"]]


def public(state: dict) -> dict | None:
    """The decision waiting as the view shows it (None between actions)."""
    pending = state["pending"]
    if pending is None:
        return None
    entry = DECISIONS[pending["kind"]]
    return {"kind": pending["kind"], "seat": entry.seat(state), **entry.public(pending)}
