"""The requests a hostile stranger (or a broken client) sends: each generator makes one.

A generator gets the fuzzer's `World` (games, tokens seen in mail, a seeded random) and
returns a `Shot`: method, path and what to send. `acts=True` marks the few that may rightly
change the log (a listed action with the right seq from a live link, a new game, a fresh
link); every other shot must be refused or change nothing.
"""
from __future__ import annotations

import json
import random
import string
from dataclasses import dataclass, field

from tests.fuzz.crafted import crafted_bodies

ODD_NUMBERS = ["²", "①", "٣", "٠", "０", "𝟘", "-1", "1e3", "0x10", " 7", "3.0", "", "+1",
               "9223372036854775808", "99999999999999999999999", "1" * 5000, "NaN", "∞",
               "0" * 30 + "1", "\x00", "%00"]
CONTROL = ["\r\nBcc: x@y.test", "\n", "\x00", "\x1b[31m", "\u2028", "\u202e", "\ufeff",
           "\x7f", "\t"]
WEIRD_PATHS = ["/%5Cevil.example/login", "//evil.example/login", "/%2F%2Fevil.example",
               "/..%2F..%2Fetc%2Fpasswd", "/static/..%2F..%2Fwsgi.py", "/turn/", "/api/turn/",
               "/host/", "/replay/", "/games/-1", "/games/0", "/games/٣", "/games/²",
               "/games/9223372036854775808", "/games/1e3", "/new/", "/api/", "/%00",
               "/turn/%00", "/games/1/replay/extra", "/dev/mail", "/dev/mail/..%2F.."]


@dataclass
class Shot:
    method: str
    path: str
    kind: str                       # the generator's name, for the report
    json_body: object = None
    data: object = None             # form dict, raw str or bytes
    headers: dict = field(default_factory=dict)
    params: dict | None = None
    acts: bool = False              # may rightly write events


def _text(rng: random.Random, low: int = 0, high: int = 40) -> str:
    alphabet = string.printable + "ÁÉŐŰáéőű中文ع😀" + "".join(CONTROL)
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(low, high)))


def _deep(rng: random.Random) -> str:
    levels = rng.choice([33, 100, 999, 1000, 3000, 10_000])
    opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
    return opener * levels + "1" + closer * levels


def _garbage_json(rng: random.Random) -> str:
    return rng.choice(["{", "}", "[1,", '{"seq": }', "null", "true", "1", '"x"', "{'a': 1}",
                       '{"seq": 1,}', "\ufeff{}", '{"seq": NaN}', '{"seq": Infinity}',
                       '{"seq": 1e99999}', '{"a": "\\ud800"}', "[]" * 1000, _deep(rng),
                       _text(rng, 1, 200)])


def _odd_value(rng: random.Random):
    return rng.choice([None, True, False, 0, -1, 1.5, 2**63, 10**30, -(2**63), "0", "²", "٣",
                       [], {}, [1, 2], {"type": None}, "x" * rng.randint(0, 300), 1e308,
                       float("1e-320")])


def _mutated_action(rng: random.Random, action: dict) -> dict:
    """A listed action, changed just enough to be another thing."""
    action = dict(action)
    key = rng.choice(list(action))
    change = rng.randrange(6)
    if change == 0:
        action[rng.choice(["note", "seat", "extra", "__proto__", "type2"])] = _odd_value(rng)
    elif change == 1:
        action[key] = _odd_value(rng)
    elif change == 2 and len(action) > 1:
        del action[rng.choice([k for k in action if k != "type"] or [key])]
    elif change == 3:
        action["note"] = "x" * rng.choice([100, 10_000, 60_000])
    elif change == 4:
        value = action[key]
        if isinstance(value, int) and not isinstance(value, bool):
            action[key] = rng.choice([float(value), str(value), value + 2**32, -value - 1])
        else:
            action[key] = [value, value]
    else:
        action["type"] = rng.choice(["", "PASS", "pass ", "create", "teleport", 1, None])
    return action


# -- generators ------------------------------------------------------------------------------------

