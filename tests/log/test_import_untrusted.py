"""`pbem games import` takes a record as untrusted input.

Every crafted record (tests/fuzz/crafted.py: ~90 kinds, from extra keys in an action to a
10 MB file) is refused with a one-line message and writes nothing, or is imported faithfully
(it verifies, its export is the record, its log lines are today's rules' own); either way no
command shows a traceback and no page of the site answers 5xx afterwards.
"""
from __future__ import annotations

import json
import random
import sys

import pytest

from pbem.db.models import Event, Game
from pbem.games import RULES
from pbem.games.base import default_move
from pbem.log import chain, store
from pbem.play import records
from pbem.inputs import parse_json
from pbem.log.importing import MAX_DEPTH, check_record
from tests import toygame
from tests.conftest import by_database
from tests.fuzz.crafted import crafted_records

PLAYERS = [{"name": n, "email": f"{n.lower()}@example.org"} for n in ("Ann", "Bob", "Cy")]


def sound_record(rules=toygame.rules, players: int = 3, seed: int = 11, moves: int = 60) -> dict:
    """A record as the server writes it, made with the rules alone: forced moves automatic,
    the 6th move played at a deadline (the seat's default), random choices otherwise."""
    options = {"rounds": 3} if rules is toygame.rules else dict(rules.options)
    names = [p["name"] for p in PLAYERS[:players]]
    creation = {"type": "create", "rules": rules.name, "rules_version": rules.version,
                "options": options, "players": players, "names": names, "seed": seed}
    state, rng, prev, events = rules.setup(players, seed, options), random.Random(seed), "", []
    for seq in range(moves + 1):
        if seq and not rules.to_act(state):
            break
        forced, timeout = (chain.forced_move(rules, state) if seq else None), seq == 6
        if seq == 0:
            seat, action = None, creation
        elif forced:
            seat, action = forced
        else:
            seat = rng.choice(rules.to_act(state))
            action = (default_move(rules, state, seat) if timeout
                      else rng.choice(rules.legal_actions(state, seat)))
        timeout = timeout and not forced
        created_at = f"2026-01-01T00:{seq // 60:02d}:{seq % 60:02d}.000000"
        if seq:
            state = rules.apply(state, seat, action)
        prev = chain.chain_hash(prev, seq, seat, action, bool(forced), created_at, timeout)
        events.append({"seq": seq, "seat": seat, "action": action, "automatic": bool(forced),
                       "created_at": created_at, "hash": prev, **({"timeout": True}
                                                                  if timeout else {})})
    return {"format": chain.EXPORT_FORMAT, "format_version": 1, "rules": rules.name,
            "rules_version": rules.version, "title": "crafted", "seats": [
                {"name": n, "language": "en"} for n in names], "events": events,
            "status": "over" if rules.result(state) is not None else "running",
            "head_hash": prev}


def test_the_sound_record_has_every_kind_of_event_and_imports(app):
    record = sound_record()
    events = record["events"]
    assert any(e["automatic"] for e in events) and any(e.get("timeout") for e in events)
    assert any(not e["automatic"] and not e.get("timeout") for e in events[1:])
    game = records.import_game(record)
    assert store.verify(game) == [] and game.head_hash == record["head_hash"]
    assert "(played at the deadline)" in Event.get(Event.game == game, Event.seq == 6).summary


CRAFTS = sorted(crafted_records(sound_record(), toygame.rules))


# the crafted records that get past `check_record`, which reads no database (the test of it
# below holds this list to the truth): only these reach storage, where the databases could differ
PASS_THE_CHECK = {"forged_summaries", "forged_summary", "message_5_mb", "message_at_words",
                  "message_script", "message_seat_9", "pace_infinite", "pace_negative",
                  "summaries_a_list", "summaries_numbers", "timeout_the_default", "title_script"}
# every crafted record on SQLite; on PostgreSQL those that reach storage (the others are refused
# before the first query, alike on both)
IMPORTS = by_database(CRAFTS, on_postgresql=PASS_THE_CHECK)


