"""The contract between the server and every game: the `Rules` protocol.

A game is a pure, deterministic rules engine: no Flask, no database, no clock,
no global random. The server only ever talks to a game through this protocol.
"""
from __future__ import annotations

import functools
import gettext
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from ..errors import Refusal

State = Any  # each game chooses its own state type; dump/load make it JSON

# -- languages -----------------------------------------------------------------------------------
# Engines write their player-facing words (describe, prompts) as _("English text"); the server
# chooses the language with `speaking(...)`. The catalogues are the ones the pages use: gettext
# .mo files in pbem/translations and in each game's own translations/ folder, read here with
# the standard library (no Flask).

LANGUAGES = ("en", "hu")
PACKAGE = Path(__file__).resolve().parent.parent
# The games that come with pbem: every package in pbem/games/. `pbem.games` registers them, and
# the games of installed distributions, in RULES; each registered game's translations/ folder
# joins TRANSLATION_DIRECTORIES (pbem's own first: it wins).
GAME_PACKAGES = tuple(sorted(folder.name for folder in (PACKAGE / "games").iterdir()
                             if (folder / "__init__.py").is_file()))
TRANSLATION_DIRECTORIES = [str(PACKAGE / "translations")]
_language: ContextVar[str] = ContextVar("pbem_language", default="en")


@functools.cache
def _catalogue(language: str) -> gettext.NullTranslations:
    catalogue = gettext.NullTranslations()
    for folder in reversed(TRANSLATION_DIRECTORIES):
        found = gettext.translation("messages", PACKAGE / folder, languages=[language],
                                    fallback=True)
        found.add_fallback(catalogue)
        catalogue = found
    return catalogue


_TRANSLATED: dict[str, dict[str, str]] = {language: {} for language in LANGUAGES}


def add_translations(folder: Path) -> None:
    """Merge a game's catalogues (`folder`/<language>/LC_MESSAGES/messages.mo) into the
    engines' and pages' ones, after those already there: an earlier folder wins."""
    if folder.is_dir() and str(folder) not in TRANSLATION_DIRECTORIES:
        TRANSLATION_DIRECTORIES.append(str(folder))
        _catalogue.cache_clear()
        for known in _TRANSLATED.values():
            known.clear()


def _(message: str) -> str:
    """`message` in the language being spoken (English when no translation exists). Known
    messages are one dictionary lookup: legal_actions words its reasons hundreds of times a
    call, and the catalogue's own lookup walks a chain of one catalogue per game."""
    language = _language.get()
    known = _TRANSLATED[language]
    text = known.get(message)
    if text is None:
        text = known[message] = _catalogue(language).gettext(message)
    return text


def ngettext(singular: str, plural: str, n: int) -> str:
    return _catalogue(_language.get()).ngettext(singular, plural, n)


def current_language() -> str:
    return _language.get()


def set_language(language: str) -> None:
    _language.set(language if language in LANGUAGES else "en")


@contextmanager
def speaking(language: str):
    """Within this block, engines speak `language`."""
    token = _language.set(language if language in LANGUAGES else "en")
    try:
        yield
    finally:
        _language.reset(token)


class IllegalAction(Refusal, ValueError):
    """Raised by `Rules.apply` when an action is not legal for that seat now; its message is
    the engine's own reason, in the language being spoken (a Refusal with status 422)."""

    status = 422


