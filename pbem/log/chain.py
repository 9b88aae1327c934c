"""The parts of the log that need no database: the hash chain, the shuffle commitment, the
guard of the legal list and the forced moves. `store` writes with them; `importing` and `check`
(pbem games check, offline) read records with them.
"""
from __future__ import annotations

import hashlib
import json
import re

from .. import validate
from ..games import RULES, IllegalAction, check_options
from ..games.base import LANGUAGES, _, is_forced, speaking

EXPORT_FORMAT = "pbem-game-record"


# -- the hash chain -----------------------------------------------------------------------------

def canonical(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def chain_hash(prev_hash: str, seq: int, seat, action: dict, automatic: bool, created_at: str,
               timeout: bool = False, bot: bool = False, played_by: str | None = None):
    payload = {"seq": seq, "seat": seat, "action": action, "automatic": automatic,
               "created_at": created_at}
    if timeout:     # only when true, so the events written before timeouts existed keep their hash
        payload["timeout"] = True
        if played_by is not None:   # why the default was played: on those recorded since 0.3.1
            payload["played_by"] = played_by
    if bot:         # the same: only the computer's moves carry it
        payload["bot"] = True
    return hashlib.sha256((prev_hash + canonical(payload)).encode()).hexdigest()


# -- who made a move ------------------------------------------------------------------------------
# `played_by` of a seat's event: its player ("player", an undo too), the server ("forced": its
# only move, automatic), the computer ("computer" on a computer's seat, "stand_in" for a
# player), or its default move and why (a TIMEOUT_MARKS key). Only a default's why says what the
# flags do not: it alone enters the hash (chain_hash); the others follow from the flags and the
# seat, and an import checks them against those.
COMPUTERS = ("computer", "stand_in")


def played_by(automatic: bool, timeout: bool, bot: str | None = None,
              why: str | None = None) -> str:
    """Who chose a move recorded with these flags (`bot`: COMPUTERS, `why`: a timeout's mark)."""
    if timeout:
        return why if why in TIMEOUT_MARKS else "deadline"
    if automatic:
        return "forced"
    return bot if bot in COMPUTERS else "player"




# -- the shuffle commitment ---------------------------------------------------------------------
# Published from move 0 (invitations, the game page, the API, exports); the seed and the salt
# are revealed when the game is over: anyone can then recompute it and replay the game.

COMMIT_PREFIX = "pbem-commit-1:"
SALT = re.compile(r"[0-9a-f]{32}")


def commitment(seed: int, salt: str) -> str:
    """sha256("pbem-commit-1:" + salt + ":" + str(seed)), lowercase hex."""
    return hashlib.sha256(f"{COMMIT_PREFIX}{salt}:{seed}".encode()).hexdigest()


def commitment_of(creation: dict) -> str | None:
    """The commitment of a game from its creation event; None for the games created before
    commitments (their creation has no salt)."""
    salt = creation.get("salt") if isinstance(creation, dict) else None
    return commitment(creation["seed"], salt) if salt is not None else None


# -- creating a game -----------------------------------------------------------------------------

def validate_new_game(rules_name: str, players: int, options: dict | None):
    """The rules and options of a new game, or validate.Invalid saying what is allowed."""
    if rules_name not in RULES:
        raise validate.Invalid(f"unknown game {rules_name!r}; choose one of: {', '.join(sorted(RULES))}")
    rules = RULES[rules_name]
    if not rules.min_players <= players <= rules.max_players:
        raise validate.Invalid(f"{rules.title} takes {rules.min_players} to {rules.max_players} "
                         f"players, not {players}")
    return rules, check_options(rules, options)




# -- the legal list and the forced moves ------------------------------------------------------

def listed_action(rules, state, seat: int, action: dict) -> dict:
    """The one of `legal_actions(state, seat)` equal to `action` as canonical JSON, else
    IllegalAction: one guard for every game, so nothing unlisted (an extra key, a 20 MB note,
    a float for an int) ever enters the log, whatever an engine's `apply` would tolerate."""
    wanted = canonical(action)
    for legal in rules.legal_actions(state, seat):
        if canonical(legal) == wanted:
            return legal
    raise IllegalAction(why_not(rules, state, seat, action))


REASON_LENGTH = 300


def why_not(rules, state, seat: int, action: dict) -> str:
    """The engine's own reason for refusing `action` (its IllegalAction, in the language being
    spoken) when the action has the shape of a listed one (the same keys and kinds of values:
    a leader on a square it may not take); else, and for anything the engine would take though
    it is not listed, a general reason. The answer never repeats what the request carried
    beyond a short reason."""
    if _shape(action) in {_shape(legal) for legal in rules.legal_actions(state, seat)}:
        try:
            rules.apply(state, seat, action)
        except IllegalAction as refused:
            reason = str(refused)
            if reason and len(reason) <= REASON_LENGTH:
                return reason
        except Exception:  # noqa: BLE001 - what the engine trips on: the general reason
            pass
    return _("that is not one of the actions you may take now")


def _shape(action: dict) -> tuple:
    """An action's type and its keys with the kinds of their values."""
    return (action.get("type"),) + tuple(sorted((key, type(value).__name__)
                                                for key, value in action.items()))



def in_every_language(say) -> dict:
    """{language: say()} for every language pbem speaks."""
    said = {}
    for language in LANGUAGES:
        with speaking(language):
            said[language] = say()
    return said


def kept_lines(summaries: dict, languages=None) -> dict:
    """What an event stores beside its English `summary`: its line in each other language
    of `languages`, the languages its table reads (None: every one pbem speaks), even where it
    reads as the English one (a language an event has is one it was described in). A line in
    any other language is described when it is read (pbem/log/lines.py): the English line was
    stored twice once, and a Hungarian one for tables where nobody reads Hungarian."""
    return {language: line for language, line in summaries.items()
            if language != "en" and (languages is None or language in languages)}


def stored_lines(summaries: dict, languages=None) -> dict:
    """An event's `summary` and `summaries` fields from its line in every language."""
    return {"summary": summaries["en"], "summaries": kept_lines(summaries, languages)}


def describe_in_every_language(rules, state, seat, action) -> dict:
    return in_every_language(lambda: rules.describe(state, seat, action))



def forced_move(rules, state):
    """(seat, action) of the first seat to act whose one legal action the rules let the server
    play (`is_forced`: never when that one option follows from the seat's hidden holdings),
    else None."""
    for seat in rules.to_act(state):
        actions = rules.legal_actions(state, seat)
        if is_forced(rules, state, seat, actions):
            return seat, actions[0]
    return None


# -- the lines of moves played by default ------------------------------------------------------

TIMEOUT_MARKS = {
    "deadline": lambda: _("{line} (played at the deadline)"),
    "absent": lambda: _("{line} (played by default for an absent player)"),
    "host": lambda: _("{line} (played by the host for {seat})"),
    "handover": lambda: _("{line} (played by default: the host handed {seat}'s moves over)"),
    "resigned": lambda: _("{line} (played by default: {seat} resigned)"),
}


PLAYED_BY = ("player", "forced", *COMPUTERS, *TIMEOUT_MARKS)


def computer_summaries(summaries: dict) -> dict:
    """The lines of a move the computer chose for a player (standing in for them)."""
    marked = in_every_language(lambda: _("{line} (played by the computer)"))
    return {language: marked.get(language, marked["en"]).replace("{line}", line)
            for language, line in summaries.items()}


def begin_lines() -> dict:
    """The creation event's line, in every language."""
    return in_every_language(lambda: _("The game begins."))


def marked_lines(summaries: dict, seat: int, timeout: bool, played_by: str | None,
                 recorded: str = "", stood_in: bool = False) -> dict:
    """A seat's move's lines as the log marks them: a default move with why it was played
    (`played_by`, recorded since 0.3.1; before, the TIMEOUT_MARKS key whose English line is the
    `recorded` one, else the deadline: a record picks among those lines, never writes one), a
    move the computer chose for a player (`stood_in`) as such; else as the rules say them."""
    if timeout:
        why = played_by if played_by in TIMEOUT_MARKS else next(
            (mark for mark in TIMEOUT_MARKS
             if timeout_summaries(summaries, seat, mark).get("en") == recorded), "deadline")
        return timeout_summaries(summaries, seat, why)
    return computer_summaries(summaries) if stood_in else summaries


def timeout_summaries(summaries: dict, seat: int, why: str) -> dict:
    """The lines of a timeout move, marked with why it was played (a TIMEOUT_MARKS key)."""
    marked = in_every_language(TIMEOUT_MARKS.get(why, TIMEOUT_MARKS["deadline"]))
    return {language: marked.get(language, marked["en"]).replace("{seat}", f"{{p{seat}}}")
            .replace("{line}", line) for language, line in summaries.items()}
