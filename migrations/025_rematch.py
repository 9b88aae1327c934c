"""A rematch names the finished game it replays (`game.rematch_of`, unique: at most one rematch
of a game, however many players ask at once). Rolls back: yes (the column goes; a rematch then
reads as a game of its own, and asking again would make another)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("game", rematch_of=pw.IntegerField(null=True))
    migrator.sql("CREATE UNIQUE INDEX IF NOT EXISTS game_rematch_of ON game (rematch_of)")


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.sql("DROP INDEX IF EXISTS game_rematch_of")
    migrator.remove_fields("game", "rematch_of")
