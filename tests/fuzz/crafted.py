"""Crafted request bodies: pathological shapes for a JSON scanner or parser, of a chosen size.

Issue 18's reproduction was `"` + `\\"` x 32,000 (64,001 bytes): a backtracking string pattern
took 30 s on it. Each shape here is made to be slow for one kind of careless check (a regex
that backtracks, a loop per character in Python, recursion per level, int() of many digits).
Used by tests/server/test_linear_inputs.py and by the fuzzer (tests/fuzz/hostile.py).
"""
from __future__ import annotations


def _repeat(unit: str, size: int, head: str = "", tail: str = "") -> str:
    return head + unit * max((size - len(head) - len(tail)) // len(unit), 0) + tail


def _many_keys(size: int) -> str:
    keys, length = [], 2
    while length + len(f'"k{len(keys)}":0,') <= size:
        keys.append(f'"k{len(keys)}":0')
        length += len(keys[-1]) + 1
    return "{" + ",".join(keys) + "}"


def crafted_bodies(size: int) -> dict[str, str]:
    """Body texts of at most `size` bytes (all ASCII), by the name of their shape."""
    body = '{"seq": 0, "action": {"type": "pass", "note": '
    return {
        "quote_escapes": _repeat('\\"', size, head='"'),
        "quote_escapes_closed": _repeat('\\"', size, head='"', tail='"'),
        "backslashes": _repeat("\\", size, head='"'),
        "quote_backslash": _repeat('"\\', size),
        "escapes_in_action": _repeat('\\"', size, head=body + '"'),
        "unicode_escapes": _repeat("\\u0000", size, head='"', tail='"'),
        "quotes_only": _repeat('"', size),
        "deep_arrays": _repeat("[", size),
        "deep_objects": _repeat('{"a":', size),
        "deep_in_strings": _repeat('["', size),
        "empty_arrays": _repeat("[]", size, head="[", tail="]"),
        "many_keys": _many_keys(size),
        "many_strings": _repeat('"x",', size, head="[", tail='"x"]'),
        "many_numbers": _repeat("1,", size, head="[", tail="1]"),
        "huge_integer": _repeat("9", size, head='{"seq": ', tail="}"),
        "huge_exponent": _repeat("9", size, head='{"seq": 1e', tail="}"),
        "long_fraction": _repeat("0", size, head='{"seq": 0.', tail="1}"),
        "long_string": _repeat("x", size, head=body + '"', tail='"}}'),
        "whitespace": _repeat(" \t\n", size, head="{", tail="}"),
        "brackets_in_string": _repeat("[{", size, head='"', tail='"'),
    }
