"""Sign-ups waiting for their host's confirmation, addresses that opted out of mail, and an
index to count the mail sent to one address in a day."""

import datetime as dt

import peewee as pw
from peewee_migrate import Migrator


def _now():
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    game_model = migrator.orm["game"]

    @migrator.create_model
    class Signup(pw.Model):
        nonce_hash = pw.CharField(max_length=64, unique=True)
        host_email = pw.CharField(max_length=254, default="", index=True)
        client = pw.CharField(max_length=64, default="", index=True)
        request = pw.TextField()
        language = pw.CharField(max_length=8, default="en")
        created_at = pw.DateTimeField(default=_now, index=True)
        expires_at = pw.DateTimeField()
        confirmed_at = pw.DateTimeField(null=True)
        game = pw.ForeignKeyField(game_model, null=True, on_delete="SET NULL")

        class Meta:
            table_name = "signup"

    @migrator.create_model
    class OptOut(pw.Model):
        email = pw.CharField(max_length=254, unique=True)
        created_at = pw.DateTimeField(default=_now)

        class Meta:
            table_name = "optout"

    migrator.add_index("outbox", "recipient", "sent_at")


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.drop_index("outbox", "recipient", "sent_at")
    migrator.remove_model("optout")
    migrator.remove_model("signup")
