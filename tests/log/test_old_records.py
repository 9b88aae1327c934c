"""Game records exported before a rules change still import, replay and verify: the engine
keeps each old version's behaviour for games created with it (`oldest_version`).

The records in tests/games/*/data/*record-v1* were exported by `store.export` from games
played through the store with rules version 1 (before the card game's rules change of version 2): a card game that ended by the
old "table_full" rule, and a Tigris & Euphrates game without standing answers."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.play import records
from pbem.log import store
from pbem.games import RULES

DATA = Path(__file__).resolve().parent.parent / "games"
RECORDS = {"tigris": DATA / "tigris" / "data" / "store-record-v1-3p.json",
           "tigris_cards": DATA / "tigris_cards" / "data" / "store_record_v1_table_full.json"}


@pytest.mark.parametrize("rules_name", sorted(RECORDS))
def test_a_version_1_record_imports_replays_and_verifies(app, rules_name):
    record = json.loads(RECORDS[rules_name].read_text())
    assert record["rules_version"] == 1 and record["status"] == "over"
    game = records.import_game(record)
    assert game.rules_version == 1 and game.status == "over"
    assert store.verify(game) == [] and game.head_hash == record["head_hash"]
    # the log lines are written anew by today's rules: all else is as recorded
    lines = ("summary", "summaries")
    exported = records.export_game(game)["events"]
    assert [{k: v for k, v in e.items() if k not in lines} for e in exported] == \
        [{k: v for k, v in e.items() if k not in lines} for e in record["events"]]
    assert all(set(e["summaries"]) == {"en", "hu"} and e["summary"] for e in exported)
    state = store.state_of(game)
    assert RULES[rules_name].result(state) is not None
    if rules_name == "tigris_cards":
        assert state["end"] == "table_full"      # the old end rule, kept for version 1 games


def test_a_record_of_an_unknown_version_is_refused(app):
    record = json.loads(RECORDS["tigris"].read_text())
    record["rules_version"] = 99
    with pytest.raises(ValueError, match="versions"):
        records.import_game(record)
    record["rules_version"] = 2                 # says 2, but its creation event says 1
    with pytest.raises(ValueError, match="versions"):
        records.import_game(record)
