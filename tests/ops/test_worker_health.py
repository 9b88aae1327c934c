"""Health per worker: one heartbeat per process, so /health tells a killed
mail worker from a live one and names the mail it still holds; a worker stopped by SIGTERM
gives its claims back at once; mail held by the daily cap is "held", not stuck."""
from __future__ import annotations

import datetime as dt
import signal
import socket
import subprocess
import time

from pbem.db.models import Heartbeat, Outbox, db, utcnow
from pbem.play import health
from tests.ops.test_reconnect import ROOT, environment, pbem_command


def mail_rows(count: int, **fields) -> list[int]:
    rows = [Outbox.create(message_id=f"<h.{i}.{time.monotonic_ns()}@pbem.test>", kind="turn",
                          recipient=f"r{i}@example.org", subject="s", body_text="t",
                          body_html="h", **fields) for i in range(count)]
    return [row.id for row in rows]


def wait_until(condition, seconds=120):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


def beating(pid: int) -> bool:
    db.close()                      # a fresh snapshot of what the workers wrote
    return Heartbeat.select().where(Heartbeat.pid == pid).exists()


def side_by_side() -> bool:
    """Each worker has beaten since the last of them started."""
    rows = list(Heartbeat.select())
    return all(row.beat_at > max(r.started_at for r in rows) for row in rows)


def test_health_reports_the_one_of_two_workers_that_was_killed(app, client, smtp):
    env = environment(app.config["DATABASE_URL"], smtp.port)
    workers = [subprocess.Popen(pbem_command() + ["mail", "worker", "--interval", "0.5"],
                                cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL) for _ in range(2)]
    survivor, victim = workers
    try:
        wait_until(lambda: all(beating(w.pid) for w in workers) and side_by_side())
        answer = client.get("/health")
        assert answer.status_code == 200, answer.json
        assert answer.json["mail_worker"]["live"] == 2
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=30)
        # what a worker killed mid-pass leaves: mail it claimed, leased for ten minutes ...
        mail_rows(3, claimed_until=utcnow() + dt.timedelta(minutes=10),
                  claimed_by=f"{socket.gethostname()}:{victim.pid}")
        # ... and, six minutes on, a heartbeat that stopped (the survivor's goes on)
        six = dt.timedelta(minutes=6)
        for row in Heartbeat.select():
            row.started_at -= six
            if row.pid == victim.pid:
                row.beat_at -= six
            row.save()
        answer = client.get("/health")
        assert answer.status_code == 503, answer.json
        report = answer.json["mail_worker"]
        assert report["live"] == 1 and report["heartbeat_age"] <= 5
        assert [(d["pid"], d["claimed_mail"]) for d in report["dead"]] == [(victim.pid, 3)]
        assert any(f":{victim.pid} stopped without saying so" in p and "3 mails it claimed" in p
                   for p in answer.json["problems"]), answer.json["problems"]
        Outbox.update(claimed_until=utcnow()).execute()      # the leases ran out
        assert client.get("/health").status_code == 503      # and nothing replaced it yet
        replacement = subprocess.Popen(pbem_command() + ["mail", "worker"], cwd=ROOT, env=env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        workers.append(replacement)
        wait_until(lambda: beating(replacement.pid))
        answer = client.get("/health")
        assert answer.status_code == 200, answer.json
        assert answer.json["mail_worker"]["live"] == 2
        assert [d["pid"] for d in answer.json["mail_worker"]["dead"]] == [victim.pid]
    finally:
        for worker in workers:
            worker.kill()
            worker.wait(timeout=30)


def test_a_worker_stopped_by_sigterm_gives_back_its_claims(app, client, smtp):
    worker = subprocess.Popen(pbem_command() + ["mail", "worker", "--interval", "60"], cwd=ROOT,
                              env=environment(app.config["DATABASE_URL"], smtp.port),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_until(lambda: beating(worker.pid))
        held = mail_rows(2, claimed_until=utcnow() + dt.timedelta(minutes=10),
                         claimed_by=f"{socket.gethostname()}:{worker.pid}")
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=60) == 0
    finally:
        worker.kill()
    assert "its claimed mail is back in the queue" in worker.stderr.read()
    db.close()
    assert all(Outbox.get_by_id(i).claimed_until is None for i in held)
    row = Heartbeat.get(Heartbeat.pid == worker.pid)
    assert row.stopped_at is not None
    assert client.get("/health").json["mail_worker"]["dead"] == []


def test_mail_held_by_the_daily_cap_is_held_not_stuck(app, client):
    health.beat()
    mail_rows(2, created_at=utcnow() - dt.timedelta(hours=5),
              next_try_at=utcnow() + dt.timedelta(hours=3),
              last_error="held: 200 mails to this address in 24 hours")
    answer = client.get("/health")
    assert answer.status_code == 200, answer.json
    assert answer.json["mail"]["held"] == 2 and answer.json["mail"]["oldest_waiting_age"] is None
    mail_rows(1, created_at=utcnow() - dt.timedelta(hours=2))
    answer = client.get("/health")
    assert answer.status_code == 503 and answer.json["mail"]["oldest_waiting_age"] >= 7200


def test_a_failing_pass_before_the_mail_stops_neither_the_other_nor_the_mail(app, smtp,
                                                                             monkeypatch):
    import threading

    import peewee as pw
    from pbem.mail import mailer
    from pbem.play import computers, pace
    ran = []

    def failing(name, exc):
        def run():
            ran.append(name)
            raise exc
        return run
    monkeypatch.setattr(pace, "run_pass", failing("pace", RuntimeError("a bug in the pace pass")))
    monkeypatch.setattr(computers, "run_pass", lambda: ran.append("computers"))
    [row] = mail_rows(1)
    assert mailer._worker_pass(threading.Event()) is True
    assert ran == ["pace", "computers"] and Outbox.get_by_id(row).sent_at is not None
    monkeypatch.setattr(pace, "run_pass", lambda: ran.append("pace"))
    monkeypatch.setattr(computers, "run_pass", failing("computers", ValueError("a bot bug")))
    [row] = mail_rows(1)
    assert mailer._worker_pass(threading.Event()) is True
    assert ran[2:] == ["pace", "computers"] and Outbox.get_by_id(row).sent_at is not None
    # a lost connection fails the whole worker pass: the loop waits and reconnects
    monkeypatch.setattr(pace, "run_pass", failing("pace", pw.OperationalError("server gone")))
    [row] = mail_rows(1)
    assert mailer._worker_pass(threading.Event()) is False
    assert ran[4:] == ["pace"]
    db.connect(reuse_if_open=True)
    assert Outbox.get_by_id(row).sent_at is None
