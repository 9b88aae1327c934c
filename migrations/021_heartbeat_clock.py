"""What /health and `pbem check` learn from each process's heartbeat beyond its time (written
with the database's clock): how far the process's own clock was from the database's
(`clock_ahead`, seconds, negative when behind), the error of its last read of the replies'
IMAP mailbox (`error`, a row of kind "imap"; empty when it read fine), and when a later worker
on its host found it gone without saying so (`lost_at`: a killed worker that was restarted
counts once). Rolls back: yes (the three columns go)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("heartbeat", clock_ahead=pw.FloatField(null=True),
                        error=pw.TextField(default=""), lost_at=pw.DateTimeField(null=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("heartbeat", "clock_ahead", "error", "lost_at")
