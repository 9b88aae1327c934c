"""Two `pbem mail worker` processes on one PostgreSQL outbox of 1,000 rows: each mail reaches
the real SMTP sink exactly once, and rows that cannot be sent stop neither worker."""
from __future__ import annotations

import os
import re
import subprocess
import threading
import sys
import time
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from tests.conftest import PG_URL, free_port, make_app, reset_postgresql, worker_database

ROWS = 1000
ROOT = Path(__file__).resolve().parents[2]
MESSAGE_ID = re.compile(rb"^Message-ID:\s*(<[^>]+>)", re.M | re.I)


class Sink:
    """A real SMTP server (aiosmtpd) that keeps only each message's Message-ID: parsing a
    thousand whole messages would make the sink, not the workers, the slow part."""

    def __init__(self):
        self.ids, self.lock = [], threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        found = MESSAGE_ID.search(envelope.content)
        with self.lock:
            self.ids.append(found.group(1).decode() if found else None)
        return "250 Message accepted for delivery"


@pytest.fixture
def sink():
    handler = Sink()
    controller = Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    handler.port = controller.port
    yield handler
    controller.stop()


def pbem_command() -> list[str]:
    script = Path(sys.executable).with_name("pbem")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pbem.ops.cli"]


def fill_outbox(app) -> set[str]:
    from pbem.db.models import Outbox, db
    with app.app_context():
        db.connect(reuse_if_open=True)
        poisoned = [{"message_id": f"<poison.{i}@pbem.test>", "kind": "turn",
                     "recipient": to, "subject": subject, "body_text": "x", "body_html": "x"}
                    for i, (subject, to) in enumerate([("Hi\r\nBcc: victim@example.net", "p@example.org"),
                                                       ("Hi", "ánn@exámple.org")])]
        rows = [{"message_id": f"<bulk.{i}@pbem.test>", "kind": "turn",
                 "recipient": f"r{i}@example.org", "subject": f"Mail {i}",
                 "body_text": f"Mail number {i}.", "body_html": f"<p>Mail number {i}.</p>"}
                for i in range(ROWS)]
        with db.atomic():
            Outbox.insert_many(poisoned + rows[:ROWS // 2]).execute()
            Outbox.insert_many(rows[ROWS // 2:]).execute()
        db.close()
    return {row["message_id"] for row in rows}


def sent_count(app) -> int:
    from pbem.db.models import Outbox, db
    with app.app_context():
        db.connect(reuse_if_open=True)
        try:
            return Outbox.select().where(Outbox.sent_at.is_null(False)).count()
        finally:
            db.close()


@pytest.mark.services
@pytest.mark.skipif(not PG_URL, reason="PBEM_TEST_DATABASE_URL names no PostgreSQL database")
def test_two_workers_deliver_each_of_1000_mails_exactly_once(tmp_path, sink):
    url = worker_database(PG_URL)
    reset_postgresql(url)
    app = make_app(url, sink.port)
    expected = fill_outbox(app)
    settings = tmp_path / "pbem.env"
    settings.write_text("")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update(PBEM_CONFIG=str(settings), PBEM_DATABASE_URL=url, PBEM_MAIL_SERVER="127.0.0.1",
               PBEM_MAIL_PORT=str(sink.port), PBEM_BASE_URL="http://pbem.test",
               PBEM_SECRET_KEY="w" * 24 + os.urandom(20).hex(), PBEM_MAIL_SENDER="pbem <pbem@pbem.test>")
    logs = [open(tmp_path / f"worker{i}.log", "w+") for i in range(2)]
    workers = [subprocess.Popen(pbem_command() + ["mail", "worker", "--interval", "0.2"],
                                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
               for log in logs]
    try:
        started = time.monotonic()
        deadline = started + 300            # about 15 s on an idle machine with two cores; a
        #                                    load average of 20 once needed more than 100 s
        while sent_count(app) < ROWS and time.monotonic() < deadline:
            assert all(w.poll() is None for w in workers), "a worker exited"
            time.sleep(0.5)
        print(f"1,000 mails through two workers in {time.monotonic() - started:.1f} s")
        time.sleep(1.0)                     # a doubled mail would arrive now
        alive = [w.poll() is None for w in workers]
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=20)
    output = []
    for log in logs:
        log.seek(0)
        output.append(log.read())
        log.close()
    assert all(alive), output
    received = list(sink.ids)
    assert len(received) == ROWS, (len(received), output)
    assert set(received) == expected
    assert all("Traceback" not in text for text in output), output
    assert all(" sent" in text for text in output), "both workers should have sent mail"
