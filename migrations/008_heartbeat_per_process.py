"""One heartbeat per process (kind, host, pid), so /health tells a dead mail worker from a live
one; each outbox claim names the process that holds it. Rolls back to one row per name (the
rows of every process are dropped: the next pass writes a new one)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("heartbeat")

    @migrator.create_model
    class Heartbeat(pw.Model):
        kind = pw.CharField(max_length=40)
        host = pw.CharField(max_length=255)
        pid = pw.IntegerField()
        started_at = pw.DateTimeField()
        beat_at = pw.DateTimeField()
        stopped_at = pw.DateTimeField(null=True)

        class Meta:
            table_name = "heartbeat"
            indexes = ((("host", "pid", "kind"), True),)

    migrator.add_fields("outbox", claimed_by=pw.CharField(max_length=300, null=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("outbox", "claimed_by")
    migrator.remove_model("heartbeat")

    @migrator.create_model
    class Heartbeat(pw.Model):
        name = pw.CharField(max_length=40, unique=True)
        beat_at = pw.DateTimeField()

        class Meta:
            table_name = "heartbeat"
