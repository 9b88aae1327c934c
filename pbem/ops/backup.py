"""Backup and restore of an SQLite database while pbem runs, each checked; the restored
games verified and their players told."""
from __future__ import annotations

import re
import sqlite3
import tempfile
from pathlib import Path

import peewee as pw

from ..log import store
from ..db.models import MODELS, Game, db


class OpsError(Exception):
    """Refused, with the reason in plain words."""


def sqlite_path(url: str) -> Path:
    if not url.startswith("sqlite:///") or url.endswith(":memory:"):
        raise OpsError("pbem backup and restore are for an SQLite database file; for "
                       "PostgreSQL use pg_dump and pg_restore (deploy/README.md, Backups)")
    return Path(url[len("sqlite:///"):])


def integrity(path: Path) -> str | None:
    """Why `path` is not a whole pbem SQLite database, or None when it is."""
    try:
        if not path.is_file():
            return f"{path} does not exist"
    except OSError as exc:              # a folder this user may not enter
        return f"cannot read {path}: {exc.strerror or exc}"
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            result = connection.execute("PRAGMA integrity_check").fetchone()[0]
            tables = {name for (name,) in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        return f"{path} is not an SQLite database ({exc})"
    if result != "ok":
        return f"{path} is damaged: {result}"
    if not {"game", "event", "migratehistory"} <= tables:
        return f"{path} is not a pbem database (no game, event or migratehistory table)"
    return None


def copy_sqlite(source: Path, target: Path, single_file: bool = False) -> None:
    """A consistent copy while others read and write (SQLite's online backup API).
    `single_file`: the copy leaves WAL mode, so that opening it (the integrity check, a later
    restore) makes no -wal or -shm file beside it."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        with dst:
            src.backup(dst)
        if single_file:
            dst.execute("PRAGMA journal_mode=DELETE")
    finally:
        dst.close()
        src.close()


def backup(url: str, target: Path, force: bool = False) -> bool:
    """Copy the SQLite database at `url` to `target` (a consistent copy, checked); whether
    it made `target`'s folder. A folder this user may not enter or write is said in words."""
    source = sqlite_path(url)
    if not source.is_file():
        raise OpsError(f"there is no database at {source}")
    try:
        exists = target.exists()          # a folder this user may not enter: PermissionError
        made_folder = not target.parent.is_dir()
    except OSError as exc:
        raise OpsError(_unwritable(target.parent, exc)) from None
    if exists and not force:
        raise OpsError(f"{target} exists already (pass --force to replace it)")
    if target.resolve() == source.resolve():
        raise OpsError("the backup cannot be the database itself")
    partial = target.with_name(target.name + ".partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial.unlink(missing_ok=True)
        copy_sqlite(source, partial, single_file=True)
    except (OSError, sqlite3.Error) as exc:
        raise OpsError(_unwritable(target.parent, exc)) from None
    problem = integrity(partial)
    if problem:
        partial.unlink()
        raise OpsError(f"the copy failed its check: {problem}")
    partial.replace(target)
    return made_folder


def _unwritable(folder: Path, exc: BaseException) -> str:
    """Why a backup could not be written there, and what to do, in one line."""
    owner = ""
    try:
        import pwd
        owner = f" (owned by {pwd.getpwuid(folder.stat().st_uid).pw_name})"
    except (OSError, KeyError, ImportError):
        pass
    return (f"cannot write the backup in {folder}{owner}: {exc}. Back up into a folder this "
            "user may write, e.g. install -d -o pbem -g pbem -m 700 /var/backups/pbem-sqlite")


SHOWN_OBJECTS = 8      # foreign schema objects named in a refusal


def schema_of(connection: sqlite3.Connection) -> dict[tuple[str, str], tuple]:
    """Each schema object of an SQLite database but SQLite's own, (type, name) -> what it is:
    a table's columns (as a set: a rollback and upgrade may reorder them), foreign keys and
    CHECK constraints; an index's table, uniqueness, partiality and columns; a trigger's or a
    view's SQL."""
    objects = {}
    rows = connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                              "WHERE name NOT LIKE 'sqlite!_%' ESCAPE '!'").fetchall()
    for kind, name, table, sql in rows:
        quoted = name.replace('"', '""')
        if kind == "table":
            columns = frozenset(
                (c[1], (c[2] or "").upper(), c[3], c[4], c[5], c[6])
                for c in connection.execute(f'PRAGMA table_xinfo("{quoted}")'))
            keys = frozenset(tuple(k[2:]) for k in
                             connection.execute(f'PRAGMA foreign_key_list("{quoted}")'))
            checks = len(re.findall(r"\bCHECK\b", sql or "", re.IGNORECASE))
            objects[(kind, name)] = (columns, keys, checks)
        elif kind == "index":
            listed = {i[1]: i for i in connection.execute(
                f'PRAGMA index_list("{table.replace(chr(34), chr(34) * 2)}")')}
            entry = listed.get(name)
            columns = tuple(c[2] for c in connection.execute(f'PRAGMA index_info("{quoted}")'))
            objects[(kind, name)] = (table, entry[2] if entry else None,
                                     entry[4] if entry else None, columns)
        else:                                   # trigger, view: pbem makes none
            objects[(kind, name)] = (table, " ".join((sql or "").split()))
    return objects


def pbem_schema(migrations: list[str]) -> dict[tuple[str, str], tuple]:
    """The schema pbem's own migrations `migrations` build, in an empty scratch database."""
    from peewee_migrate import Router
    from ..db.database import MIGRATIONS
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "reference.db"
        scratch = pw.SqliteDatabase(str(path))
        try:
            router = Router(scratch, migrate_dir=MIGRATIONS)
            unknown = sorted(set(migrations) - set(router.todo))
            if unknown:
                raise OpsError(f"will not restore: the backup has migrations this pbem does not "
                               f"know ({', '.join(unknown)}): restore it with the pbem that made it")
            migrator = router.migrator_class(scratch)
            for name in sorted(migrations):
                router.run_one(name, migrator, fake=False)
        finally:
            scratch.close()
        connection = sqlite3.connect(path)
        try:
            return schema_of(connection)
        finally:
            connection.close()


def foreign_objects(backup_file: Path) -> list[str]:
    """The schema objects of a backup that pbem's migrations (those the backup says it had)
    do not make, or that differ from what they make: a crafted trigger, view, table, column,
    index or constraint. Empty for a backup pbem made."""
    connection = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
    try:
        found = schema_of(connection)
        migrations = [name for (name,) in connection.execute("SELECT name FROM migratehistory")]
    except sqlite3.DatabaseError as exc:
        raise OpsError(f"will not restore: {backup_file} is not a pbem database ({exc})") from None
    finally:
        connection.close()
    own = pbem_schema(migrations)
    foreign = []
    for (kind, name), what in sorted(found.items()):
        if (kind, name) not in own:
            foreign.append(f"{kind} {name}")
        elif own[(kind, name)] != what:
            foreign.append(f"{kind} {name} (altered)")
    return foreign


def foreign_objects_postgresql() -> list[str]:
    """The objects of pbem's PostgreSQL schema that pbem's migrations never make (it makes no
    trigger, function, view, rule or policy): after a pg_restore of a crafted dump. Functions
    of installed extensions are not counted."""
    own = {model._meta.table_name for model in MODELS} | {"migratehistory"}
    queries = {
        "trigger": "SELECT c.relname || '.' || t.tgname FROM pg_trigger t "
                   "JOIN pg_class c ON c.oid = t.tgrelid "
                   "WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace",
        "event trigger": "SELECT evtname FROM pg_event_trigger",
        "function": "SELECT p.proname FROM pg_proc p WHERE p.pronamespace = "
                    "current_schema()::regnamespace AND NOT EXISTS (SELECT 1 FROM pg_depend d "
                    "WHERE d.objid = p.oid AND d.deptype = 'e')",
        "rule": "SELECT tablename || '.' || rulename FROM pg_rules "
                "WHERE schemaname = current_schema()",
        "policy": "SELECT tablename || '.' || policyname FROM pg_policies "
                  "WHERE schemaname = current_schema()",
        "relation": "SELECT relname FROM pg_class WHERE relnamespace = "
                    "current_schema()::regnamespace AND relkind IN ('r', 'v', 'm', 'p', 'f')",
    }
    found = []
    for kind, sql in queries.items():
        for (name,) in db.obj.execute_sql(sql).fetchall():
            if kind != "relation" or name not in own:
                found.append(f"{'table or view' if kind == 'relation' else kind} {name}")
    return sorted(found)


def foreign_schema(url: str) -> list[str]:
    """The schema objects of the live database that pbem did not create (see foreign_objects
    and foreign_objects_postgresql)."""
    if url.startswith("sqlite:///") and not url.endswith(":memory:"):
        return foreign_objects(sqlite_path(url))
    if url.startswith("sqlite"):
        return []
    return foreign_objects_postgresql()


def restore(url: str, backup_file: Path, force: bool = False) -> None:
    """Put `backup_file` in place of the database (refusing to overwrite one unless `force`).
    A backup holding schema objects pbem did not create (a trigger that un-spends links, a
    table, an altered column or index) is refused, and nothing is changed."""
    target = sqlite_path(url)
    problem = integrity(backup_file)
    if problem:
        raise OpsError(f"will not restore: {problem}")
    foreign = foreign_objects(backup_file)
    if foreign:
        more = len(foreign) - SHOWN_OBJECTS
        raise OpsError("will not restore: the backup holds schema objects pbem did not create: "
                       + ", ".join(foreign[:SHOWN_OBJECTS]) + (f" and {more} more" if more > 0 else "")
                       + ". Nothing was changed; restore a backup made by pbem backup")
    try:
        if target.exists() and target.stat().st_size and not force:
            raise OpsError(f"{target} exists (a live database?): stop pbem-web and pbem-mail, "
                           "then pass --force to overwrite it")
        target.parent.mkdir(parents=True, exist_ok=True)
        copy_sqlite(backup_file, target)
    except (OSError, sqlite3.Error) as exc:
        raise OpsError(f"cannot write the database {target}: {exc}") from None


def mail_after_restore():
    """(the moment the restored database was last written, [(game id, names of the seats
    mailed)], [games that failed]): every seat to act in every running game gets a fresh link
    saying the game was restored to that moment."""
    from ..play import restored
    when = restored.restored_to()
    mailed, failed = restored.mail_seats_to_act(when)
    return when, mailed, failed


def verify_all() -> list[tuple[Game, list[str]]]:
    """(game as verified, its problems) of every game, each read in one snapshot."""
    checked = [store.verified(row.id) for row in Game.select(Game.id).order_by(Game.id)]
    return [(one.game, one.problems) for one in checked]