def legal_move(world) -> Shot:
    """A listed action from a live link with the right seq: the game moves on."""
    token, page = world.live_page()
    if page is None:
        return browse(world)
    action = world.rng.choice(page["actions"])
    if world.rng.random() < 0.5:
        return Shot("POST", f"/api/turn/{token}", "legal_move", json_body={"seq": page["seq"],
                                                                           "action": action},
                    acts=True)
    return Shot("POST", f"/turn/{token}", "legal_move_form",
                data={"seq": str(page["seq"]), "action": json.dumps(action)}, acts=True)


def extra_keys(world) -> Shot:
    token, page = world.live_page()
    if page is None:
        return forged_token(world)
    action = _mutated_action(world.rng, world.rng.choice(page["actions"]))
    if world.rng.random() < 0.5:
        return Shot("POST", f"/api/turn/{token}", "extra_keys",
                    json_body={"seq": page["seq"], "action": action})
    return Shot("POST", f"/turn/{token}", "extra_keys_form",
                data={"seq": str(page["seq"]), "action": json.dumps(action)})


def stale_seq(world) -> Shot:
    token, page = world.live_page()
    if page is None:
        return spent_token(world)
    seq = world.rng.choice([page["seq"] - 1, page["seq"] + 1, 0, page["seq"] + 1000])
    return Shot("POST", f"/api/turn/{token}", "stale_seq",
                json_body={"seq": seq, "action": world.rng.choice(page["actions"])})


def wrong_seat(world) -> Shot:
    """Another seat's token submits the acting seat's listed action."""
    token, page = world.live_page()
    other = world.rng.choice(world.tokens) if world.tokens else None
    if page is None or other is None or other == token:
        return forged_token(world)
    return Shot("POST", f"/api/turn/{other}", "wrong_seat",
                json_body={"seq": page["seq"], "action": world.rng.choice(page["actions"])})


def wrong_types(world) -> Shot:
    token = world.any_token()
    rng = world.rng
    body = rng.choice([{"seq": _odd_value(rng), "action": {"type": "pass"}},
                       {"seq": 0, "action": _odd_value(rng)},
                       {"seq": _odd_value(rng)}, {"action": {"type": "pass"}},
                       _odd_value(rng), [{"seq": 0}], {"seq": 0, "action": {"type": "pass"},
                                                       "seat": 1, "game": 2}])
    return Shot("POST", f"/api/turn/{token}", "wrong_types", json_body=body)


def malformed_json(world) -> Shot:
    token = world.any_token()
    rng = world.rng
    headers = {"Content-Type": rng.choice(["application/json", "application/json; charset=latin-1",
                                           "text/plain", "application/x-www-form-urlencoded",
                                           "multipart/form-data; boundary=x", "application/json"])}
    raw = _garbage_json(rng)
    data = raw.encode("utf-8", "surrogatepass") if rng.random() < 0.8 else bytes(
        rng.randrange(256) for _ in range(rng.randint(1, 300)))
    return Shot("POST", f"/api/turn/{token}", "malformed_json", data=data, headers=headers)


def deep_form_action(world) -> Shot:
    token = world.any_token()
    return Shot("POST", f"/turn/{token}", "deep_form_action",
                data={"seq": "0", "action": _deep(world.rng)})


def odd_numbers(world) -> Shot:
    rng = world.rng
    odd = rng.choice(ODD_NUMBERS)
    token = world.any_token()
    game = rng.choice(world.game_ids)
    return rng.choice([
        Shot("POST", f"/turn/{token}", "odd_seq_form", data={"seq": odd, "action": '{"type":"pass"}'}),
        Shot("POST", f"/api/turn/{token}", "odd_seq_api", json_body={"seq": odd, "action": {"type": "pass"}}),
        Shot("GET", f"/turn/{token}", "odd_done", params={"done": odd}),
        Shot("GET", f"/games/{game}/replay", "odd_step", params={"step": odd}),
        Shot("GET", f"/replay/{token}", "odd_step_player", params={"step": odd, "play": odd}),
        Shot("GET", f"/games/{odd}", "odd_game_id"),
        Shot("GET", f"/games/{rng.choice([2**31, 2**63, 10**40, -1])}/replay", "huge_game_id"),
    ])


