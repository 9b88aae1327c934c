"""The rulebook's words for colours, tile kinds and leaders, in the language being spoken.

Each phrase is its own message so that a language with cases (Hungarian) can say it right.
"""
from __future__ import annotations

from pbem.games.base import _


def colour(color: str) -> str:
    return {"red": _("red"), "blue": _("blue"), "green": _("green"), "black": _("black")}[color]


def kind(color: str) -> str:
    return {"red": _("temple"), "blue": _("farm"), "green": _("market"),
            "black": _("settlement")}[color]


def their_leader(name: str) -> str:
    """As the object of "placed", "moved", "withdrew": "their king"."""
    return {"king": _("their king"), "priest": _("their priest"), "farmer": _("their farmer"),
            "trader": _("their trader")}[name]


def whose_leader(name: str, p: str) -> str:
    """"{p}'s king"."""
    return {"king": _("{p}'s king"), "priest": _("{p}'s priest"), "farmer": _("{p}'s farmer"),
            "trader": _("{p}'s trader")}[name].format(p=p)


def leaders_plural(name: str) -> str:
    return {"king": _("kings"), "priest": _("priests"), "farmer": _("farmers"),
            "trader": _("traders")}[name]


def the_war(name: str) -> str:
    """As the object of "won", "chose": "the war of the kings"."""
    return {"king": _("the war of the kings"), "priest": _("the war of the priests"),
            "farmer": _("the war of the farmers"), "trader": _("the war of the traders")}[name]


def war_title(name: str) -> str:
    """Heading a line: "war of the kings"."""
    return {"king": _("war of the kings"), "priest": _("war of the priests"),
            "farmer": _("war of the farmers"), "trader": _("war of the traders")}[name]


def war_prompt(name: str) -> str:
    """Heading a prompt: "War of the kings"."""
    return {"king": _("War of the kings"), "priest": _("War of the priests"),
            "farmer": _("War of the farmers"), "trader": _("War of the traders")}[name]


def in_the_war(name: str) -> str:
    return {"king": _("in the war of the kings"), "priest": _("in the war of the priests"),
            "farmer": _("in the war of the farmers"),
            "trader": _("in the war of the traders")}[name]


def monument(name: str) -> str:
    first, second = name.split("/")
    return f"{colour(first)}/{colour(second)}"


def leader(name: str) -> str:
    return {"king": _("king"), "priest": _("priest"), "farmer": _("farmer"),
            "trader": _("trader")}[name]


def your_leader(name: str) -> str:
    """"your king", in a player's refusal."""
    return {"king": _("your king"), "priest": _("your priest"), "farmer": _("your farmer"),
            "trader": _("your trader")}[name]
