"""A seat the host handed over to default moves is marked so (issue 24, item 8): the host page
shows it and can undo it, and the log says the host handed the seat over rather than that its
player stopped answering. Rolls back: yes (the column goes; such seats read as dropped)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("seat", handed_over=pw.BooleanField(default=False))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("seat", "handed_over")
