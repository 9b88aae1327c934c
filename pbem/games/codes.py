"""Reply codes: a short text per legal action, so that a player can move by answering a mail.

A game's optional member `codes(view, actions) -> list[str]` names each action in the players'
own words ("red F7", "swap 2 red", "pass"); a game without it gets numbers ("1", "2", ...).
Codes are matched case-insensitively with every space ignored (`normal`), and `codes_of` makes
them unique in the position whatever the game answered: a repeated code is numbered.
"""
from __future__ import annotations

import re

SPACES = re.compile(r"\s+")
MAX_CODE = 60          # a code is one short line of a mail


def normal(code: str) -> str:
    """The form codes are compared in: lower case, no spaces at all ("Red  F7" -> "redf7")."""
    return SPACES.sub("", code).lower()


def numbered(actions: list[dict]) -> list[str]:
    """The generic codes of a game without its own: "1", "2", ... in the legal list's order."""
    return [str(i) for i in range(1, len(actions) + 1)]


def codes_of(rules, view: dict, actions: list[dict]) -> list[str]:
    """One code per action (same order), unique in the position once `normal`-ised."""
    own = getattr(rules, "codes", None)
    codes = None
    if own is not None:
        try:
            codes = [str(c) for c in own(view, actions)]
        except Exception:  # noqa: BLE001 - a plug-in's codes must not stop a mail or a page
            codes = None
    if codes is None or len(codes) != len(actions) or not all(
            normal(c) and len(c) <= MAX_CODE for c in codes):
        return numbered(actions)
    return unique(codes)


def unique(codes: list[str]) -> list[str]:
    """Codes with each repeated one (as compared) numbered: "pass", "pass #2", ..."""
    seen: dict[str, int] = {}
    taken = {normal(c) for c in codes}
    out = []
    for code in codes:
        key = normal(code)
        if key not in seen:
            seen[key] = 1
            out.append(code)
            continue
        n = seen[key]
        while True:
            n += 1
            candidate = f"{code} #{n}"
            if normal(candidate) not in taken:
                break
        seen[key] = n
        taken.add(normal(candidate))
        out.append(candidate)
    return out


def match(codes: list[str], text: str) -> int | None:
    """The index of the code `text` names (case and spaces aside), or None."""
    key = normal(text)
    for index, code in enumerate(codes):
        if normal(code) == key:
            return index
    return None


def pattern(codes: list[str]) -> list[str]:
    """One example of each kind of code (the first of those with the same first word: "red
    F7" for every red tile's square, "swap 1 red" for every swap): what a mail shows when
    there are too many codes to list."""
    kinds: dict[str, str] = {}
    for code in codes:
        kinds.setdefault(code.split()[0].lower() if code.split() else code, code)
    return list(kinds.values())
