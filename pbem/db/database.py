"""Opening the database named by PBEM_DATABASE_URL and bringing its schema up to date."""
from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
from pathlib import Path
from urllib.parse import urlsplit

import peewee as pw
from playhouse.db_url import parse
from playhouse.pool import PooledDatabase, PooledPostgresqlDatabase

from .. import package
from ..config import SettingsError
from .models import db, utcnow

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


def autovacuum_off() -> bool:
    """A PostgreSQL server running without autovacuum (so without fresh planner statistics);
    False on SQLite, which has none."""
    if is_sqlite():
        return False
    (setting,), = db.obj.execute_sql("SHOW autovacuum").fetchall()
    return setting != "on"


def database_now() -> dt.datetime:
    """The database's clock (UTC, naive): the one clock every host of a PostgreSQL database
    shares, so that a host whose clock is off neither plays deadlines early nor judges the
    others' heartbeats by its own time. An SQLite database has no server: every process using
    it runs on its host, and its clock is that host's."""
    if is_sqlite():
        return utcnow()
    return db.obj.execute_sql("SELECT statement_timestamp() AT TIME ZONE 'UTC'").fetchone()[0]


MIGRATION_LOCK = 0x70626D02        # PostgreSQL advisory lock: one `pbem db upgrade` at a time


@contextlib.contextmanager
def migration_lock():
    """Hold the schema while migrating: two hosts running `pbem db upgrade` together take
    turns, and the second finds the migrations done. PostgreSQL: a session advisory lock;
    SQLite: an exclusive lock on a file beside the database (SQLite's own locks would turn
    the second away with "database is locked" once its busy timeout ran out)."""
    if not is_sqlite():
        db.obj.execute_sql("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
        try:
            yield
        finally:
            db.obj.execute_sql("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
        return
    path = db.obj.database
    if path == ":memory:":
        yield
        return
    with open(f"{path}.migrate-lock", "a") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)


def _router():
    from peewee_migrate import Router
    return Router(db.obj, migrate_dir=MIGRATIONS)


def upgrade() -> list[str]:
    """Apply every migration not yet applied (idempotent, under the migration lock); the
    names applied now."""
    with migration_lock():
        return _router().run() or []


def applied() -> list[str]:
    """The migrations this database has had, by number."""
    return sorted(_router().done)


def to_undo(name: str, inclusive: bool = False) -> list[str]:
    """The applied migrations newer than `name` (and `name` itself when `inclusive`), newest
    first by number, whatever order they were applied in. `name` may be its number ("006");
    "000" is before the first: every migration."""
    done = applied()
    if name.strip("0") == "":
        return list(reversed(done))
    matches = [m for m in done if m == name or m.split("_", 1)[0] == name]
    if not matches:
        raise ValueError(f"{name} is not applied here (applied: {', '.join(done) or 'none'})")
    start = done.index(matches[0]) + (0 if inclusive else 1)
    return list(reversed(done[start:]))


def rollback(name: str, inclusive: bool = False) -> list[str]:
    """Undo the migrations `to_undo(name, inclusive)` names, newest first, under the migration
    lock; their names, in the order undone."""
    with migration_lock():
        router = _router()
        migrator = router.migrator_class(db.obj)     # the schema as the numbers build it
        for migration in applied():
            router.run_one(migration, migrator)     # (fake: only the migrator learns it)
        undone = []
        for migration in to_undo(name, inclusive):
            router.run_one(migration, migrator, fake=False, downgrade=True)
            undone.append(migration)
        return undone


# -- connections that fail -------------------------------------------------------------------------

RETRY_FIRST, RETRY_MAX = 1.0, 30.0  # seconds between tries of a process whose database went away


def retry_delay(failures: int) -> float:
    """How long a loop waits after `failures` failed passes in a row: doubling, bounded."""
    return min(RETRY_FIRST * 2 ** max(failures - 1, 0), RETRY_MAX)


def lost_connection(exc: BaseException | None) -> bool:
    """Whether `exc` says the connection itself failed (a server restarted, a backend killed,
    a network gone) rather than one statement."""
    return isinstance(exc, (pw.OperationalError, pw.InterfaceError))


def discard_connection(pool_too: bool = False) -> None:
    """Close this thread's connection whatever it was left in — a transaction open, a cursor
    read half-way (which keeps an SQLite snapshot), a server gone — so that the next use opens
    a fresh one. `pool_too`: also close the pool's idle connections (a restarted PostgreSQL
    killed them all)."""
    database = db.obj
    if database is None:
        return
    conn = None if database.is_closed() else database._state.conn
    with contextlib.suppress(Exception):
        if conn is not None:
            conn.rollback()
    while database.transaction_depth():
        database.pop_transaction()
    try:
        if isinstance(database, PooledDatabase):
            database.manual_close()     # not back into the pool: it may be broken
        else:
            database.close()
    except Exception:  # noqa: BLE001 - a dead connection may fail to close; forget it
        with contextlib.suppress(Exception):
            if conn is not None:
                conn.close()
        database._state.reset()
    if pool_too and isinstance(database, PooledDatabase):
        database.close_idle()


def end_request(exc: BaseException | None) -> None:
    """What every request leaves behind: nothing open. After a failure the connection goes
    (a half-read cursor or a broken connection must not serve the next request); otherwise
    PostgreSQL's goes back to the pool and SQLite's stays open for the next request (closing
    it flushes the WAL, 2-4 ms), outside any transaction."""
    if db.obj is None or db.is_closed():
        return
    if exc is not None or db.obj.in_transaction():
        discard_connection(pool_too=lost_connection(exc))
    elif is_sqlite():
        conn = db.obj._state.conn
        if conn.in_transaction:
            conn.rollback()
    else:
        db.close()


def write_transaction():
    """One write transaction: BEGIN IMMEDIATE on SQLite, an ordinary one on PostgreSQL
    (where the game row is locked with SELECT ... FOR UPDATE inside it)."""
    if is_sqlite():
        return db.obj.atomic("IMMEDIATE")
    return db.obj.atomic()


def read_snapshot():
    """One consistent view for a reader of several rows: whatever commits meanwhile stays out
    of it. SQLite: a deferred transaction (in WAL mode its snapshot is taken at the first read
    and writers go on); PostgreSQL: a REPEATABLE READ transaction. Inside a transaction
    already, the reader shares that one."""
    if is_sqlite():
        return db.obj.atomic()
    return db.obj.atomic(isolation_level="REPEATABLE READ")
