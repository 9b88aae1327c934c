"""A game's chat webhook (issue 22): the URL its turns, missed deadlines and result are posted
to, one per game. Rolls back: yes (the table goes; queued posts stay in the outbox and are sent,
their URL being their recipient)."""

import datetime as dt

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    @migrator.create_model
    class Webhook(pw.Model):
        game = pw.ForeignKeyField(migrator.orm["game"], backref="webhooks", unique=True,
                                  on_delete="CASCADE")
        url = pw.CharField(max_length=254)
        created_at = pw.DateTimeField(default=dt.datetime.utcnow)

        class Meta:
            table_name = "webhook"


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("webhook")
