"""Table talk (each game's messages, and how far each seat has had them by mail) and each
address's home settings (language, mail per decision or a daily digest)."""

import datetime as dt

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    @migrator.create_model
    class Message(pw.Model):
        game = pw.ForeignKeyField(migrator.orm["game"], backref="messages", on_delete="CASCADE")
        seat = pw.IntegerField(null=True)
        text = pw.TextField()
        created_at = pw.DateTimeField(default=dt.datetime.utcnow)

        class Meta:
            table_name = "message"
            indexes = ((("game", "id"), False),)

    migrator.add_fields("seat", talk_mailed_upto=pw.IntegerField(default=0))

    @migrator.create_model
    class PlayerSettings(pw.Model):
        email = pw.CharField(max_length=254, unique=True)
        mail_mode = pw.CharField(max_length=10, default="each")
        digest_hour = pw.IntegerField(default=7)
        last_digest_on = pw.DateField(null=True)
        created_at = pw.DateTimeField(default=dt.datetime.utcnow)

        class Meta:
            table_name = "player_settings"


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("player_settings")
    migrator.remove_fields("seat", "talk_mailed_upto")
    migrator.remove_model("message")
