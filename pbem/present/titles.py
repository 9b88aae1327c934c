"""A game's name and title in the reader's language, for pages and mail alike."""
from __future__ import annotations

from . import gettext as _

from ..games import RULES


def game_name(rules_name: str, default: str = "") -> str:
    """A game's name in the page's language: its engine's `title`, through the catalogues
    (pbem's own and the game's translations/)."""
    rules = RULES.get(rules_name)
    return _(rules.title) if rules is not None else default or rules_name


def title_of(game) -> str:
    """The game's title, its game's name in the page's language when the title is the
    default one ("<game>: <players>"); a host's own title stays as it was written."""
    if game is None:
        return ""
    rules = RULES.get(game.rules)
    if rules is not None and game.title.startswith(rules.title + ": "):
        return game_name(game.rules, rules.title) + game.title[len(rules.title):]
    return game.title
