"""Faults a server must ride out: a request that fails in the middle
of a query leaves nothing open for the next one, and a mail worker whose database connections
are killed reconnects and sends everything."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pbem.db.models import Game, db
from pbem.play import creation
from tests.conftest import PG_URL, make_app, reset_postgresql, worker_database

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}]
half_read = []          # what a failed request left alive (as a traceback's reference cycle does)


def pbem_command() -> list[str]:
    script = Path(sys.executable).with_name("pbem")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pbem.ops.cli"]


def environment(database_url: str, smtp_port: int) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update(PBEM_ENV="development", PBEM_DATABASE_URL=database_url,
               PBEM_BASE_URL="http://pbem.test", PBEM_MAIL_SERVER="127.0.0.1",
               PBEM_MAIL_PORT=str(smtp_port), PBEM_MAIL_TIMEOUT="5")
    return env


def test_a_request_that_failed_mid_query_does_not_keep_its_snapshot(app, client, smtp):
    @app.get("/test/fails-half-way")
    def fails_half_way():
        rows = Game.select().order_by(Game.id).iterator()
        half_read.append(rows)
        next(rows)                     # one row read, the statement left open
        raise RuntimeError("a bug in the middle of a query")

    for _ in range(2):
        creation.create_game("tigris", PLAYERS, seed=1)
    assert client.get("/games/1").status_code == 200
    with pytest.raises(RuntimeError):
        client.get("/test/fails-half-way")
    created = subprocess.run(
        pbem_command() + ["games", "create", "tigris", "--player", "Cy <cy@example.org>",
                          "--player", "Di <di@example.org>", "--seed", "3"],
        env=environment(app.config["DATABASE_URL"], smtp.port), capture_output=True, text=True,
        timeout=120)
    assert created.returncode == 0, created.stderr
    new_id = int(created.stdout.split()[0])
    assert client.get(f"/games/{new_id}").status_code == 200
    half_read.clear()


# -- a mail worker whose database connections are killed ----------------------------------------

def outbox_rows(connection, first: int, count: int) -> set[str]:
    """`count` outbox rows written straight into the database (as another host would)."""
    ids = {f"<reconnect.{i}@pbem.test>" for i in range(first, first + count)}
    with connection.cursor() as cursor:
        for i in range(first, first + count):
            cursor.execute(
                "INSERT INTO outbox (message_id, kind, recipient, subject, body_text, body_html, "
                "template, language, rendered, created_at, attempts, next_try_at, last_error) "
                "VALUES (%s, 'turn', %s, %s, 'text', '<p>text</p>', '', 'en', true, "
                "now() at time zone 'utc', 0, now() at time zone 'utc' - interval '1 second', '')",
                (f"<reconnect.{i}@pbem.test>", f"r{i}@example.org", f"Mail {i}"))
    return ids


def terminate_backends(connection, database: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                       "WHERE datname = %s AND pid <> pg_backend_pid()", (database,))
        return cursor.fetchone()[0]


def unsent(connection) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM outbox WHERE sent_at IS NULL")
        return cursor.fetchone()[0]


@pytest.mark.services
@pytest.mark.skipif(not PG_URL, reason="PBEM_TEST_DATABASE_URL names no PostgreSQL database")
def test_a_worker_whose_connections_are_killed_reconnects_and_loses_nothing(tmp_path, duel):
    import psycopg2
    from tests.mail.test_workers import Sink
    from aiosmtpd.controller import Controller
    from tests.conftest import free_port
    from tests.install.conftest import fresh_postgresql

    url = fresh_postgresql("reconnect")
    make_app(url, 25)                           # the schema
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=free_port())
    controller.start()
    own = psycopg2.connect(url)
    own.autocommit = True
    log = open(tmp_path / "worker.log", "w+")
    worker = subprocess.Popen(pbem_command() + ["mail", "worker", "--interval", "0.5"], cwd=ROOT,
                              env=environment(url, controller.port), stdout=log,
                              stderr=subprocess.STDOUT)
    try:
        expected = outbox_rows(own, 0, 50)
        deadline = time.monotonic() + 120
        while not sink.ids and time.monotonic() < deadline:
            time.sleep(0.1)
        killed = 0
        for round_ in range(1, 4):              # three times, while mail is flowing
            expected |= outbox_rows(own, 100 * round_, 50)
            time.sleep(0.3)
            killed += terminate_backends(own, url.rsplit("/", 1)[1])
        assert killed >= 1
        after_kill = time.monotonic()
        while unsent(own) and time.monotonic() < after_kill + 60:
            assert worker.poll() is None, "the worker exited"
            time.sleep(0.5)
        flowed_in = time.monotonic() - after_kill
        alive = worker.poll() is None
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        controller.stop()
        own.close()
    log.seek(0)
    output = log.read()
    log.close()
    assert alive, output
    assert set(sink.ids) == expected, (len(set(sink.ids)), len(expected), output[-3000:])
    assert flowed_in < 60, output[-3000:]
    print(f"{killed} backends killed; every mail sent {flowed_in:.1f} s after the last kill, "
          f"{len(sink.ids) - len(set(sink.ids))} sent twice (at-least-once)")
