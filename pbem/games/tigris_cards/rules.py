"""`TigrisCards`: Euphrat & Tigris, the card game, behind the `Rules` protocol."""
from __future__ import annotations

from pbem.games.base import IllegalAction, _, check_options, copy_json

from . import views
from . import codes as reply_codes
from .determinize import determinize
from .actions import (canonical, is_listed, legal_actions, of_json_types, options_are_public,
                      why_illegal)
from .engine import advance, answer_decision, copy_state, new_state, plain_state, take_action
from .scoring import final_ranking


class TigrisCards:
    name = "tigris_cards"
    title = "Euphrat & Tigris: the card game"
    version = 3          # 2: a start player drawn from the seed; the "stalled" end (engine.py);
    #                      3: the record of what answers say of each hand (hand_record.py)
    oldest_version = 1
    min_players = 2
    max_players = 4
    options = {"open_piles": False}

    # ---- Setup ----
    def setup(self, players: int, seed: int, options: dict | None = None,
              version: int | None = None) -> dict:
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise IllegalAction(f"{self.title} takes 2 to 4 players, not {players!r}")
        if type(seed) is not int:
            raise IllegalAction(f"the seed must be a whole number, not {seed!r}")
        version = self.version if version is None else version
        if type(version) is not int or not self.oldest_version <= version <= self.version:
            raise IllegalAction(f"{self.title} has rules versions {self.oldest_version} to "
                                f"{self.version}, not {version!r}")
        return new_state(players, seed, check_options(self, options), version)

    # ---- Who acts and what they may do ----
    def to_act(self, state: dict) -> list[int]:
        pending = state["pending"]
        return [] if state["over"] or pending is None else [pending["seat"]]

    def codes(self, view: dict, actions: list[dict]) -> list[str]:
        """Optional member: one reply code per action, in the players' words (codes.py)."""
        return reply_codes.codes(view, actions)

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        return legal_actions(state, seat)

    def forced(self, state: dict, seat: int, actions: list[dict]) -> bool:
        """A single answer is played at once only when it follows from public information: a
        seat without a card of the colour asked for is asked like one who holds some
        ("declining and having none look alike"). Standing answers never reach the server:
        the engine applies them itself."""
        pending = state["pending"]
        return pending is None or options_are_public(state, pending)

    def apply(self, state: dict, seat: int, action: dict) -> dict:
        self._check(state, seat, action)
        st = copy_state(state)
        if action["type"] == "standing":
            st["prefs"][seat][action["decision"]] = action["answer"]
        else:
            pending, st["pending"] = st["pending"], None
            if pending["kind"] == "action":
                take_action(st, seat, action)
            else:
                answer_decision(st, pending, action)
        advance(st)
        return st

    def _check(self, state: dict, seat, action) -> None:
        if state["over"]:
            raise IllegalAction(_("the game is over"))
        waiting = self.to_act(state)
        if seat not in waiting or type(seat) is not int:
            raise IllegalAction(f"seat {seat!r} is not to act now; the game waits for seat "
                                f"{waiting[0]}")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("an action must be a JSON object with a string 'type'")
        if is_listed(state, seat, action):  # the quick answer for a listed action
            return
        try:
            key = canonical(action)
        except (TypeError, ValueError):
            raise IllegalAction("an action must hold only plain JSON values") from None
        # `is_listed` finds every listed action whose fields are of JSON's own types; one with
        # other types (a str subclass, say) may still be listed by its JSON
        if of_json_types(action) or \
                key not in {canonical(legal) for legal in legal_actions(state, seat)}:
            try:
                reason = why_illegal(state, seat, action)
            except Exception:  # a malformed action must still get a plain answer
                reason = f"that action is not legal now: {key}"
            raise IllegalAction(reason)

    # ---- What players see ----
    def view(self, state: dict, seat: int | None) -> dict:
        return views.view(state, seat, self.to_act(state))

    def describe(self, state: dict, seat: int, action: dict) -> str:
        try:
            return views.describe(state, seat, action)
        except Exception:
            return _("{p} acted.").format(p=f"{{p{seat}}}")

    def result(self, state: dict) -> dict | None:
        if not state["over"]:
            return None
        return {**final_ranking(state["piles"]), "end": state["end"]}

    # ---- Undo within a turn (pbem/log/undo.py) ----
    HIDDEN = ("deck", "removed", "discard")

    def undoable(self, state: dict, seat: int, before: dict | None = None) -> bool:
        """May `seat` take back the step from `before` into `state`? Yes while it is still its
        own turn, a decision of its own is pending and the step was quiet: a card played into
        a column or a gap (face down too: it stays hidden), a leader placed or moved, a
        catastrophe, a point scored from a placement in its own kingdom, a ship bought.
        Undo stops when a card is drawn or turned (the end of the turn refills the hands), at
        any conflict (the other side is asked, cards are committed), when another seat is asked
        (scoring from hand, the trader's exchange) or answers by its standing answer, and when
        the turn passes."""
        if before is None or state["over"] or before["over"]:
            return False
        others = [t for t in range(state["players"]) if t != seat]
        return (state["active"] == before["active"] == seat
                and state["turn"] == before["turn"]
                and (state["pending"] or {}).get("seat") == seat
                and state["conflict"] is None and before["conflict"] is None
                and all(state[part] == before[part] for part in self.HIDDEN)
                and all(state["hands"][t] == before["hands"][t]
                        and state["piles"][t] == before["piles"][t] for t in others))

    # ---- Computer players ----
    def determinize(self, view: dict, seat: int, rng) -> dict:
        """A full state whose view for `seat` is `view`, the cards the seat cannot see drawn
        from `rng` (determinize.py says what is inferred and what is drawn)."""
        return determinize(view, seat, rng)

    # ---- Storage ----
    def dump(self, state: dict) -> dict:
        return plain_state(state)

    def load(self, data: dict) -> dict:
        return copy_json(data)

    # ---- Pace (pbem's rule, not the rulebook's) ----
    def turn_of(self, state: dict) -> list:
        """The turn being played (the rulebook's turn of two actions, with the conflicts and
        decisions they cause): the turn counter, which the next player's turn moves on."""
        return [state["turn"]]

    def default_action(self, state: dict, seat: int) -> dict:
        """The move played for `seat` when its deadline passes: the turn's action is passed;
        no point is scored from the hand, no ship is bought, no cards are committed (0), no
        treasure is exchanged; where an order of conflicts must be chosen, the first colour
        listed (the rulebook's colour order) goes first.

        A default plays the whole decision: a missed turn is one decision, so the server plays
        these defaults for every question `seat` is asked until the turn ends (`turn_of`): both
        of the turn's actions are passed and the turn ends; a seat that missed a decision in
        another player's turn answers that turn's later ones by default too, unasked."""
        pending = state["pending"]
        kind = pending["kind"] if pending else "action"
        answers = {"action": {"type": "pass"}, "score": {"type": "no_score"},
                   "reward": {"type": "no_score"}, "ship": {"type": "no_ship"},
                   "commit": {"type": "commit", "count": 0},
                   "exchange": {"type": "no_exchange"}}
        if kind in answers:
            return answers[kind]
        return {"type": "conflict", "colour": pending["colours"][0]}