@runtime_checkable
class Rules(Protocol):
    name: str                 # "tigris", "tigris_cards", "assyria"
    title: str
    version: int              # bumped when a change would alter the replay of an old log
    min_players: int
    max_players: int
    options: dict             # option name -> default (e.g. {"english_variant": False})

    def setup(self, players: int, seed: int, options: dict | None = None,
              version: int | None = None) -> State:
        """The starting state; all shuffling happens here, from the seed.

        `version` is the rules version the game was created with (None: the current one). An
        engine that keeps an older version's behaviour for old logs (see `oldest_version` below)
        sets up that version's state, which then says how the game goes on; the store passes
        it only when it differs from `version`, so an engine that replays only its current
        version need not accept it."""

    def to_act(self, state: State) -> list[int]:
        """Seats the game waits for; [] when the game is over."""

    def legal_actions(self, state: State, seat: int) -> list[dict]:
        """Every legal action of `seat` now; [] when the seat is not to act."""

    def apply(self, state: State, seat: int, action: dict) -> State:
        """The state after `seat` takes `action`; raises IllegalAction."""

    def view(self, state: State, seat: int | None) -> dict:
        """What `seat` may see (None: a spectator), JSON-ready."""

    def result(self, state: State) -> dict | None:
        """None while running; else {"ranking": [[seat, ...], ...], ...} best first."""

    def describe(self, state: State, seat: int, action: dict) -> str:
        """One public line saying what `seat` did with `action` (state: before it)."""

    def dump(self, state: State) -> dict:
        """JSON-ready; load(dump(s)) == s."""

    def load(self, data: dict) -> State:
        """The state that `dump` wrote."""

    def default_action(self, state: State, seat: int) -> dict:
        """The move played for `seat` when it misses a deadline (a game with a pace): one of
        `legal_actions(state, seat)`, deterministic, the most passive there is (pass, decline,
        commit nothing; where the rules force a choice, the first by a fixed order). Each
        engine's docstring says which rule it follows."""

    def forced(self, state: State, seat: int, actions: list[dict]) -> bool:
        """Whether `actions`, the single legal action of `seat`, may be played at once by the
        server as an automatic event (`store` asks only when `legal_actions` lists one).

        Hidden information includes timing: whether a seat is asked, and whether its answer is
        automatic, must never depend on its hidden holdings. An engine answers False when the
        single option follows from the seat's hidden holdings (a defender with no tile of the
        conflict's colour can only commit 0, but is asked like one who holds some), and True
        when it follows from public information or from the seat's own standing answer.
        Optional: for an engine without it, every single option is forced (`is_forced`)."""
        return True


# What a game must have for the server to play it: the members of `Rules` that are not marked
# optional (forced, oldest_version, determinize, undoable are).
REQUIRED_MEMBERS = ("name", "title", "version", "min_players", "max_players", "options",
                    "setup", "to_act", "legal_actions", "apply", "view", "result", "describe",
                    "dump", "load", "default_action")


def why_not_rules(rules) -> str | None:
    """What keeps `rules` from being a game the server can host, in words; None if nothing."""
    missing = [member for member in REQUIRED_MEMBERS if not hasattr(rules, member)]
    if missing:
        return f"{rules!r} lacks {', '.join(missing)} of the Rules protocol"
    if not (isinstance(rules.name, str) and rules.name.isidentifier()
            and rules.name == rules.name.lower()):
        return f"its name {rules.name!r} is not a lower-case identifier such as 'tigris'"
    if not isinstance(rules.title, str) or not rules.title:
        return f"its title {rules.title!r} is not a text"
    if not (isinstance(rules.min_players, int) and isinstance(rules.max_players, int)
            and 1 <= rules.min_players <= rules.max_players):
        return f"min_players {rules.min_players!r} and max_players {rules.max_players!r} " \
               "are not a range of player counts"
    if not isinstance(rules.options, dict) or not isinstance(rules.version, int):
        return "its options are not a dict, or its version not an int"
    return None


def default_move(rules: Rules, state: State, seat: int) -> dict | None:
    """The move to play for `seat` at its deadline, or None when there is none to play safely:
    the engine's own `default_action`, and only when it is one of the legal actions now. There
    is no generic guess (such as "the first legal action", which could be a costly move): an
    engine without a default, or with an answer that is not legal, leaves the seat waiting."""
    choose = getattr(rules, "default_action", None)
    if choose is None or seat not in rules.to_act(state):
        return None
    try:
        action = choose(state, seat)
    except (IllegalAction, LookupError, TypeError, ValueError):
        return None
    return action if action in rules.legal_actions(state, seat) else None


def turn_of(rules: Rules, state: State):
    """Which turn is being played in `state`, as JSON (the engine's optional `turn_of`): a
    missed deadline's default plays the whole decision, so the seat's defaults go on being
    played whenever it is asked until this value changes (the next player's turn). None for an
    engine without it: then the defaults go on while the seat stays asked."""
    hook = getattr(rules, "turn_of", None)
    return None if hook is None else hook(state)


