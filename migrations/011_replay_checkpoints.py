"""Replay checkpoints (issue 18, item 4): the state after every 50th event of each game, kept in
the database, so that any replay step starts from the nearest one at or before it in every
worker. On PostgreSQL the game table also gets a fillfactor of 80 (issue 23, item 9): the
snapshot rewritten on every move then stays on its page as a HOT update, whose dead copy the
next visit to the page prunes, instead of piling up until VACUUM (tests/bench/bench_storage.py
has the figures; pages already full get the room at the next VACUUM FULL). Games from before
this migration get their checkpoints at their first `pbem games verify`; until then a step
replays from the seed, as before. Rolls back: yes (the table goes; replays start from the seed
again)."""

import peewee as pw
from peewee_migrate import Migrator


def _postgresql(database) -> bool:
    return isinstance(database, pw.PostgresqlDatabase)


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    @migrator.create_model
    class Checkpoint(pw.Model):
        game = pw.ForeignKeyField(migrator.orm["game"], backref="checkpoints",
                                  on_delete="CASCADE")
        seq = pw.IntegerField()
        hash = pw.CharField(max_length=64)
        state = pw.TextField()

        class Meta:
            table_name = "checkpoint"
            indexes = ((("game", "seq"), True),)

    if _postgresql(database):
        migrator.sql("ALTER TABLE game SET (fillfactor = 80)")


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    if _postgresql(database):
        migrator.sql("ALTER TABLE game RESET (fillfactor)")
    migrator.remove_model("checkpoint")
