"""Undo within a turn: which of a seat's actions it may still take back, and replay with undos.

The log stays append-only: an undo is an event of its own, `{"type": "undo"}` by the seat, and
the state after it is the state before the action it takes back. The seat on turn keeps an
undo *stretch*: the states before its actions that it may still take back, oldest first. An
action of the seat opens or extends the stretch when the step was quiet, which the engine's
optional `undoable(state, seat, before)` says (see pbem/games/base.py): still that seat's turn,
nobody else asked, nothing hidden revealed; a forced move of the same seat that is as quiet
keeps it (the undo takes it back with the action); anything else closes it: a step that is not
quiet, any move of another seat, a move played at a deadline. Undo pops the stretch, step by
step back to the start of the turn. Live play keeps the stretch in the game's row
(`Game.undo`); a replay rebuilds it from the events, so both meet the same rules.

Nothing here touches the database: `store` writes, `importing` and `check` replay with it.
"""
from __future__ import annotations

from ..errors import Refusal
from ..games.base import IllegalAction, _, set_up
from . import ending
from .chain import in_every_language

UNDO = {"type": "undo"}


class UndoRefused(Refusal):
    """The seat may not take back its last action now (the reason says why)."""

    status = 409


class BeforeCheckpoint(LookupError):
    """An undo reaches back before the state a replay started from (`checkpoint`, its seq):
    replay from an earlier one."""

    def __init__(self, message: str, checkpoint: int = 0):
        super().__init__(message)
        self.checkpoint = checkpoint


def is_undo(action) -> bool:
    return isinstance(action, dict) and action.get("type") == "undo"


def quiet(rules, before, after, seat: int) -> bool:
    """Whether `seat`'s step from `before` to `after` may be taken back: the engine has the
    hook, and says so, and `seat` alone is asked now."""
    hook = getattr(rules, "undoable", None)
    if hook is None or rules.to_act(after) != [seat]:
        return False
    return bool(hook(after, seat, before))


def after_step(rules, stretch, before, after, seat, automatic=False, timeout=False):
    """The stretch after the event `seat` played from `before` to `after` (not an undo)."""
    if timeout or not quiet(rules, before, after, seat):
        return None
    if automatic:
        return stretch if stretch and stretch["seat"] == seat else None
    kept = stretch["states"] if stretch and stretch["seat"] == seat else []
    return {"seat": seat, "states": kept + [rules.dump(before)]}


def line(seat: int) -> dict:
    """The log's line of an undo, in every language (public, as the undone action's was)."""
    said = in_every_language(lambda: _("{player} took back their last action."))
    return {language: text.replace("{player}", f"{{p{seat}}}") for language, text in said.items()}


def may_undo(rules, stretch, state, seat: int) -> bool:
    """Whether `seat` may take back its last action now."""
    return bool(stretch and stretch["seat"] == seat and stretch["states"]
                and seat in rules.to_act(state))


def why_not_undo(rules, stretch, state, seat: int) -> str:
    """Why `seat` may not undo now, in the language being spoken."""
    if seat not in rules.to_act(state):
        return _("you can undo only while it is still your turn")
    if getattr(rules, "undoable", None) is None:
        return _("this game has no undo")
    return _("there is nothing to undo: you are at the start of your turn, or since your last "
             "action something hidden was revealed or another player was asked")


def undone(rules, stretch, state, seat: int):
    """(state before the seat's last action, the stretch after the undo); IllegalAction when
    the seat may not undo now."""
    if not may_undo(rules, stretch, state, seat):
        raise IllegalAction(why_not_undo(rules, stretch, state, seat))
    states = stretch["states"]
    left = {"seat": seat, "states": states[:-1]} if len(states) > 1 else None
    return rules.load(states[-1]), left


class Replay:
    """A log's states event by event, undos included (`state`, `stretch` after each step).
    Started from a checkpoint (`state` given: the state after event `checkpoint`), the stretch
    is known from there on only: an undo that reaches before it raises BeforeCheckpoint, and
    the caller replays from an earlier checkpoint (or the seed)."""

    def __init__(self, rules, state=None, checkpoint: int = 0):
        self.rules, self.state, self.stretch = rules, state, None
        self.from_checkpoint, self.checkpoint = state is not None, checkpoint

    def step(self, seq: int, seat, action, automatic=False, timeout=False):
        rules = self.rules
        if seq == 0:
            self.state = set_up(rules, action["players"], action["seed"], action["options"],
                                action.get("rules_version"))
            self.stretch, self.from_checkpoint = None, False
        elif ending.is_ending(action):
            pass        # a resignation or an abandon's answer changes no state (ending.py)
        elif is_undo(action):
            if self.from_checkpoint and not may_undo(rules, self.stretch, self.state, seat):
                raise BeforeCheckpoint(f"the undo of move {seq} reaches before the checkpoint "
                                       f"at move {self.checkpoint}", self.checkpoint)
            self.state, self.stretch = undone(rules, self.stretch, self.state, seat)
        else:
            before = self.state
            self.state = rules.apply(before, seat, action)
            self.stretch = after_step(rules, self.stretch, before, self.state, seat,
                                      automatic, timeout)
        return self.state
