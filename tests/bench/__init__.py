"""Benchmarks: `make bench` runs them all (tests/bench/__main__.py). With PBEM_BENCH_QUICK=1 each
runs with tiny numbers and prints the same lines: tests/install/test_bench.py does that, so a
broken bench fails CI instead of waiting for the next person who runs it.

A bench's databases start empty and its own database.upgrade() migrates them. The test run
also names the tests' migrated templates (tests/conftest.py), PBEM_BENCH_SQLITE_TEMPLATE (a
file) and PBEM_BENCH_POSTGRESQL_TEMPLATE (a database on PBEM_TEST_DATABASE_URL's server): a
bench's databases are then copies of them, which its database.upgrade() finds migrated
(migrating from scratch took 0.5 s on SQLite and 1 s on PostgreSQL, eleven times a run)."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

QUICK = os.environ.get("PBEM_BENCH_QUICK") == "1"
SQLITE_TEMPLATE = os.environ.get("PBEM_BENCH_SQLITE_TEMPLATE")
POSTGRESQL_TEMPLATE = os.environ.get("PBEM_BENCH_POSTGRESQL_TEMPLATE")


def sized(full, quick):
    """`full` for `make bench`; `quick` for the smoke run (PBEM_BENCH_QUICK=1)."""
    return quick if QUICK else full


def new_sqlite(path: Path) -> str:
    """The URL of a new SQLite database at `path` (which must not exist yet): empty, or a copy
    of the migrated template where one is named."""
    if SQLITE_TEMPLATE:
        shutil.copyfile(SQLITE_TEMPLATE, path)
    return f"sqlite:///{path}"


def _made(server: str, name: str) -> str:
    """The database `name` dropped and made anew through the database `server` names (empty, or
    a copy of the migrated template where one is named); its URL."""
    import psycopg2
    base = server.rsplit("/", 1)[0]
    template = f' TEMPLATE "{POSTGRESQL_TEMPLATE}"' if POSTGRESQL_TEMPLATE else ""
    connection = psycopg2.connect(server)
    connection.autocommit = True
    try:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            cursor.execute(f'CREATE DATABASE "{name}"{template}')
    finally:
        connection.close()
    return f"{base}/{name}"


def own_postgresql(url: str, bench: str) -> str:
    """A new database of the bench's own next to the one named."""
    return _made(url, f"{url.rsplit('/', 1)[1]}_{bench}")


def emptied_postgresql(url: str) -> None:
    """The database `url` names without any of pbem's rows: with no tables at all for the
    bench's database.upgrade() to migrate, or made anew from the migrated template (through
    the server's maintenance database: a database cannot drop itself)."""
    if POSTGRESQL_TEMPLATE:
        _made(url.rsplit("/", 1)[0] + "/postgres", url.rsplit("/", 1)[1])
    else:
        from tests.conftest import reset_postgresql
        reset_postgresql(url)


def on_both_databases(measure, bench: str) -> None:
    """`measure(kind, url)` on a new SQLite file, then on a PostgreSQL database of the bench's
    own where PBEM_TEST_DATABASE_URL names a server."""
    with tempfile.TemporaryDirectory(prefix=f"pbem-{bench}-") as folder:
        measure("SQLite", new_sqlite(Path(folder) / "bench.db"))
    pg = os.environ.get("PBEM_TEST_DATABASE_URL")
    if pg:
        measure("PostgreSQL", own_postgresql(pg, bench))
    else:
        print("  PostgreSQL: not measured (PBEM_TEST_DATABASE_URL is not set)")
