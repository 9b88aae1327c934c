"""Input checks are linear, and the token is checked before the body is read.

The depth check's string pattern backtracked: `"` + `\\"` x 32,000 stalled a worker for 30 s,
before any token check. Each crafted shape (tests/fuzz/crafted.py) is timed at 8 KB and at 64 KB:
a linear check takes about 8 times as long on the larger, a quadratic one about 64 times.
"""
from __future__ import annotations

import gc
import json
import time

import pytest

from pbem.play import creation
from pbem.log import store
from pbem.db.models import Event
from pbem import inputs
from tests.conftest import on_sqlite, token_of
from tests.fuzz.crafted import crafted_bodies
from pbem.mail import mailer

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]
CAP = 64 * 1024
SHAPES = sorted(crafted_bodies(CAP))
BOUND = 1.0             # seconds: generous on a loaded machine; the quadratic check took 30 s

database_url = on_sqlite     # reading what comes in, not storage: SQLite alone


def fastest(call, repeats: int = 5) -> float:
    """The shortest of a few runs of `call()`, in seconds of this process's CPU (other work on
    a shared machine does not count), with the garbage collector held off (a collection in a
    worker that has run hundreds of tests takes 0.2 s: collecting before each run cost 2 s a
    test)."""
    times = []
    collecting = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            started = time.process_time()
            try:
                call()
            except ValueError:
                pass
            times.append(time.process_time() - started)
    finally:
        if collecting:
            gc.enable()
    return min(times)


@pytest.mark.parametrize("shape", SHAPES)
def test_reading_a_crafted_body_takes_time_linear_in_its_size(shape):
    small, large = crafted_bodies(8 * 1024)[shape], crafted_bodies(CAP - 100)[shape]
    assert len(large) <= CAP
    small_time = fastest(lambda: inputs.parse_json(small))
    large_time = fastest(lambda: inputs.parse_json(large))
    # 8 x the size: linear is ~8 x the time (1-12 ms at 64 KB here), quadratic ~64 x (the old
    # check took 1 s at 8 KB); 25 ms of slack for a loaded machine
    assert large_time < 16 * small_time + 0.025, (shape, small_time, large_time)
    assert large_time < BOUND


@pytest.mark.parametrize("text, depth", [("[]", 1), ('[{"a": [1]}]', 3), ('"[[[["', 0),
                                         ('["\\"[[", [[]]]', 3), ('"\\\\"[[', 2),
                                         ('{"a": "]]]", "b": {}}', 2), ("", 0),
                                         ('"unterminated [[[', 0), ('"\\', 0)])
def test_the_depth_scan_skips_strings_and_their_escapes(text, depth):
    assert inputs.json_depth(text) == depth


@pytest.mark.parametrize("text", ['{"seq": ' + "9" * 31 + "}", '{"seq": 1e999}',
                                  '{"seq": -1e400}', '[' + "1" * 5000 + "]"])
def test_numbers_too_long_or_infinite_are_refused(text):
    with pytest.raises(ValueError):
        inputs.parse_json(text)


def test_ordinary_numbers_are_read():
    assert inputs.parse_json('{"seq": 12, "x": -3.5, "y": 1e-400, "z": ' + "9" * 30 + "}") == \
        {"seq": 12, "x": -3.5, "y": 0.0, "z": int("9" * 30)}


@pytest.fixture
def live_token(app, client, smtp):
    game, _ = creation.create_game("duel", PLAYERS, seed=3)
    mailer.send_due()
    seat = store.rules_of(game).to_act(store.state_of(store.get_game(game.id)))[0]
    token = token_of(smtp.inbox.last_link(PLAYERS[seat]["email"]))
    client.get(f"/turn/{token}")        # the app's first page compiles its templates (~0.7 s)
    return game, token


def events(game):
    return Event.select().where(Event.game == game).count()


def timed(call):
    started = time.perf_counter()
    answer = call()
    return answer, time.perf_counter() - started


@pytest.mark.parametrize("shape", SHAPES)
def test_a_crafted_body_up_to_the_cap_is_answered_at_once_and_writes_nothing(
        live_token, client, shape):
    game, token = live_token
    before = events(game)
    body = crafted_bodies(CAP - 100)[shape]
    forged = token[:-2] + ("AA" if token[-2:] != "AA" else "BB")
    for path, statuses in ((f"/api/turn/{token}", (400, 422)), (f"/api/turn/{forged}", (403,))):
        answer, seconds = timed(lambda: client.post(path, data=body,
                                                    content_type="application/json"))
        assert answer.status_code in statuses, (shape, answer.get_data(as_text=True)[:200])
        assert seconds < BOUND, (shape, path, seconds)
    # a form percent-encodes quotes and backslashes three times over: a third of the cap
    action = crafted_bodies(CAP // 3 - 100)[shape]
    answer, seconds = timed(lambda: client.post(f"/turn/{token}",
                                                data={"seq": "0", "action": action}))
    assert answer.status_code in (400, 422), (shape, answer.status_code)
    assert seconds < BOUND, (shape, seconds)
    assert events(game) == before


def test_a_forged_token_is_refused_before_its_body_is_parsed(live_token, client, monkeypatch):
    game, token = live_token
    parsed = []
    real = inputs.parse_json

    def spy(text, *args, **kwargs):
        parsed.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr("pbem.web.api.parse_json", spy)
    monkeypatch.setattr("pbem.web.turn.parse_json", spy)
    forged = token[:-2] + ("AA" if token[-2:] != "AA" else "BB")
    page = client.get(f"/api/turn/{token}").get_json()
    good = {"seq": page["seq"], "action": page["actions"][0]}
    for bad in (forged, "not-a-token", forged + "." + forged):
        answer = client.post(f"/api/turn/{bad}", data="{not json", content_type="application/json")
        assert answer.status_code == 403, answer.get_data(as_text=True)
        answer = client.post(f"/api/turn/{bad}", json=good)
        assert answer.status_code == 403
        answer = client.post(f"/turn/{bad}", data={"seq": "0", "action": json.dumps(good["action"])})
        assert answer.status_code == 403
    assert parsed == []
    assert events(game) == 1
    # the real token still plays, through the parser
    assert client.post(f"/api/turn/{token}", json=good).status_code == 200
    assert parsed
