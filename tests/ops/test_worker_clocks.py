"""Heartbeats by the database's clock: a host whose clock runs a day ahead neither stays live
for a day nor forgets the other hosts' dead workers, one whose clock runs an hour behind is not
called dead, and each is named (a log line, and a problem /health lists); a killed worker that
is restarted counts once."""
from __future__ import annotations

import datetime as dt
import logging
import signal
import subprocess

from pbem.db.database import database_now
from pbem.db.models import Heartbeat, utcnow
from pbem.play import health
from tests.ops.test_reconnect import ROOT, environment, pbem_command
from tests.ops.test_worker_health import beating, wait_until

DAY, HOUR = dt.timedelta(days=1), dt.timedelta(hours=1)


def test_a_host_a_day_ahead_keeps_the_others_rows_and_is_named(app, client, caplog):
    two_hours_ago = database_now() - 2 * HOUR
    Heartbeat.create(kind=health.MAIL_WORKER, host="mail-2.example", pid=7, beat_at=two_hours_ago,
                     started_at=two_hours_ago)
    with caplog.at_level(logging.WARNING):
        health.beat(host_now=utcnow() + DAY)
    assert "this host's clock is 86" in caplog.text and "s ahead of the database's" in caplog.text
    mine = Heartbeat.get(Heartbeat.pid != 7)
    assert abs((mine.beat_at - database_now()).total_seconds()) < 60     # the database's time
    assert round(mine.clock_ahead / 3600) == 24
    assert Heartbeat.select().where(Heartbeat.host == "mail-2.example").count() == 1
    answer = client.get("/health")
    assert answer.status_code == 503
    assert [d["host"] for d in answer.json["mail_worker"]["dead"]] == ["mail-2.example"]
    assert any("s ahead of the database's" in p for p in answer.json["problems"]), answer.json
    # ten minutes on (by the database's clock) it is silent, whatever its own clock says
    answer = health.report(app.config, now=database_now() + dt.timedelta(minutes=10))
    assert answer["mail_worker"]["live"] == 0


def test_a_host_an_hour_behind_is_live_and_named(app, client, caplog):
    with caplog.at_level(logging.WARNING):
        health.beat(host_now=utcnow() - HOUR)
    assert "s behind the database's" in caplog.text
    answer = client.get("/health")
    report = answer.json["mail_worker"]
    assert report["live"] == 1 and report["dead"] == [] and report["heartbeat_age"] <= 5
    assert [p for p in answer.json["problems"] if "behind the database's" in p], answer.json
    health.beat()                               # its clock set right: nothing to say
    assert client.get("/health").status_code == 200


def test_a_killed_worker_restarted_counts_once(app, client, smtp):
    env = environment(app.config["DATABASE_URL"], smtp.port)
    command = pbem_command() + ["mail", "worker", "--interval", "0.5"]
    workers = [subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)]
    try:
        wait_until(lambda: beating(workers[0].pid))
        workers[0].send_signal(signal.SIGKILL)
        workers[0].wait(timeout=30)
        workers.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL))       # systemd restarts it
        wait_until(lambda: beating(workers[1].pid))
        answer = client.get("/health")
        assert answer.status_code == 200, answer.json
        assert answer.json["mail_worker"]["live"] == 1
        assert [d["pid"] for d in answer.json["mail_worker"]["dead"]] == [workers[0].pid]
    finally:
        for worker in workers:
            worker.kill()
            worker.wait(timeout=30)