def test_there_are_at_least_the_39_kinds_the_issue_lists():
    assert len(CRAFTS) >= 39


def _lines(events) -> list[dict]:
    return [{k: v for k, v in e.items() if k not in ("summary", "summaries")} for e in events]


def _pages_answer(client, game_ids) -> None:
    paths = ["/", "/games", "/games?page=2"]
    for game_id in game_ids:
        game = Game.get_by_id(game_id)
        paths += [f"/games/{game_id}", f"/games/{game_id}/replay",
                  f"/games/{game_id}/record.json", f"/games/{game_id}/replay?step=1",
                  f"/games/{game_id}/replay?step={game.seq}", f"/games/{game_id}?lang=hu"]
    for path in paths:
        answer = client.get(path)
        assert answer.status_code < 500, (path, answer.status_code)


@pytest.mark.parametrize("database_url,name", IMPORTS, indirect=["database_url"])
def test_a_crafted_record_is_refused_in_one_line_or_imported_faithfully(app, client, tmp_path,
                                                                         name):
    record = sound_record()
    base = records.import_game(record).id
    crafted = crafted_records(record, RULES["duel"])[name]()
    path = tmp_path / "record.json"
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))     # deep_dict nests 5,000 levels
    try:
        path.write_bytes(crafted if isinstance(crafted, bytes) else json.dumps(crafted).encode())
    finally:
        sys.setrecursionlimit(limit)
    games, events = Game.select().count(), Event.select().count()

    out = app.test_cli_runner().invoke(args=["games", "import", str(path)])

    assert "Traceback" not in out.output and out.exit_code in (0, 1), (name, out.output[-2000:])
    assert out.exception is None or isinstance(out.exception, SystemExit), repr(out.exception)
    if out.exit_code == 1:
        lines = out.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: cannot import: "), lines[:3]
        assert len(lines[0]) < 400
        assert (Game.select().count(), Event.select().count()) == (games, events)
        _pages_answer(client, [base])
        return
    copy = Game.get_by_id(int(out.output.split()[0]))
    assert store.verify(copy) == []
    exported = records.export_game(copy)
    assert _lines(exported["events"]) == _lines(crafted["events"])
    assert exported["head_hash"] == crafted["head_hash"]
    original = records.export_game(Game.get_by_id(base))["events"]
    assert [e["summaries"] for e in exported["events"]] == [e["summaries"] for e in original] \
        or name.startswith("timeout_")        # the lines are the rules' own, never the record's
    _pages_answer(client, [base, copy.id])


@pytest.mark.parametrize("name", CRAFTS)
def test_a_crafted_record_given_as_data_is_refused_with_a_value_error(duel, name):
    crafted = crafted_records(sound_record(), RULES["duel"])[name]()
    try:
        if isinstance(crafted, bytes):     # a file's text: read as the command reads it
            crafted = parse_json(crafted, max_depth=MAX_DEPTH)
        check_record(crafted)
    except ValueError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 400
        assert name not in PASS_THE_CHECK, (name, str(exc))
    except Exception as exc:       # noqa: BLE001 - anything else is the bug this test is for
        pytest.fail(f"{name}: {type(exc).__name__}: {exc!s:.300}")
    else:
        assert name in PASS_THE_CHECK, name


def test_a_seed_too_large_for_the_database_is_refused_by_create(app):
    runner = app.test_cli_runner()
    for seed in (str(2**70), str(2**63), "-1"):
        out = runner.invoke(args=["games", "create", "duel", "--player", "Ann <ann@example.org>",
                                  "--player", "Bob <bob@example.org>", "--seed", seed])
        assert out.exit_code == 1 and "Traceback" not in out.output, out.output
        assert "seed" in out.output
    assert Game.select().count() == 0
    out = runner.invoke(args=["games", "create", "duel", "--player", "Ann <ann@example.org>",
                              "--player", "Bob <bob@example.org>", "--seed", str(2**63 - 1)])
    assert out.exit_code == 0, out.output
    assert Game.get_by_id(int(out.output.split()[0])).seed == 2**63 - 1
