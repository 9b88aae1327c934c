"""When each reply address last had an answer (`reply_address.answered_at`): a reply that is
not played is answered at most once an hour per reply address, so forged replies to an old
address cannot fill its player's mailbox. Rolls back: yes (the column goes; answers are then
limited by the outbox's daily quota alone, as before)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("reply_address", answered_at=pw.DateTimeField(null=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("reply_address", "answered_at")
