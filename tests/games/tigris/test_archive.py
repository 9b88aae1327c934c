"""Archived game records keep replaying to the same end (else bump `rules.version` and keep the
old behaviour for games of the old version)."""
import json
from pathlib import Path

import pytest

from pbem.games.tigris import rules

RECORDS = sorted((Path(__file__).parent / "data").glob("game-*.json"))


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_archived_game_replays_to_the_same_end(path):
    record = json.loads(path.read_text())
    assert rules.oldest_version <= record["version"] <= rules.version
    state = rules.setup(record["players"], record["seed"], record["options"],
                        version=record["version"])
    for step in record["log"]:
        assert step["action"] in rules.legal_actions(state, step["seat"])
        state = rules.apply(state, step["seat"], step["action"])
    assert rules.dump(state) == record["final"]
    assert rules.result(state) == record["result"]


def test_there_are_archived_games():
    assert len(RECORDS) >= 2
