"""Every game in RULES through the server: random legal play for every player count, with
forced moves applied by the server, the log verified, and the record replayed elsewhere."""
from __future__ import annotations

import random

import pytest

from pbem.play import records
from pbem.play import creation
from pbem.log import lines, store
from pbem.games import RULES
from pbem.games.base import is_forced
from pbem.db.models import Event, Game

from tests.conftest import PG_URL, play_at_random
from tests.support.games import GAMES, player_counts

MOVES = 160             # moves played at most a game


def players(n):
    """The last player reads Hungarian: each event stores its English and Hungarian lines."""
    return [{"name": f"P{i}", "email": f"p{i}@example.org",
             "language": "hu" if i == n - 1 else "en"} for i in range(n)]


def no_forced_move_left(rules, state, seat, actions, waiting):
    assert not is_forced(rules, state, seat, actions) or len(waiting) > 1, \
        "a forced move was left for a player"


# every game at every player count on SQLite; on PostgreSQL (where configured) every game at
# its fullest table: the rows a move writes are alike whatever the count
PLAYED = [("sqlite", name, count) for name in GAMES for count in player_counts(RULES[name])] + \
    [("postgresql", name, max(player_counts(RULES[name]))) for name in GAMES if PG_URL]


@pytest.mark.parametrize("database_url, rules_name, count", PLAYED, indirect=["database_url"])
def test_random_play_through_the_store(app, rules_name, count):
    rng = random.Random(f"{rules_name}-{count}")
    game, _ = creation.create_game(rules_name, players(count), seed=rng.randrange(10**9))
    game = play_at_random(game, MOVES, rng, no_forced_move_left)
    assert game.seq > 0 and store.verify(game) == []
    assert Event.select().where(Event.game == game).count() == game.seq + 1
    events = list(Event.select().where(Event.game == game).order_by(Event.seq))
    for event in events:
        # the English line once (`summary`), and the line in each language the table reads
        assert event.summary and set(event.summaries) == {"hu"}
    # a line described anew from the log (for a reader of a language nobody at the table
    # reads) is the line recorded with the move
    described = lines.described_lines(game, "hu", [e.seq for e in events])
    assert described == {e.seq: e.summaries["hu"] for e in events}
    # the other languages' lines are stored as UTF-8 text, not as 6-byte escapes
    database = Event._meta.database
    stored = [raw for (raw,) in database.execute_sql(
        f"SELECT summaries FROM event WHERE game_id = {database.param}", (game.id,))]
    assert any(set("áéöőüű") & set(raw) for raw in stored)
    assert not any("\\u0" in raw for raw in stored)

    record = records.export_game(game)
    copy = records.import_game(record)
    assert copy.head_hash == game.head_hash
    assert store.state_of(copy) == store.state_of(game)
    assert Game.select().count() == 2


def test_every_real_game_is_registered():
    assert {"tigris", "tigris_cards", "assyria"} <= set(RULES)
    for rules in (RULES[n] for n in ("tigris", "tigris_cards", "assyria")):
        assert rules.min_players == 2 and rules.max_players == 4
        assert isinstance(rules.version, int) and isinstance(rules.options, dict)
