"""The game registry: `RULES[name]` is the rules engine of that game."""
from __future__ import annotations

from .base import IllegalAction, Rules, check_options

RULES: dict[str, Rules] = {}


def register(rules: Rules) -> Rules:
    """Add a rules engine to the registry (tests register their own small games)."""
    RULES[rules.name] = rules
    return rules


def _register_the_games() -> None:
    from . import assyria, tigris, tigris_cards

    for game in (tigris, tigris_cards, assyria):
        register(game.rules)


_register_the_games()


__all__ = ["RULES", "IllegalAction", "Rules", "check_options", "register"]
