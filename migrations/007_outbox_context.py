"""Outbox rows say what to send (a template, its context and the recipient's language) and are
rendered outside the game's lock, after the transaction commits: `rendered` is false until the
bodies are filled in. Rows written before this were rendered when queued."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields(
        "outbox",
        template=pw.CharField(max_length=40, default=""),
        context=pw.TextField(null=True),
        language=pw.CharField(max_length=8, default="en"),
        rendered=pw.BooleanField(default=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("outbox", "template", "context", "language", "rendered")
