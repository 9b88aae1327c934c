"""A game the pace pass cannot settle is recorded with its error and the move it failed at, and
skipped until it changes (issue 23, item 2): one game never stops another. Rolls back: yes
(the columns go; the pass then tries every game again)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("game", pace_error=pw.TextField(default=""),
                        pace_error_seq=pw.IntegerField(null=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("game", "pace_error", "pace_error_seq")
