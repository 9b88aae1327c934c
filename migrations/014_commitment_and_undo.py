"""The shuffle commitment and undo within a turn (issue 21): the salt drawn with a game's seed
(the commitment sha256("pbem-commit-1:" + salt + ":" + seed) is published from move 0; games
created before have none), and the undo stretch of the seat on turn (the states before its
actions that it may still take back). Rolls back: yes (the columns go; the games created
meanwhile keep their salt in their creation event, and an open stretch is forgotten)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("game", salt=pw.CharField(max_length=32, null=True),
                        undo=pw.TextField(null=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("game", "salt", "undo")
