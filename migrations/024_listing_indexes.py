"""Indexes for what the listings sort and filter on, so that they stay as fast with thousands
of games: the archive's order (status, finished_at, id), the front page's (status, id), and
the addresses as pbem compares them, in lower case (a player's seats, a host's games). Rolls
back: yes (the indexes go; the listings then scan the tables, as before)."""

import peewee as pw
from peewee_migrate import Migrator

INDEXES = {
    "game_status_finished": "game (status, finished_at, id)",
    "game_status_id": "game (status, id)",
    "game_host_email_lower": "game (LOWER(host_email))",
    "seat_email_lower": "seat (LOWER(email))",
}


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    for name, what in INDEXES.items():
        migrator.sql(f"CREATE INDEX IF NOT EXISTS {name} ON {what}")


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    for name in INDEXES:
        migrator.sql(f"DROP INDEX IF EXISTS {name}")