# Optional members of the protocol, with the behaviour of an engine that lacks them.
#   turn_of(state)        the turn being played, as JSON (see `turn_of` above).
#   oldest_version: int   the oldest rules version whose logs the engine still replays
#                         (default: only its current `version`); see `setup`'s `version`.
#   undoable(state, seat, before=None) -> bool
#                         may `seat` take back the step from `before` into `state` (its own
#                         action, or a forced move of its own after it)? True only when it is
#                         still the seat's turn, no other seat was asked or answered (standing
#                         answers too), and nothing hidden was revealed to anyone (no tile or
#                         card drawn, no card turned, no hand shown); False without `before`.
#                         The log asks it after every step and keeps the states the seat may
#                         go back to (pbem/log/undo.py); each engine's docstring says when undo
#                         stops. Default: no undo.

def is_forced(rules: Rules, state: State, seat: int, actions: list[dict]) -> bool:
    """True when the server may play `seat`'s action at once: exactly one is legal, and the
    engine's `forced` hook (default: yes) says it follows from public information."""
    if len(actions) != 1:
        return False
    hook = getattr(rules, "forced", None)
    return True if hook is None else bool(hook(state, seat, actions))


def replayable_versions(rules: Rules) -> range:
    """The rules versions whose logs `rules` replays: `oldest_version` up to `version`."""
    return range(getattr(rules, "oldest_version", rules.version), rules.version + 1)


def set_up(rules: Rules, players: int, seed: int, options: dict | None,
           version: int | None = None) -> State:
    """`rules.setup` for a game created with rules `version` (None: the current one)."""
    if version is None or version == rules.version:
        return rules.setup(players, seed, options)
    if version not in replayable_versions(rules):
        raise ValueError(f"{rules.name} replays rules versions {replayable_versions(rules).start}"
                         f" to {rules.version}, not {version!r}")
    return rules.setup(players, seed, options, version=version)


def copy_json(value):
    """A deep copy of JSON-like data (dicts, lists, and immutable leaves such as str, int, tuple),
    several times faster than copy.deepcopy, which `apply` pays for on every action. Leaves are
    kept without a call each."""
    kind = type(value)
    if kind is dict:
        return {key: copy_json(item) if type(item) in _NESTED else item
                for key, item in value.items()}
    if kind is list:
        copied = value[:]
        for index, item in enumerate(copied):
            if type(item) in _NESTED:
                copied[index] = copy_json(item)
        return copied
    return value


_NESTED = (dict, list)   # what copy_json copies; anything else (subclasses too) is a leaf


class Action(dict):
    """An action an engine makes once and hands out again and again (to every position that
    offers it): a plain JSON object to every reader (json, ==, dict(...), .copy() give plain
    dicts), but it refuses to be changed, so a caller that edits one cannot spoil the next
    position's list. `copy_json` keeps it as it is, like any other immutable leaf; the lists
    inside are shared too, and nobody changes them."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("an action from legal_actions is shared: copy it (dict(action)) "
                        "before changing it")

    __setitem__ = __delitem__ = __ior__ = _refuse
    pop = popitem = setdefault = update = clear = _refuse

    def __reduce__(self):                   # copy.deepcopy, pickle: a plain dict
        return dict, (dict(self),)


def check_options(rules: Rules, options: dict | None) -> dict:
    """The game's options with defaults filled in; IllegalAction names what is allowed."""
    options = dict(options or {})
    unknown = sorted(set(options) - set(rules.options))
    if unknown:
        allowed = ", ".join(sorted(rules.options)) or "none"
        raise IllegalAction(f"unknown option {unknown[0]!r} for {rules.name}; allowed: {allowed}")
    merged = dict(rules.options)
    for key, value in options.items():
        default = rules.options[key]
        if not isinstance(value, type(default)):
            raise IllegalAction(
                f"option {key!r} of {rules.name} takes a {type(default).__name__}, not {value!r}")
        merged[key] = value
    return merged
