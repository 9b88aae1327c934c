"""Initial schema: games, seats, the event log, turn links and the mail outbox."""

import datetime as dt

import peewee as pw
from peewee_migrate import Migrator


def _now():
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    @migrator.create_model
    class Game(pw.Model):
        rules = pw.CharField(max_length=40)
        rules_version = pw.IntegerField()
        options = pw.TextField()
        players = pw.IntegerField()
        seed = pw.BigIntegerField()
        seq = pw.IntegerField(default=0)
        head_hash = pw.CharField(max_length=64)
        state = pw.TextField()
        status = pw.CharField(max_length=10, default="running", index=True)
        title = pw.CharField(max_length=200, default="")
        host_email = pw.CharField(max_length=254, default="")
        host_nonce_hash = pw.CharField(max_length=64, default="")
        created_at = pw.DateTimeField(default=_now)
        finished_at = pw.DateTimeField(null=True)

        class Meta:
            table_name = "game"

    @migrator.create_model
    class Seat(pw.Model):
        game = pw.ForeignKeyField(Game, backref="seats", on_delete="CASCADE")
        index = pw.IntegerField()
        name = pw.CharField(max_length=100)
        email = pw.CharField(max_length=254, default="")
        language = pw.CharField(max_length=8, default="en")
        seen_seq = pw.IntegerField(default=0)

        class Meta:
            table_name = "seat"
            indexes = ((("game", "index"), True),)

    @migrator.create_model
    class Event(pw.Model):
        game = pw.ForeignKeyField(Game, backref="events", on_delete="CASCADE")
        seq = pw.IntegerField()
        seat = pw.IntegerField(null=True)
        action = pw.TextField()
        automatic = pw.BooleanField(default=False)
        summary = pw.TextField(default="")
        created_at = pw.CharField(max_length=32)
        hash = pw.CharField(max_length=64)

        class Meta:
            table_name = "event"
            indexes = ((("game", "seq"), True),)

    @migrator.create_model
    class Link(pw.Model):
        game = pw.ForeignKeyField(Game, backref="links", on_delete="CASCADE")
        seat = pw.IntegerField()
        turn_seq = pw.IntegerField()
        nonce_hash = pw.CharField(max_length=64, unique=True)
        created_at = pw.DateTimeField(default=_now)
        expires_at = pw.DateTimeField()
        spent_at = pw.DateTimeField(null=True)
        spent_reason = pw.CharField(max_length=20, default="")

        class Meta:
            table_name = "link"
            indexes = ((("game", "seat", "spent_at"), False),)

    @migrator.create_model
    class Outbox(pw.Model):
        message_id = pw.CharField(max_length=200, unique=True)
        game = pw.ForeignKeyField(Game, backref="mail", null=True, on_delete="SET NULL")
        seat = pw.IntegerField(null=True)
        kind = pw.CharField(max_length=20)
        recipient = pw.CharField(max_length=254)
        subject = pw.CharField(max_length=300)
        body_text = pw.TextField()
        body_html = pw.TextField()
        created_at = pw.DateTimeField(default=_now)
        attempts = pw.IntegerField(default=0)
        next_try_at = pw.DateTimeField(default=_now, index=True)
        claimed_until = pw.DateTimeField(null=True)
        sent_at = pw.DateTimeField(null=True, index=True)
        failed_at = pw.DateTimeField(null=True)
        last_error = pw.TextField(default="")

        class Meta:
            table_name = "outbox"


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    for name in ("outbox", "link", "event", "seat", "game"):
        migrator.remove_model(name)
