"""Each event keeps its one-line description in every language pbem speaks."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("event", summaries=pw.TextField(default="{}"))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("event", "summaries")
