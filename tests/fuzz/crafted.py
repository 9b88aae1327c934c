"""Crafted request bodies: pathological shapes for a JSON scanner or parser, of a chosen size.

The reproduction was `"` + `\\"` x 32,000 (64,001 bytes): a backtracking string pattern
took 30 s on it. Each shape here is made to be slow for one kind of careless check (a regex
that backtracks, a loop per character in Python, recursion per level, int() of many digits).
Used by tests/web/test_linear_inputs.py and by the fuzzer (tests/fuzz/hostile.py).
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


# -- crafted game records ------------------------------------------------------

BIG = 5 * 1024 * 1024       # a 5 MB string


def rehashed(record: dict) -> dict:
    """`record` with its hash chain made anew, so only the other checks can refuse it."""
    from pbem.log import chain, store
    prev = ""
    for event in record["events"]:
        if isinstance(event, dict) and {"seq", "seat", "action", "automatic",
                                        "created_at"} <= set(event):
            timeout = event.get("timeout") is True
            try:
                prev = chain.chain_hash(prev, event["seq"], event["seat"], event["action"],
                                        event["automatic"], event["created_at"], timeout)
            except (TypeError, ValueError):
                continue
            event["hash"] = prev
    record["head_hash"] = prev
    return record


def _positions(record: dict, rules):
    """(index, state before, event) for every move of a sound record."""
    from pbem.games.base import set_up
    creation = record["events"][0]["action"]
    state = set_up(rules, creation["players"], creation["seed"], creation["options"],
                   record["rules_version"])
    for index, event in enumerate(record["events"][1:], start=1):
        yield index, state, event
        state = rules.apply(state, event["seat"], event["action"])


def crafted_records(record: dict, rules) -> dict:
    """Records made from a sound exported `record` of a game of `rules`, by the name of what
    is wrong with them; each a function that makes it (some hold 10 MB): a dict (imported as
    it is) or bytes (the JSON text of a file). Each one must be refused with a one-line message
    or imported faithfully; none may break a page."""
    import copy
    import json

    from pbem.games.base import default_move

    moves = list(_positions(record, rules))
    chosen = next(i for i, _s, e in moves if not e["automatic"])
    automatic = next((i for i, _s, e in moves if e["automatic"]), None)
    defaults = {i: default_move(rules, s, e["seat"]) for i, s, e in moves if not e["automatic"]}
    by_default = next((i for i, d in defaults.items() if d == moves[i - 1][2]["action"]), None)
    not_default = next((i for i, d in defaults.items() if d != moves[i - 1][2]["action"]), None)
    crafts: dict = {}

    def craft(name, change, rehash=True, raw=False):
        def make():
            changed = copy.deepcopy(record)
            result = change(changed)        # raw: the file's text; else changed in place
            if raw:
                return result
            return rehashed(changed) if rehash else changed
        crafts[name] = make

    def event(i):
        return lambda r: r["events"][i]

    def set_in(path_of, key, value):
        def change(r):
            path_of(r)[key] = value
        return change

    def drop(key, where=lambda r: r):
        def change(r):
            del where(r)[key]
        return change

    first, move = event(0), event(chosen)
    creation = lambda r: r["events"][0]["action"]   # noqa: E731
    text = lambda value: json.dumps(value).encode()  # noqa: E731
    # the record as a whole
    craft("not_an_object", lambda r: b"[1, 2, 3]", raw=True)
    craft("not_json", lambda r: b"{\"format\": \"pbem-game-record\", \"events\": [", raw=True)
    craft("not_utf8", lambda r: b"{\"format\": \"\xff\xfe\"}", raw=True)
    craft("nan", lambda r: text(r).replace(b'"seq": 1,', b'"seq": NaN,', 1), raw=True)
    craft("deep_json", lambda r: b'{"format": "pbem-game-record", "events": '
          + b"[" * 100_000 + b"]" * 100_000 + b"}", raw=True)
    craft("ten_megabytes", lambda r: text(dict(r, title="x" * (10 * 1024 * 1024))), raw=True)
    craft("seed_of_5000_digits", lambda r: text(r).replace(
        str(r["events"][0]["action"]["seed"]).encode(), b"9" * 5000, 1), raw=True)
    craft("deep_dict", lambda r: _nested(r, 5000), rehash=False)
    craft("wrong_format", set_in(lambda r: r, "format", "other"), rehash=False)
    craft("format_version_2", set_in(lambda r: r, "format_version", 2), rehash=False)
    craft("unknown_top_key", set_in(lambda r: r, "owner", "mallory"), rehash=False)
    craft("no_events", set_in(lambda r: r, "events", []), rehash=False)
    craft("events_an_object", set_in(lambda r: r, "events", {"0": 1}), rehash=False)
    craft("twenty_thousand_events", lambda r: r["events"].extend(
        [r["events"][-1]] * 20_000), rehash=False)
    craft("status_says_over", set_in(lambda r: r, "status",
                                     "running" if record["status"] == "over" else "over"))
    craft("head_hash_wrong", set_in(lambda r: r, "head_hash", "0" * 64), rehash=False)
    # the game's creation
    craft("unknown_rules", set_in(lambda r: r, "rules", "chess"), rehash=False)
    craft("rules_unlike_creation", set_in(creation, "rules", "assyria"))
    craft("rules_version_text", set_in(lambda r: r, "rules_version", "1"))
    craft("rules_version_99", lambda r: _set_version(r, 99))
    craft("creation_extra_key", set_in(creation, "owner", "mallory"))
    craft("creation_not_create", set_in(creation, "type", "attack"))
    craft("creation_with_a_seat", set_in(first, "seat", 0))
    craft("players_true", set_in(creation, "players", True))
    craft("players_99", set_in(creation, "players", 99))
    craft("seed_2_80", set_in(creation, "seed", 2**80))
    craft("seed_negative", set_in(creation, "seed", -1))
    craft("seed_text", set_in(creation, "seed", "5"))
    craft("seed_float", set_in(creation, "seed", 5.0))
    craft("options_unknown", set_in(creation, "options", {"cheat": True}))
    craft("names_unlike_seats", set_in(creation, "names", ["Mallory"] * len(r_names(record))))
    # seats, title, pace
    craft("seat_missing", lambda r: r["seats"].pop())
    craft("seat_with_an_email", set_in(lambda r: r["seats"][0], "email", "x@example.org"))
    craft("seat_name_5_mb", lambda r: _rename(r, 0, "x" * BIG))
    craft("seat_name_header", lambda r: _rename(r, 0, "Ann\r\nBcc: x@example.org"))
    craft("seat_language_xx", set_in(lambda r: r["seats"][0], "language", "xx"))
    craft("title_5_mb", set_in(lambda r: r, "title", "x" * BIG))
    craft("title_newline", set_in(lambda r: r, "title", "A\nB"))
    craft("title_script", set_in(lambda r: r, "title", "<script>alert(1)</script>"))
    craft("pace_negative", set_in(lambda r: r, "pace", {"days": -1, "on_timeout": "wait",
                                                        "drop_after": 3}))
    craft("pace_extra_key", set_in(lambda r: r, "pace", {"days": 1, "owner": "x"}))
    craft("pace_text", set_in(lambda r: r, "pace", "fast"))
    craft("pace_infinite", set_in(lambda r: r, "pace", {"days": float("inf")}))
    # events
    craft("event_not_an_object", lambda r: r["events"].__setitem__(chosen, "move"))
    craft("event_without_hash", drop("hash", move), rehash=False)
    craft("event_extra_key", set_in(move, "bot", True))
    craft("action_extra_key", set_in(lambda r: r["events"][chosen]["action"], "note", "x"))
    craft("action_5_mb_string", set_in(lambda r: r["events"][chosen]["action"], "note",
                                       "x" * BIG))
    craft("action_unknown", set_in(move, "action", {"type": "teleport"}))
    craft("action_a_list", set_in(move, "action", ["pass"]))
    craft("action_value_retyped", lambda r: _retype(r["events"][chosen]["action"]))
    craft("forged_summary", set_in(move, "summary", "<b>Mallory won</b> " + "x" * 1000))
    craft("forged_summaries", set_in(move, "summaries", {"en": "Mallory won", "hu": "x" * BIG}))
    craft("summaries_a_list", set_in(move, "summaries", ["en", "hu"]))
    craft("summaries_numbers", set_in(move, "summaries", {"en": 5, "xx": None}))
    craft("seq_gap", lambda r: r["events"].pop(chosen))
    craft("seq_duplicate", lambda r: r["events"].insert(chosen, copy.deepcopy(
        r["events"][chosen])))
    craft("seq_text", set_in(move, "seq", str(chosen)))
    craft("seq_true", lambda r: set_in(event(1), "seq", True)(r))
    craft("seq_huge", set_in(move, "seq", 2**80))
    craft("seat_none", set_in(move, "seat", None))
    craft("seat_99", set_in(move, "seat", 99))
    craft("seat_not_to_act", lambda r: _other_seat(r, chosen))
    craft("automatic_0", set_in(move, "automatic", 0))
    craft("automatic_text", set_in(move, "automatic", "true"))
    craft("automatic_a_choice", set_in(move, "automatic", True))
    if automatic is not None:
        craft("forced_not_automatic", set_in(event(automatic), "automatic", False))
    craft("timeout_false", set_in(move, "timeout", False))
    craft("timeout_and_automatic", lambda r: r["events"][chosen].update(timeout=True,
                                                                           automatic=True))
    if not_default is not None:
        craft("timeout_not_the_default", set_in(event(not_default), "timeout", True))
    if by_default is not None:
        craft("timeout_the_default", set_in(event(by_default), "timeout", True))
    craft("hash_wrong", set_in(move, "hash", "f" * 64), rehash=False)
    craft("hash_5_mb", set_in(move, "hash", "f" * BIG), rehash=False)
    craft("created_at_long", set_in(move, "created_at", "2026-12-01T10:00:00.000000" + "0" * 40))
    craft("created_at_words", set_in(move, "created_at", "yesterday"))
    craft("created_at_9999", set_in(move, "created_at", "9999-12-31T23:59:59.999999"))
    craft("created_at_number", set_in(move, "created_at", 1764583200))
    craft("created_at_zone", set_in(move, "created_at", "2026-12-01T10:00:00+05:00"))
    craft("event_after_the_end", lambda r: r["events"].append(dict(
        copy.deepcopy(r["events"][-1]), seq=len(r["events"]))))
    # table talk
    craft("messages_an_object", set_in(lambda r: r, "messages", {"0": "hi"}))
    craft("messages_10001", set_in(lambda r: r, "messages", [
        {"seat": 0, "text": "hi", "at": "2026-12-01T10:00:00"}] * 10_001))
    craft("message_5_mb", set_in(lambda r: r, "messages", [
        {"seat": 0, "text": "x" * BIG, "at": "2026-12-01T10:00:00"}]))
    craft("message_seat_9", set_in(lambda r: r, "messages", [
        {"seat": 9, "text": "hi", "at": "2026-12-01T10:00:00"}]))
    craft("message_at_words", set_in(lambda r: r, "messages", [
        {"seat": 0, "text": "hi", "at": "yesterday"}]))
    craft("message_script", set_in(lambda r: r, "messages", [
        {"seat": 0, "text": "<script>alert(1)</script>", "at": "2026-12-01T10:00:00"}]))
    return crafts


def r_names(record: dict) -> list:
    return record["events"][0]["action"]["names"]


def _set_version(record: dict, version) -> None:
    record["rules_version"] = version
    record["events"][0]["action"]["rules_version"] = version


def _nested(record: dict, levels: int) -> dict:
    deep: list = []
    for _ in range(levels):
        deep = [deep]
    record["events"][1]["action"]["deep"] = deep
    return record


def _rename(record: dict, seat: int, name: str) -> None:
    record["seats"][seat]["name"] = name
    record["events"][0]["action"]["names"][seat] = name


def _retype(action: dict) -> None:
    for key, value in action.items():
        if key != "type":
            action[key] = float(value) if isinstance(value, int) and not isinstance(
                value, bool) else [value]
            return
    action["type"] = [action["type"]]


def _other_seat(record: dict, index: int) -> None:
    event = record["events"][index]
    event["seat"] = (event["seat"] + 1) % record["events"][0]["action"]["players"]
