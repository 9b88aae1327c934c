"""Opening the database named by PBEM_DATABASE_URL and bringing its schema up to date."""
from __future__ import annotations

from pathlib import Path

import peewee as pw
from playhouse.db_url import parse
from playhouse.pool import PooledPostgresqlDatabase

from . import package
from .models import db

MIGRATIONS = package.folder("migrations")
SQLITE_PRAGMAS = {
    "journal_mode": "wal",      # readers never wait for the writer
    "busy_timeout": 10000,      # a writer waits its turn instead of failing "database is locked"
    "foreign_keys": 1,
    "synchronous": "normal",    # safe with WAL; durable at checkpoints
}


def open_database(url: str) -> pw.Database:
    """A peewee database for `url` (sqlite:///path or postgresql://user@host/name)."""
    if url.startswith(("postgres://", "postgresql://")):
        params = parse(url)
        return PooledPostgresqlDatabase(
            params.pop("database"), max_connections=32, stale_timeout=300, timeout=10, **params)
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///"):]
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        return pw.SqliteDatabase(path, pragmas=SQLITE_PRAGMAS, timeout=10)
    raise SystemExit(f"PBEM_DATABASE_URL must start with sqlite:/// or postgresql://, not {url!r}")


def bind(url: str) -> pw.Database:
    database = open_database(url)
    db.initialize(database)
    return database


def is_sqlite() -> bool:
    return isinstance(db.obj, pw.SqliteDatabase)


def upgrade() -> list[str]:
    """Apply every migration not yet applied (idempotent); the names applied now."""
    from peewee_migrate import Router

    router = Router(db.obj, migrate_dir=MIGRATIONS)
    return router.run() or []


def write_transaction():
    """One write transaction: BEGIN IMMEDIATE on SQLite, an ordinary one on PostgreSQL
    (where the game row is locked with SELECT ... FOR UPDATE inside it)."""
    if is_sqlite():
        return db.obj.atomic("IMMEDIATE")
    return db.obj.atomic()

