"""Reading numbers and JSON from outside: ASCII digits within range, JSON of bounded depth.

`str.isdigit()` and `int()` accept far more than a form or URL should carry: `²` passes
isdigit() and fails int(); `٣` (Arabic-Indic three) is read as 3; an id past 2**63 overflows
SQLite. Python's json parser recurses once per nesting level, so a body nested 1,000 deep is a
RecursionError. Everything here answers ValueError instead, which the routes turn into 400/404 and the
commands into one line (it sits below both).

Every check runs in time linear in its input, on whatever a stranger sends: the depth scan
deletes strings with a possessive pattern that always matches from a quote (to the closing
quote, or to the end of an unterminated string), so no quote is ever scanned twice; a
backtracking string pattern took 30 s on `"` + `\\"` x 32,000.
"""
from __future__ import annotations

import json
import math
import re
from itertools import accumulate

MAX_INT = 2**31 - 1          # PostgreSQL's integer: ids, seats, seqs all fit
MAX_JSON_DEPTH = 32          # actions are a few levels deep; bodies {"seq", "action": {...}}
MAX_JSON_DIGITS = 30         # no move, seq or seed is written with more digits than this
_DIGITS = re.compile(r"-?[0-9]{1,10}")
# a string: closed, or running to the end of the text (possessive: never backtracks)
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def ascii_int(raw, low: int = 0, high: int = MAX_INT) -> int:
    """The integer written in ASCII digits in `raw` (a str), within [low, high]; else ValueError."""
    if not isinstance(raw, str) or not _DIGITS.fullmatch(raw.strip()):
        raise ValueError(f"{raw!r} is not a whole number written in digits 0-9")
    value = int(raw.strip())
    if not low <= value <= high:
        raise ValueError(f"{value} is not between {low} and {high}")
    return value


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in `text` (strings skipped), without parsing,
    in one linear pass."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _bounded_number(read):
    """A json number hook that refuses numbers of more than MAX_JSON_DIGITS digits (Python
    reads a 4,000-digit integer) and floats too large to be finite (`1e999` is infinity)."""
    def number(raw: str):
        if len(raw) > MAX_JSON_DIGITS:
            raise ValueError(f"a number has more than {MAX_JSON_DIGITS} digits")
        value = read(raw)
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{raw} is too large a number")
        return value
    return number


def parse_json(text, max_depth: int = MAX_JSON_DEPTH):
    """`text` (str or bytes) as JSON, or ValueError: malformed, NaN/Infinity, numbers of more
    than MAX_JSON_DIGITS digits, or nested deeper than `max_depth`."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("the body is not UTF-8 text") from None
    if json_depth(text) > max_depth:
        raise ValueError(f"JSON nested more than {max_depth} levels deep")
    try:
        return json.loads(text, parse_constant=_no_constant, parse_int=_bounded_number(int),
                          parse_float=_bounded_number(float))
    except RecursionError:          # cannot happen below max_depth; never a 500 all the same
        raise ValueError(f"JSON nested more than {max_depth} levels deep") from None
