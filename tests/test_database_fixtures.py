"""The database fixtures themselves: each test starts from a migrated, empty database of its
own, made from the worker's template (copied on SQLite; on PostgreSQL cloned once, then emptied
between tests unless a test changed the schema)."""
from __future__ import annotations

import pytest

from pbem.db import database
from pbem.db.models import Game
from pbem.play import creation
from tests import conftest

PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}]


@pytest.mark.parametrize("round", [1, 2])
def test_every_test_starts_migrated_and_empty_with_ids_from_one(app, round):
    assert database.applied()[-1] == sorted(database.applied())[-1]
    assert database.applied() and not Game.select().exists()
    game, _ = creation.create_game("duel", PLAYERS, seed=round)
    assert game.id == 1


@pytest.mark.parametrize("round", [1, 2])
def test_a_test_that_rolls_a_migration_back_leaves_the_next_one_a_whole_schema(app, round):
    if round == 1:
        database.rollback(database.applied()[-2])
    else:
        assert database.applied() == sorted(database.applied()) and len(database.applied()) >= 20


@pytest.mark.services
@pytest.mark.skipif(not conftest.PG_URL, reason="PBEM_TEST_DATABASE_URL names no PostgreSQL database")
def test_postgresql_is_emptied_between_tests_and_cloned_again_when_the_schema_changed():
    import psycopg2
    url = conftest.fresh_postgresql(conftest.PG_URL)
    with psycopg2.connect(url) as connection, connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM migratehistory")
        migrations = cursor.fetchone()[0]
    connection.close()
    clones = conftest.TEMPLATES.clones
    assert conftest.fresh_postgresql(conftest.PG_URL) == url
    assert conftest.TEMPLATES.clones == clones               # emptied, not cloned
    with psycopg2.connect(url) as connection, connection.cursor() as cursor:
        cursor.execute("DROP TABLE webhook")
    connection.close()
    conftest.fresh_postgresql(conftest.PG_URL)
    assert conftest.TEMPLATES.clones == clones + 1           # a changed schema: cloned
    with psycopg2.connect(url) as connection, connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM migratehistory")
        assert cursor.fetchone()[0] == migrations
        cursor.execute("SELECT count(*) FROM webhook")
        assert cursor.fetchone()[0] == 0
    connection.close()
