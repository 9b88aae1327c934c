"""Benchmarks: `make bench` runs them all (tests/bench/__main__.py). With PBEM_BENCH_QUICK=1 each
runs with tiny numbers and prints the same lines: tests/install/test_bench.py does that, so a
broken bench fails CI instead of waiting for the next person who runs it."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

QUICK = os.environ.get("PBEM_BENCH_QUICK") == "1"


def sized(full, quick):
    """`full` for `make bench`; `quick` for the smoke run (PBEM_BENCH_QUICK=1)."""
    return quick if QUICK else full


def own_postgresql(url: str, bench: str) -> str:
    """A database of the bench's own next to the one named (made empty)."""
    import psycopg2
    base, name = url.rsplit("/", 1)
    name = f"{name}_{bench}"
    connection = psycopg2.connect(url)
    connection.autocommit = True
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        cursor.execute(f'CREATE DATABASE "{name}"')
    connection.close()
    return f"{base}/{name}"


def on_both_databases(measure, bench: str) -> None:
    """`measure(kind, url)` on a new SQLite file, then on a PostgreSQL database of the bench's
    own where PBEM_TEST_DATABASE_URL names a server."""
    with tempfile.TemporaryDirectory(prefix=f"pbem-{bench}-") as folder:
        measure("SQLite", f"sqlite:///{Path(folder) / 'bench.db'}")
    pg = os.environ.get("PBEM_TEST_DATABASE_URL")
    if pg:
        measure("PostgreSQL", own_postgresql(pg, bench))
    else:
        print("  PostgreSQL: not measured (PBEM_TEST_DATABASE_URL is not set)")
