"""Work done once per database (`done_once`): the redaction of mail sent by versions before it
is recorded there when it is done, so no process scans the outbox for it again (each `pbem mail
send` did, inside the write lock). Rolls back: yes (the table goes; the next version's first
pass looks for unredacted mail once more, in short batches)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    @migrator.create_model
    class DoneOnce(pw.Model):
        id = pw.AutoField()
        name = pw.CharField(max_length=60, unique=True)
        done_at = pw.DateTimeField()

        class Meta:
            table_name = "done_once"


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("done_once")
