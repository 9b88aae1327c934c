"""An event is found by its game and its number in that game's log, (game_id, seq), and now
keyed by them too: on PostgreSQL the serial `id` column and its own index go, and the unique
index on (game_id, seq) becomes the primary key (an event's row loses 4 bytes and an index
entry of about 36: together with 029 and 030, an event takes about a third less than in 0.3.1).
SQLite keeps its `id` column, the table's own rowid, which costs nothing beside it: pbem no
longer reads it. Rolls back: yes (PostgreSQL numbers the events again in a new `id` column)."""

import peewee as pw
from peewee_migrate import Migrator


def _postgresql(database) -> bool:
    return isinstance(database, pw.PostgresqlDatabase)


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    if _postgresql(database):
        migrator.sql("ALTER TABLE event DROP CONSTRAINT event_pkey")
        migrator.sql("ALTER TABLE event DROP COLUMN id")
        migrator.sql("ALTER TABLE event ADD CONSTRAINT event_pkey PRIMARY KEY "
                     "USING INDEX event_game_id_seq")


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    if _postgresql(database):
        migrator.sql("ALTER TABLE event DROP CONSTRAINT event_pkey")
        migrator.sql('CREATE UNIQUE INDEX event_game_id_seq ON event ("game_id", "seq")')
        migrator.sql("ALTER TABLE event ADD COLUMN id SERIAL PRIMARY KEY")
