"""Reading numbers and JSON from outside: ASCII digits within range, JSON of bounded depth.

`str.isdigit()` and `int()` accept far more than a form or URL should carry: `²` passes
isdigit() and fails int(); `٣` (Arabic-Indic three) is read as 3; an id past 2**63 overflows
SQLite. Python's json parser recurses once per nesting level, so a body nested 1,000 deep is a
RecursionError. Everything here answers ValueError instead, which the routes turn into 400/404.
"""
from __future__ import annotations

import json
import re

from werkzeug.routing import IntegerConverter

MAX_INT = 2**31 - 1          # PostgreSQL's integer: ids, seats, seqs all fit
MAX_JSON_DEPTH = 32          # actions are a few levels deep; bodies {"seq", "action": {...}}
_DIGITS = re.compile(r"-?[0-9]{1,10}")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def ascii_int(raw, low: int = 0, high: int = MAX_INT) -> int:
    """The integer written in ASCII digits in `raw` (a str), within [low, high]; else ValueError."""
    if not isinstance(raw, str) or not _DIGITS.fullmatch(raw.strip()):
        raise ValueError(f"{raw!r} is not a whole number written in digits 0-9")
    value = int(raw.strip())
    if not low <= value <= high:
        raise ValueError(f"{value} is not between {low} and {high}")
    return value


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in `text` (strings skipped), without parsing."""
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def parse_json(text, max_depth: int = MAX_JSON_DEPTH):
    """`text` (str or bytes) as JSON, or ValueError: malformed, NaN/Infinity, or nested deeper
    than `max_depth`."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("the body is not UTF-8 text") from None
    if json_depth(text) > max_depth:
        raise ValueError(f"JSON nested more than {max_depth} levels deep")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:          # cannot happen below max_depth; never a 500 all the same
        raise ValueError(f"JSON nested more than {max_depth} levels deep") from None


class BoundedInt(IntegerConverter):
    """`<int:...>` in routes: ASCII digits only, at most MAX_INT (larger ids are simply not
    found, never an OverflowError from the database)."""

    regex = r"[0-9]{1,10}"

    def __init__(self, map, *args, **kwargs):
        kwargs.setdefault("max", MAX_INT)
        super().__init__(map, *args, **kwargs)
