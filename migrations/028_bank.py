"""A clock with a bank (pbem/play/bank.py): the game's bank (`game.bank`: its days, increment
and cap; null for a pace per decision) and what each seat has left between its decisions
(`seat.bank_left`, days). Rolls back: yes (the columns go; a banked game then runs with a pace
of its starting bank per decision)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("game", bank=pw.TextField(null=True))
    migrator.add_fields("seat", bank_left=pw.FloatField(null=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("seat", "bank_left")
    migrator.remove_fields("game", "bank")
