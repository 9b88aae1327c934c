"""A default plays the whole decision (issue 24, item 2): the seat remembers the turn whose
deadline it missed, and its defaults are played, unasked, until that turn ends. Rolls back: yes
(the column goes; a seat that missed is then asked again in the same turn, as before)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("seat", default_turn=pw.TextField(null=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("seat", "default_turn")
