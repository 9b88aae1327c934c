"""Quiet hours (pbem/play/quiet.py): each address's daily window and quiet days, in its time
zone (`player_settings.quiet_start`, `quiet_end`: minutes after midnight; `quiet_days`: "sat,sun"),
and whether a game honours them (`game.quiet_hours`, on by default: the host may turn them off).
Rolls back: yes (the columns go; clocks started meanwhile keep their deadlines)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("player_settings", quiet_start=pw.IntegerField(null=True),
                        quiet_end=pw.IntegerField(null=True),
                        quiet_days=pw.CharField(max_length=32, default=""))
    migrator.add_fields("game", quiet_hours=pw.BooleanField(default=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("player_settings", "quiet_start", "quiet_end", "quiet_days")
    migrator.remove_fields("game", "quiet_hours")
