"""A game's name and title in the reader's language, for pages and mail alike."""
from __future__ import annotations

import re

from . import gettext as _

from ..games import RULES
from ..log.store import computer_name

# a computer's seat in a default title, as it was written when the game was made (in English)
COMPUTER_IN_TITLE = re.compile(r"Computer \(level ([1-3])\)")


def game_name(rules_name: str, default: str = "") -> str:
    """A game's name in the page's language: its engine's `title`, through the catalogues
    (pbem's own and the game's translations/)."""
    rules = RULES.get(rules_name)
    return _(rules.title) if rules is not None else default or rules_name


def title_of(game) -> str:
    """The game's title, its game's name and its computers' names in the page's language when
    the title is the default one ("<game>: <players>"); a host's own title stays as written."""
    if game is None:
        return ""
    rules = RULES.get(game.rules)
    if rules is not None and game.title.startswith(rules.title + ": "):
        players = COMPUTER_IN_TITLE.sub(lambda m: computer_name(int(m.group(1))),
                                        game.title[len(rules.title):])
        return game_name(game.rules, rules.title) + players
    return game.title
