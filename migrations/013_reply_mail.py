"""Moves by answering the turn mail (issue 20): each turn mail's reply id (its hash only),
bound to the mail's link, and the replies already handled (by the hash of their Message-ID).
Rolls back: yes (both tables go; replies to mails sent before are then not known)."""

import datetime as dt

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    @migrator.create_model
    class ReplyAddress(pw.Model):
        id_hash = pw.CharField(max_length=64, unique=True)
        link = pw.ForeignKeyField(migrator.orm["link"], backref="replies", on_delete="CASCADE")
        created_at = pw.DateTimeField(default=dt.datetime.utcnow)

        class Meta:
            table_name = "reply_address"

    @migrator.create_model
    class InboundMail(pw.Model):
        key_hash = pw.CharField(max_length=64, unique=True)
        outcome = pw.CharField(max_length=20)
        received_at = pw.DateTimeField(default=dt.datetime.utcnow)

        class Meta:
            table_name = "inbound_mail"


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("inbound_mail")
    migrator.remove_model("reply_address")
