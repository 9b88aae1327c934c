"""Computer players (issue 19): a seat the computer plays (`bot_level`, no address), a seat whose
missed deadline the computer answers (`stand_in`), events a computer played (`bot`, in the hash
only when true) and vacations during which the computer plays the player's seats (`bot`).
Rolls back: yes (the columns go; computer seats then wait like any seat without an address)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("seat", bot_level=pw.IntegerField(null=True),
                        stand_in=pw.BooleanField(default=False))
    migrator.add_fields("event", bot=pw.BooleanField(default=False))
    migrator.add_fields("vacation", bot=pw.BooleanField(default=False))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("vacation", "bot")
    migrator.remove_fields("event", "bot")
    migrator.remove_fields("seat", "bot_level", "stand_in")
