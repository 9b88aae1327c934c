"""The home page and the archive: each game with its players, who is to act or who won, and
how long it has waited, in words and plurals of either language."""
from __future__ import annotations

import datetime as dt
import logging
import random

import pytest

from pbem.play import creation
from pbem.play.keys import keys
from pbem.log import store
from pbem.db.models import Event, db, utcnow
from tests.conftest import play_at_random

PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}]


def age(game, **delta):
    """Make the game's last move `delta` old."""
    when = (utcnow() - dt.timedelta(**delta)).isoformat(timespec="microseconds")
    Event.update(created_at=when).where(Event.game == game, Event.seq == game.seq).execute()


def test_the_home_page_says_who_plays_whose_turn_and_how_long(client):
    game, _ = creation.create_game("tigris", PLAYERS, seed=1, title="Friday game")
    age(game, days=3, hours=2)
    page = client.get("/").get_data(as_text=True)
    assert "Friday game" in page and "Tigris &amp; Euphrates · Ann, Bob · move 0" in page
    assert "Waiting for Ann for 3 days" in page
    age(game, days=1)
    assert "Waiting for Ann for 1 day<" in client.get("/").get_data(as_text=True)
    hungarian = client.get("/?lang=hu").get_data(as_text=True)
    assert "1 nap" in hungarian and "Tigris és Eufrátesz" in hungarian


def test_the_archive_names_the_winner(client):
    game, _ = creation.create_game("duel", PLAYERS, seed=2)
    game = play_at_random(game, 50, random.Random(2))
    assert game.status == "over"
    result = store.rules_of(game).result(store.state_of(game))
    winners = [PLAYERS[s]["name"] for s in result["ranking"][0]]
    age(game, hours=5)
    page = client.get("/games").get_data(as_text=True)
    label = "Winner: " if len(winners) == 1 else "Winners: "
    assert label + ", ".join(winners) in page and "Ann, Bob" in page
    assert "(5 hours ago)" in page


class Statements(logging.Handler):
    """The SQL statements peewee runs (it logs each one at DEBUG with its parameters)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.seen: list[tuple[str, tuple]] = []

    def emit(self, record):
        if isinstance(record.msg, tuple):
            self.seen.append(record.msg)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_listings_search_indexes_and_never_scan_a_table(client):
    """Listings stay flat as games pile up (bench_scale measures them at 200 and 2,000 games):
    every query of the front page, the archive and a player's home page finds its rows
    through an index. A row-value IN list once scanned the whole event table."""
    for seed in range(3):
        game, _ = creation.create_game("duel", PLAYERS, seed=seed)
        play_at_random(game, 50 if seed else 2, random.Random(seed))
    statements = Statements()
    peewee_log = logging.getLogger("peewee")
    level = peewee_log.level
    peewee_log.setLevel(logging.DEBUG)
    peewee_log.addHandler(statements)
    try:
        for path in ("/", "/games", f"/me/{keys().home_link('ann@example.org')}"):
            assert client.get(path).status_code == 200
    finally:
        peewee_log.removeHandler(statements)
        peewee_log.setLevel(level)
    selects = [(sql, params) for sql, params in statements.seen if sql.startswith("SELECT")]
    assert len(selects) > 5
    for sql, params in selects:
        plan = [row[3] for row in db.obj.execute_sql("EXPLAIN QUERY PLAN " + sql, params)]
        assert not [step for step in plan if step.startswith("SCAN t")], (sql, plan)
