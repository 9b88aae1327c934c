"""The words of the actions by rules version.

Version 3 speaks as the card game does: a tile's colour is "colour" (`{"type": "place_tile",
"colour": "red", "at": [r, c]}`) and the tiles committed are a "count" (`{"type": "commit",
"count": 2}`). Versions 1 and 2 said "color" and "tiles". The engine speaks version 3; a game of
an older version is spoken to in its own words at the door (game.py): the actions it is offered,
its default moves and the refusals it gets, so that its recorded events replay and verify as
they were played.
"""
from __future__ import annotations

import functools

from pbem.games.base import Action

FIRST_OF_ITS_WORDS = 3
# action type: (the key now, the key before version 3)
RENAMED = {"place_tile": ("colour", "color"), "commit": ("count", "tiles")}


def speaks_as_before(version: int) -> bool:
    return version < FIRST_OF_ITS_WORDS


def version_of(state: dict) -> int:
    return state.get("version", 1)


def _renamed(action: dict, old: str, new: str) -> dict:
    renamed = {new if key == old else key: value for key, value in action.items()}
    return Action(**renamed) if isinstance(action, Action) else renamed


@functools.cache
def _place_tile_before(colour: str, row: int, col: int) -> Action:
    """The older words of a listed tile placement, made once (legal_actions lists hundreds)."""
    return Action(type="place_tile", color=colour, at=[row, col])


def as_before(action: dict) -> dict:
    """The action in the words of versions 1 and 2."""
    kind = action.get("type")
    if kind == "place_tile" and isinstance(action, Action):
        return _place_tile_before(action["colour"], *action["at"])
    if kind in RENAMED:
        now, before = RENAMED[kind]
        return _renamed(action, now, before)
    return action


def as_now(action: dict) -> dict:
    """The action in version 3's words (an action already in them is left as it is)."""
    kind = action.get("type")
    if kind in RENAMED:
        now, before = RENAMED[kind]
        if before in action and now not in action:
            return _renamed(action, before, now)
    return action


def refusal_as_before(message: str) -> str:
    """A refusal that names a key, in the older words."""
    for now, before in RENAMED.values():
        message = message.replace(f"'{now}'", f"'{before}'")
    return message
