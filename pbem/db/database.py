"""Opening the database named by PBEM_DATABASE_URL and bringing its schema up to date."""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import peewee as pw
from playhouse.db_url import parse
from playhouse.pool import PooledPostgresqlDatabase

from .. import package
from ..config import SettingsError
from .models import db

MIGRATIONS = package.folder("migrations")
SQLITE_PRAGMAS = {
    "journal_mode": "wal",      # readers never wait for the writer
    "busy_timeout": 10000,      # a writer waits its turn instead of failing "database is locked"
    "foreign_keys": 1,
    "synchronous": "normal",    # safe with WAL; durable at checkpoints
}


POSTGRESQL = ("postgres://", "postgresql://")
PARTS = ("host", "port", "name", "user", "password")   # PBEM_DATABASE_<PART>


def parts_of(settings: dict) -> dict:
    """The PBEM_DATABASE_* settings given, by part name."""
    return {part: settings.get(f"DATABASE_{part.upper()}") for part in PARTS
            if settings.get(f"DATABASE_{part.upper()}") not in (None, "")}


def open_database(url: str, parts: dict | None = None) -> pw.Database:
    """A peewee database for `url` (sqlite:///path or postgresql://user@host/name); `parts`
    (host, port, name, user, password) override the URL's, and make it PostgreSQL when a name
    is given with no PostgreSQL URL."""
    parts = parts or {}
    if parts.get("name") and not url.startswith(POSTGRESQL):
        url = "postgresql:///"
    if url.startswith(POSTGRESQL):
        params = postgresql_parameters(url, parts)
        return PooledPostgresqlDatabase(
            params.pop("database"), max_connections=32, stale_timeout=300, timeout=10, **params)
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///"):]
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        return pw.SqliteDatabase(path, pragmas=SQLITE_PRAGMAS, timeout=10)
    raise SettingsError("PBEM_DATABASE_URL must start with sqlite:/// or postgresql://, "
                        f"not {url.split(':', 1)[0]}:...")


def postgresql_parameters(url: str, parts: dict | None = None) -> dict:
    """psycopg2's connection parameters from a URL (percent-encoded user and password) and the
    parts that override it. A URL that does not parse says so without showing the password."""
    parsed = urlsplit(url)
    try:
        parsed.port
        malformed = "@" in parsed.path or "/" in parsed.path[1:] or bool(parsed.fragment)
    except ValueError:
        malformed = True
    if malformed:
        raise SettingsError(
            "PBEM_DATABASE_URL is not a valid URL: write the password's special characters "
            "percent-encoded (/ as %2F, @ as %40, # as %23, % as %25) or give the password "
            "alone as PBEM_DATABASE_PASSWORD")
    params = parse(url, unquote_password=True, unquote_user=True)
    params.setdefault("database", "")
    for part, value in (parts or {}).items():
        params["database" if part == "name" else part] = value
    if "port" in params:
        try:
            params["port"] = int(params["port"])
        except ValueError:
            raise SettingsError(f"PBEM_DATABASE_PORT must be a number, not {params['port']!r}")
    return params


def bind(url: str, parts: dict | None = None) -> pw.Database:
    database = open_database(url, parts)
    db.initialize(database)
    return database


def is_sqlite() -> bool:
    return isinstance(db.obj, pw.SqliteDatabase)


def upgrade() -> list[str]:
    """Apply every migration not yet applied (idempotent); the names applied now."""
    from peewee_migrate import Router

    router = Router(db.obj, migrate_dir=MIGRATIONS)
    return router.run() or []


def rollback(name: str) -> list[str]:
    """Undo the applied migrations from the newest back to `name` (inclusive); their names."""
    from peewee_migrate import Router

    router = Router(db.obj, migrate_dir=MIGRATIONS)
    done = router.done
    if name not in done:
        raise ValueError(f"{name} is not applied here (applied: {', '.join(done) or 'none'})")
    undone = []
    while not undone or undone[-1] != name:
        undone.append(router.done[-1])
        router.rollback()
    return undone


def write_transaction():
    """One write transaction: BEGIN IMMEDIATE on SQLite, an ordinary one on PostgreSQL
    (where the game row is locked with SELECT ... FOR UPDATE inside it)."""
    if is_sqlite():
        return db.obj.atomic("IMMEDIATE")
    return db.obj.atomic()

