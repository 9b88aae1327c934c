"""Tigris & Euphrates behind pbem's `Rules` protocol: each member of the protocol calls the
decision waiting (decisions.py), the rules (rules.py), the view (view.py), the log lines
(describe.py), the determinized states (determinize.py) and the reply codes (codes.py); none of
those imports this module."""
from __future__ import annotations

import random

from pbem.games.base import IllegalAction, _, check_options, copy_json

from . import codes as reply_codes
from .describe import describe as describe_action
from .determinize import determinize as determinize_view
from .decisions import decision_of
from .kingdoms import done_changing, start_changing
from .rules import (OPTIONS, STANDING, advance, copy_state, do_standing, new_state, ranking,
                    regions_of)
from .vocabulary import as_before, as_now, refusal_as_before, speaks_as_before, version_of
from .view import view as view_of


class TigrisRules:
    """Tigris & Euphrates for 2 to 4 players."""

    name = "tigris"
    title = "Tigris & Euphrates"
    version = 3              # 2: standing answers for support ("never commit");
    #                          3: the card game's words, "colour" and "count" (vocabulary.py)
    oldest_version = 1
    min_players = 2
    max_players = 4
    options = dict(OPTIONS)

    def setup(self, players: int, seed: int, options: dict | None = None,
              version: int | None = None) -> dict:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise IllegalAction("Tigris & Euphrates is for 2 to 4 players")
        version = self.version if version is None else version
        if type(version) is not int or not self.oldest_version <= version <= self.version:
            raise IllegalAction(f"Tigris & Euphrates has rules versions {self.oldest_version} "
                                f"to {self.version}, not {version!r}")
        return new_state(players, seed, check_options(self, options), version)

    def to_act(self, state: dict) -> list[int]:
        if state["over"]:
            return []
        return [decision_of(state).seat(state)]

    def codes(self, view: dict, actions: list[dict]) -> list[str]:
        """Optional member: one reply code per action, in the players' words (codes.py)."""
        return reply_codes.codes(view, actions)

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        actions = decision_of(state).actions(state, seat)
        if speaks_as_before(version_of(state)):
            return [as_before(action) for action in actions]
        return actions

    def forced(self, state: dict, seat: int, actions: list[dict]) -> bool:
        """The server may play a single option at once unless the seat commits in a conflict
        and only its hidden tiles leave it one choice: a defender without tiles of the colour
        is asked like one who holds some. A standing answer ("never commit") answers for it
        whatever it holds. Every other decision's options follow from the board, and a turn
        with one option means an empty hand (public)."""
        return decision_of(state).lone_option_is_public(state)

    def apply(self, state: dict, seat: int, action: dict) -> dict:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("an action must be an object with a 'type'")
        if state["over"]:
            raise IllegalAction(_("the game is over"))
        if seat not in self.to_act(state):
            raise IllegalAction(_("seat {seat} is not to act now").format(seat=seat))
        if speaks_as_before(version_of(state)):
            try:
                return self._apply(state, seat, as_now(action))
            except IllegalAction as refused:
                raise IllegalAction(refusal_as_before(str(refused))) from None
        return self._apply(state, seat, action)

    def _apply(self, state: dict, seat: int, action: dict) -> dict:
        regions = regions_of(state)
        state = copy_state(state)
        start_changing(state, regions)              # the same position, so the same map
        try:
            if action["type"] == "standing":
                do_standing(state, seat, action, self.legal_actions(state, seat))
            else:
                decision_of(state).answer(state, seat, action)
            advance(state)
        finally:
            done_changing(state)
        return state

    def result(self, state: dict) -> dict | None:
        if not state["over"]:
            return None
        places, vectors = ranking(state)
        return {"ranking": places,
                "scores": {str(s): vectors[s][0] for s in range(state["players"])},
                "colors_weakest_first": {str(s): vectors[s] for s in range(state["players"])},
                "points": {str(s): dict(state["points"][s]) for s in range(state["players"])},
                "treasures": {str(s): state["treasures_taken"][s]
                              for s in range(state["players"])},
                "end_reason": _(state["end_reason"])}

    def view(self, state: dict, seat: int | None) -> dict:
        return view_of(self, state, seat)

    def undoable(self, state: dict, seat: int, before: dict | None = None) -> bool:
        """May `seat` take back the step from `before` into `state` (pbem/log/undo.py)? Yes
        while it is still its own turn and the step was quiet: a tile or a leader placed, moved
        or withdrawn, a catastrophe, a monument built, a treasure taken, a standing answer.
        Undo stops at a draw (swapping tiles draws from the bag, the end of the turn refills
        the hands), at a revolt or a war (the defender is asked; support is committed) and
        when the turn passes."""
        if before is None or state["over"] or before["over"]:
            return False
        turn, was = state["turn"], before["turn"]
        return (turn["active"] == was["active"] == seat
                and self._own_decision(state, seat) and self._own_decision(before, seat)
                and len(state["bag"]) == len(before["bag"])
                and turn["committers"] == was["committers"])

    @staticmethod
    def _own_decision(state: dict, seat: int) -> bool:
        """Nothing pending, or a decision of `seat` that is no conflict's."""
        decision = decision_of(state)
        return state["pending"] is None or (not decision.conflict
                                            and decision.seat(state) == seat)

    def determinize(self, view: dict, seat: int, rng: random.Random) -> dict:
        """A full state whose `view(state, seat)` is `view`, built from the view alone.

        Inferred: everything the view shows (the board, the monuments and the colour under
        each, the declined squares, the tile placed in the action under way, whose turn, the
        decision or conflict waiting and so the steps left), the seat's own hand, points,
        treasures and standing answers, every hand's size, and who committed tiles this turn
        (a player not on turn holding fewer than 6). Drawn at random from the tiles not seen
        (each colour's total less the board, the seat's hand and the tiles just committed in
        the conflict under way): the other hands, the bag's order and content, the colours of
        the tiles out of the game; the others' treasures are dealt among them at random.
        Assumed: hidden points equal the seat's own, others' standing answers are "ask me",
        a drawn seed. See determinize.py."""
        return determinize_view(view, seat, rng, {decision: "ask" for decision in STANDING})

    def describe(self, state: dict, seat: int, action: dict) -> str:
        return describe_action(self, state, seat, as_now(action))

    def dump(self, state: dict) -> dict:
        return copy_json(state)

    def load(self, data: dict) -> dict:
        if not isinstance(data, dict) or "board" not in data:
            raise ValueError("not a Tigris & Euphrates state")
        return copy_json(data)

    def turn_of(self, state: dict) -> list:
        """The turn being played: the active player's (a new one begins with the next
        player); the decisions of a conflict belong to the turn whose action caused it."""
        return [state["turn"]["active"]]

    def default_action(self, state: dict, seat: int) -> dict:
        """The move played for `seat` when its deadline passes (pbem's pace rules, not the
        rulebook's): the turn's action is passed ("Passz", an action of its own); in a revolt or
        a war no tiles are committed as support (0); of several wars the first leader in the
        pending order is chosen; a monument is declined; the trader takes the first choice of
        treasures by board order (the rules force the taking).

        A default plays the whole decision: a missed turn is one decision, so the server plays
        these defaults for every question `seat` is asked until the turn ends (`turn_of`): the
        turn's action is passed, which ends it, and a seat that missed its support in a conflict
        commits none in every later conflict of that turn too, without being asked again."""
        default = decision_of(state).default(state)
        return as_before(default) if speaks_as_before(version_of(state)) else default


__all__ = ["TigrisRules"]
