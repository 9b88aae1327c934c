"""GET /health: database, migrations, the mail worker's heartbeat and the oldest waiting mail;
200 when all is well, 503 with the problems in words otherwise; never a secret."""
from __future__ import annotations

import datetime as dt

import pbem

from pbem.play import creation
from pbem.play import health
from pbem.mail import mailer
from pbem.log import store
from pbem.db.models import Heartbeat, Outbox, db, utcnow
from tests.conftest import free_port


def create_game():
    game, _ = creation.create_game("duel", [{"name": "Ann", "email": "ann@example.org"},
                                         {"name": "Bob", "email": "bob@example.org"}], seed=3)
    return game


def test_healthy_once_the_worker_has_made_a_pass(app, client, smtp):
    create_game()
    mailer.worker(once=True)
    answer = client.get("/health")
    assert answer.status_code == 200, answer.json
    assert answer.json["status"] == "ok" and answer.json["problems"] == []
    assert answer.json["database"] == "ok" and answer.json["migrations"]["current"]
    assert answer.json["mail_worker"]["heartbeat_age"] == 0
    assert answer.json["mail"] == {"waiting": 0, "held": 0, "oldest_waiting_age": None, "failed": 0}
    assert answer.json["mail_worker"]["live"] == 1 and answer.json["mail_worker"]["dead"] == []
    assert answer.json["version"] == pbem.__version__
    assert smtp.inbox.to("ann@example.org") and smtp.inbox.to("bob@example.org")


def test_mail_send_from_cron_counts_as_the_worker(app, client, smtp):
    """A host who sends mail with `pbem mail send` every minute from cron, not the worker,
    has a healthy /health too."""
    create_game()
    assert client.get("/health").status_code == 503             # never ran
    out = app.test_cli_runner().invoke(args=["mail", "send"])
    assert out.exit_code == 0, out.output
    answer = client.get("/health")
    assert answer.status_code == 200, answer.json
    assert answer.json["mail_worker"]["heartbeat_age"] == 0


def test_a_worker_that_never_ran_or_fell_silent_is_unhealthy(app, client):
    answer = client.get("/health")                  # a fresh install: a note until mail waits
    assert answer.status_code == 200
    assert "the mail worker has never run (pbem mail worker)" in answer.json["notes"]
    create_game()
    answer = client.get("/health")
    assert answer.status_code == 503
    assert "the mail worker has never run (pbem mail worker)" in answer.json["problems"]
    health.beat(now=utcnow() - dt.timedelta(minutes=10))
    answer = client.get("/health")
    assert answer.status_code == 503 and answer.json["mail_worker"]["heartbeat_age"] >= 600
    assert any("silent for" in problem for problem in answer.json["problems"])
    health.beat()
    assert client.get("/health").status_code == 200
    assert Heartbeat.select().count() == 1


def test_mail_waiting_too_long_is_unhealthy(app, client):
    health.beat()
    create_game()
    answer = client.get("/health")
    assert answer.status_code == 200 and answer.json["mail"]["waiting"] >= 2
    Outbox.update(created_at=utcnow() - dt.timedelta(hours=2)).execute()
    answer = client.get("/health")
    assert answer.status_code == 503 and answer.json["mail"]["oldest_waiting_age"] >= 7200
    assert any("oldest waiting mail" in problem for problem in answer.json["problems"])


def test_a_migration_not_applied_is_unhealthy(app, client):
    health.beat()
    db.obj.execute_sql("DELETE FROM migratehistory WHERE name = '008_heartbeat_per_process'")
    answer = client.get("/health")
    assert answer.status_code == 503
    assert answer.json["migrations"] == {"current": False, "pending": ["008_heartbeat_per_process"]}
    assert "run pbem db upgrade" in answer.json["problems"][0]


def test_an_unreachable_database_is_a_503_not_a_500(tmp_path, duel):
    from pbem.app import create_app
    app = create_app({"TESTING": True, "SECRET_KEY": "Zq8wR2xk3Vn9LpT4sY6bHc1JmG5fD7aE0uW-_QiXoP",
                      "DATABASE_URL": f"postgresql://pbem@127.0.0.1:{free_port()}/pbem"})
    try:
        answer = app.test_client().get("/health")
        assert answer.status_code == 503
        assert answer.json["database"] == "unreachable"
        assert answer.json["problems"] == ["the database is unreachable"]
    finally:
        if hasattr(db.obj, "close_all"):
            db.obj.close_all()


def test_the_report_carries_no_secret(app, client):
    create_game()
    text = client.get("/health").get_data(as_text=True)
    for secret in (app.config["SECRET_KEY"], "ann@example.org", app.config["DATABASE_URL"],
                   "127.0.0.1"):
        assert secret not in text


def test_postgresql_without_autovacuum_is_noted(app, client):
    """On PostgreSQL, /health notes an autovacuum that is off (the planner's statistics go
    stale and the outbox's claim sorts every unsent mail); on SQLite there is none to note.
    Whichever this database is, the note is there exactly when its server runs without it."""
    answer = client.get("/health")
    noted = [f for f in answer.json["findings"] if "autovacuum is off" in f["text"]]
    if db.obj.__class__.__name__.startswith("Sqlite"):
        off = False
    else:
        (setting,), = db.obj.execute_sql("SHOW autovacuum").fetchall()
        off = setting == "off"
    assert [f["severity"] for f in noted] == ([health.NOTE] if off else []), answer.json
    if off:
        assert any("autovacuum is off" in note for note in answer.json["notes"])
