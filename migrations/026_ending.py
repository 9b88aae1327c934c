"""How the players ended a game together (`game.ending`, pbem/log/ending.py): who resigned, who
agreed to abandon it, and whether that ended it. Its events are in the log, so the column is
rebuilt from them by an import or a verification. Rolls back: yes (the column goes; the events
stay in the log, and a release that does not know them refuses to replay such a game)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("game", ending=pw.TextField(null=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("game", "ending")
