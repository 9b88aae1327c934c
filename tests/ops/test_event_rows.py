"""Migrations 029-031 make an event's row smaller: no index beside (game_id, seq), its hash
kept as 32 bytes, and (on PostgreSQL) (game_id, seq) its key instead of a serial id. A game
played before them verifies after them, and one played after them verifies once they are
rolled back, on SQLite and PostgreSQL; the rest of pbem reads and exports hex all along."""
from __future__ import annotations

import random
import re

from pbem.db import database
from pbem.db.models import Checkpoint, Event, db
from pbem.log import store
from pbem.play import creation
from tests.conftest import play_at_random

HEX = re.compile(r"[0-9a-f]{64}")
BEFORE = "028"          # the newest migration before the three


def stored_hashes(table: str) -> list:
    return [row[0] for row in db.obj.execute_sql(f"SELECT hash FROM {table} ORDER BY seq")]


def played(seed: int):
    game, _ = creation.create_game("tigris", [{"name": "Ann", "email": "ann@example.org"},
                                              {"name": "Bob", "email": "bob@example.org"}],
                                   seed=seed)
    return play_at_random(game, 60, random.Random(seed))     # past the first checkpoint


def test_events_kept_small_verify_both_ways(app):
    before = played(1)
    assert [len(bytes(raw)) for raw in stored_hashes("event")] == [32] * (before.seq + 1)
    assert Checkpoint.select().count() >= 1 and all(
        len(bytes(raw)) == 32 for raw in stored_hashes("checkpoint"))
    exported = store.export(store.get_game(before.id))
    assert all(HEX.fullmatch(event["hash"]) for event in exported["events"])

    undone = database.rollback(BEFORE)
    assert [name[:3] for name in undone] == ["031", "030", "029"]
    assert all(HEX.fullmatch(raw) for raw in stored_hashes("event"))     # hex text again
    assert store.verify(store.get_game(before.id)) == []
    assert store.export(store.get_game(before.id))["events"] == exported["events"]

    database.upgrade()
    after = played(2)
    assert all(len(bytes(raw)) == 32 for raw in stored_hashes("event"))
    for game in (before, after):
        assert store.verify(store.get_game(game.id)) == []
    assert Event.get(Event.game == after.id, Event.seq == after.seq).hash == \
        store.get_game(after.id).head_hash
