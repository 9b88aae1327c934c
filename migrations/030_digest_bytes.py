"""The hash of each event and checkpoint kept as its 32 bytes, not as 64 hex digits: on every
event of every game, a seventh of what an event takes (pbem/db/models.py's `Digest` reads and
writes the hex digits the rest of pbem speaks, and reads a row not yet converted as it is).
PostgreSQL changes the columns' type (bytea) in place; SQLite, whose columns take any type,
has each row's value rewritten, a batch at a time. Rolls back: yes (the hex digits again)."""

import peewee as pw
from peewee_migrate import Migrator

TABLES = ("event", "checkpoint")
BATCH = 5000


def _postgresql(database) -> bool:
    return isinstance(database, pw.PostgresqlDatabase)


def _rewrite(database: pw.Database, table: str, to_bytes: bool) -> None:
    """Every row's hash in SQLite, from hex text to bytes or back, in batches by id."""
    kind, convert = ("text", bytes.fromhex) if to_bytes else ("blob", lambda raw: bytes(raw).hex())
    last = 0
    while True:
        rows = database.execute_sql(
            f'SELECT id, hash FROM "{table}" WHERE id > ? AND typeof(hash) = ? ORDER BY id LIMIT ?',
            (last, kind, BATCH)).fetchall()
        if not rows:
            return
        with database.atomic():
            for row_id, value in rows:
                database.execute_sql(f'UPDATE "{table}" SET hash = ? WHERE id = ?',
                                     (convert(value), row_id))
        last = rows[-1][0]


def _convert(migrator: Migrator, database: pw.Database, to_bytes: bool) -> None:
    for table in TABLES:
        if _postgresql(database):
            kind, how = ("bytea", "decode(hash, 'hex')") if to_bytes else \
                ("varchar(64)", "encode(hash, 'hex')")
            migrator.sql(f'ALTER TABLE "{table}" ALTER COLUMN hash TYPE {kind} USING {how}')
        else:
            migrator.run(_rewrite, database, table, to_bytes)


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    _convert(migrator, database, True)


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    _convert(migrator, database, False)