def forged_token(world) -> Shot:
    rng = world.rng
    base = world.any_token()
    forged = rng.choice([
        base[:-1] + ("A" if base[-1] != "A" else "B"), base[: len(base) // 2], base + "x",
        base.replace(".", "", 1), "".join(rng.choice(string.ascii_letters + "-_.") for _ in range(60)),
        world.host_token(), "a" * rng.choice([1, 200, 3000]), base.upper(), ".." + base,
        base + "%00", base + "/../..", "eyJnIjoxLCJzIjowLCJuIjoiIn0.aaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbb"])
    path = rng.choice([f"/turn/{forged}", f"/api/turn/{forged}", f"/replay/{forged}",
                       f"/host/{forged}", f"/turn/{forged}/renew"])
    method = "POST" if path.endswith("/renew") or rng.random() < 0.4 else "GET"
    return Shot(method, path, "forged_token",
                json_body={"seq": 0, "action": {"type": "pass"}} if method == "POST" else None)


def spent_token(world) -> Shot:
    token = world.spent_or_any_token()
    rng = world.rng
    choice = rng.randrange(4)
    if choice == 0:
        return Shot("GET", f"/turn/{token}", "spent_token")
    if choice == 1:
        return Shot("POST", f"/api/turn/{token}", "spent_token_post",
                    json_body={"seq": rng.randint(0, 50), "action": {"type": "pass"}})
    if choice == 2:
        return Shot("GET", f"/replay/{token}", "spent_token_replay", params={"step": str(rng.randint(0, 9))})
    return Shot("POST", f"/turn/{token}/renew", "renew", acts=True)


def host_actions(world) -> Shot:
    rng = world.rng
    host = world.host_token()
    number = rng.choice(["0", "1", "2", "3", "9", "2147483648", "9223372036854775808", "٣", "-1"])
    action = rng.choice(["revoke", "resend", "retry"])
    if rng.random() < 0.3:
        return Shot("GET", f"/host/{host}", "host_page")
    return Shot("POST", f"/host/{host}/{action}/{number}", "host_" + action, acts=action == "resend")


def new_game(world) -> Shot:
    """/new with long, control-character and odd names, titles, addresses and options."""
    rng = world.rng
    if rng.random() < 0.3:          # a sound form now and then: games and mail keep coming
        form = {"rules": rng.choice(["tigris", "tigris_cards", "assyria"]), "title": "",
                "host_email": "host@fuzz.example.org"}
        for i in range(2):
            form.update({f"name{i}": f"New {i}", f"email{i}": f"new{i}@fuzz.example.org",
                         f"language{i}": rng.choice(["en", "hu"])})
        return Shot("POST", "/new", "new_game_sound", data=form, acts=True)
    rules = rng.choice(["tigris", "tigris_cards", "assyria", "duel", "", "TIGRIS", "x" * 100])
    form = {"rules": rules, "title": rng.choice(["", _text(rng, 0, 300), "A\r\nBcc: x@y.test"])}
    for i in range(rng.choice([0, 1, 2, 3, 4, 8, 9])):
        name = rng.choice([f"P{i}", _text(rng, 0, 120), "x" * rng.choice([44, 100, 101, 5000]),
                           f"Ann{rng.choice(CONTROL)}Bcc: x@y.test"])
        email = rng.choice([f"p{i}@fuzz.example.org", f"p{i}@fuzz.example.org\r\nBcc: x@y.test",
                            "a" * 250 + "@x.test", "not-an-address", f"p{i}@fuzz.example.org>",
                            "<p@fuzz.example.org>", "p@[127.0.0.1]", "ű@fuzz.example.org", ""])
        form[f"name{i}"], form[f"email{i}"] = name, email
        form[f"language{i}"] = rng.choice(["en", "hu", "xx", ""])
    form["host_email"] = rng.choice(["", "host@fuzz.example.org", "host@fuzz.example.org\nBcc: y@z.test"])
    for option in ("english_variant", "rounds", "variant", "cards", "players"):
        form[f"option_{option}"] = rng.choice(ODD_NUMBERS + ["on", "1", "true", "2"])
    return Shot("POST", "/new", "new_game", data=form, acts=True)


def oversized(world) -> Shot:
    token = world.any_token()
    size = world.rng.choice([65 * 1024, 80 * 1024, 200 * 1024])
    if world.rng.random() < 0.5:
        return Shot("POST", f"/api/turn/{token}", "oversized_api",
                    data=json.dumps({"seq": 0, "action": {"type": "pass", "n": "x" * size}}),
                    headers={"Content-Type": "application/json"})
    if world.rng.random() < 0.5:    # chunked: no Content-Length for gunicorn to refuse early
        chunks = [b'{"seq": 0, "action": {"type": "pass", "n": "'] + [b"x" * 4096] * (size // 4096)
        return Shot("POST", f"/api/turn/{token}", "oversized_chunked", data=iter(chunks),
                    headers={"Content-Type": "application/json"})
    return Shot("POST", "/new", "oversized_form", data={"rules": "tigris", "title": "x" * size})


def crafted_body(world) -> Shot:
    """A body shaped to be slow for a careless check (tests/fuzz/crafted.py), up to the cap,
    from a live, a spent or a forged link, to the API or the form."""
    rng = world.rng
    size = rng.choice([1024, 16 * 1024, 64 * 1024 - 200])
    shape, body = rng.choice(sorted(crafted_bodies(size).items()))
    token = rng.choice([world.any_token(), world.spent_or_any_token(), "a" * 60,
                        world.any_token()[:-1] + "A"])
    if rng.random() < 0.6:
        return Shot("POST", f"/api/turn/{token}", "crafted_body", data=body.encode(),
                    headers={"Content-Type": "application/json"})
    short = crafted_bodies(size // 3)[shape]      # a form percent-encodes most of these
    return Shot("POST", f"/turn/{token}", "crafted_body_form", data={"seq": "0", "action": short})


def record_pages(world) -> Shot:
    """A page of a game imported from a crafted record (tests/fuzz/crafted.py), or of any."""
    rng = world.rng
    game = rng.choice(world.imported or world.game_ids)
    path = rng.choice([f"/games/{game}", f"/games/{game}/replay", f"/games/{game}/record.json",
                       "/games"])
    params = rng.choice([None, {"step": str(rng.randint(0, 60))}, {"lang": "hu"}])
    return Shot("GET", path, "record_pages", params=params)


def browse(world) -> Shot:
    rng = world.rng
    game = rng.choice(world.game_ids)
    path = rng.choice(["/", "/games", "/new", f"/games/{game}", f"/games/{game}/replay",
                       f"/games/{game}/record.json", f"/turn/{world.any_token()}",
                       f"/api/turn/{world.any_token()}", f"/replay/{world.any_token()}",
                       rng.choice(WEIRD_PATHS)])
    params = rng.choice([None, {"lang": rng.choice(["hu", "en", "xx", "../", "ű"])},
                         {"step": str(rng.randint(0, 300))}, {"done": str(rng.randint(0, 30))}])
    return Shot("GET", path, "browse", params=params)


def wrong_method(world) -> Shot:
    rng = world.rng
    path = rng.choice(["/", "/new", f"/turn/{world.any_token()}", f"/api/turn/{world.any_token()}",
                       f"/games/{rng.choice(world.game_ids)}", f"/host/{world.host_token()}"])
    return Shot(rng.choice(["PUT", "DELETE", "PATCH", "OPTIONS", "POST"]), path, "wrong_method",
                data=_text(rng, 0, 50))


GENERATORS = [(legal_move, 14), (extra_keys, 10), (stale_seq, 6), (wrong_seat, 6),
              (wrong_types, 8), (malformed_json, 8), (deep_form_action, 3), (odd_numbers, 10),
              (forged_token, 8), (spent_token, 8), (host_actions, 5), (new_game, 5),
              (oversized, 2), (browse, 8), (wrong_method, 3), (crafted_body, 6),
              (record_pages, 3)]


def pick(rng: random.Random):
    generators, weights = zip(*GENERATORS)
    return rng.choices(generators, weights)[0]
