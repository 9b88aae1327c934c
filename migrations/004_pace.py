"""Pace: days per decision and the timeout policy of a game, each seat's decision clock,
timeout events, and the players' vacation bank."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields(
        "game",
        pace_days=pw.FloatField(null=True),
        on_timeout=pw.CharField(max_length=8, default="wait"),
        drop_after=pw.IntegerField(default=3),
        paused_at=pw.DateTimeField(null=True),
        resumed_at=pw.DateTimeField(null=True))
    migrator.add_fields(
        "seat",
        asked_at=pw.DateTimeField(null=True),
        remind_at=pw.DateTimeField(null=True),
        deadline=pw.DateTimeField(null=True),
        held_at=pw.DateTimeField(null=True),
        reminded_at=pw.DateTimeField(null=True),
        late_at=pw.DateTimeField(null=True),
        missed=pw.IntegerField(default=0),
        dropped=pw.BooleanField(default=False))
    migrator.add_fields("event", timeout=pw.BooleanField(default=False))

    @migrator.create_model
    class Vacation(pw.Model):
        email = pw.CharField(max_length=254, unique=True)
        year = pw.IntegerField()
        used_days = pw.FloatField(default=0)
        away_from = pw.DateTimeField(null=True)
        away_until = pw.DateTimeField(null=True)

        class Meta:
            table_name = "vacation"


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("vacation")
    migrator.remove_fields("event", "timeout")
    migrator.remove_fields("seat", "asked_at", "remind_at", "deadline", "held_at",
                           "reminded_at", "late_at", "missed", "dropped")
    migrator.remove_fields("game", "pace_days", "on_timeout", "drop_after", "paused_at",
                           "resumed_at")
