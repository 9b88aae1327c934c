"""Heartbeats: when the mail worker last finished a pass (shown by /health and pbem check)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    @migrator.create_model
    class Heartbeat(pw.Model):
        name = pw.CharField(max_length=40, unique=True)
        beat_at = pw.DateTimeField()

        class Meta:
            table_name = "heartbeat"


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("heartbeat")
