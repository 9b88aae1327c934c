"""/health and `pbem check` say the same thing of every fault of the running server: the same
finding with the same severity, /health answering 503 exactly when `pbem check` exits 1. Each
fault is built for real on a host sending its mail with `pbem mail send` from cron; a fault
that comes after another is listed beside it, never hidden by it."""
from __future__ import annotations

import datetime as dt

import pytest
from click.testing import CliRunner

from pbem.db import database
from pbem.db.models import Game, Heartbeat, utcnow
from pbem.ops.cli import cli as pbem_cli
from pbem.play import health
from pbem.play import creation
from tests.conftest import free_port

STRONG = "Zq8wR2x" + "k3Vn9LpT4sY6bHc1JmG5fD7aE0uW-_QiXoP"
ANN = {"name": "Ann", "email": "ann@example.org"}
BOB = {"name": "Bob", "email": "bob@example.org"}


def check_env(app, tmp_path, **settings) -> dict:
    """`pbem check`'s environment: the app's database and mail server, good settings, the
    deploy files where this test puts them (none unless a fault writes one)."""
    env = {"PBEM_CONFIG": None, "PBEM_SECRET_KEY": STRONG,
           "PBEM_BASE_URL": "https://pbem.example.org",
           "PBEM_DATABASE_URL": app.config["DATABASE_URL"], "PBEM_MAIL_SERVER": "127.0.0.1",
           "PBEM_MAIL_PORT": str(app.config["MAIL_PORT"]), "PBEM_MAIL_TIMEOUT": "5",
           "PBEM_GUNICORN_CONF": str(tmp_path / "gunicorn.conf.py"),
           "PBEM_NGINX_SITE": str(tmp_path / "nginx-pbem")}
    env.update({f"PBEM_{name}": str(value) for name, value in settings.items()})
    return env


def run_check(env):
    return CliRunner().invoke(pbem_cli, ["check"], env=env, catch_exceptions=False)


def cron(app, *args):
    return app.test_cli_runner().invoke(args=list(args))


def both_say(app, client, tmp_path, monkeypatch, **settings):
    """(/health's answer, pbem check's result) with the same settings; /health reads the
    deploy files from the environment, as the web service does."""
    for name, value in settings.items():
        app.config[name] = value
    monkeypatch.setenv("PBEM_GUNICORN_CONF", str(tmp_path / "gunicorn.conf.py"))
    monkeypatch.setenv("PBEM_NGINX_SITE", str(tmp_path / "nginx-pbem"))
    answer = client.get("/health")
    out = run_check(check_env(app, tmp_path, **settings))
    return answer, out


# -- each fault, built for real: the settings it needs, its severity, the words both say --------

def failing_game(app, tmp_path):
    game, _ = creation.create_game("duel", [ANN, BOB], {"rounds": 3}, seed=3,
                                  pace={"days": 1, "on_timeout": "auto", "drop_after": 3})
    Game.update(state={"not": "a state"}).where(Game.id == game.id).execute()   # cannot load
    out = cron(app, "mail", "send", "--now", (utcnow() + dt.timedelta(days=2)).isoformat())
    assert "1 games could not be settled" in out.output, out.output
    return {}, health.NOTE, f"game {game.id}: the pace pass fails at move"


def dead_worker(app, tmp_path):
    ago = database.database_now() - dt.timedelta(minutes=12)
    Heartbeat.create(kind=health.MAIL_WORKER, host="mail-2.example", pid=4242, started_at=ago,
                     beat_at=ago)
    return {}, health.PROBLEM, "mail worker mail-2.example:4242 stopped without saying so"


def skewed_clock(app, tmp_path):
    health.beat(health.BOTS, host_now=utcnow() + dt.timedelta(hours=1))    # `pbem bots`
    return {}, health.PROBLEM, "s ahead of the database's"


def imap_unreachable(app, tmp_path):
    settings = {"REPLY_ADDRESS": "turns@pbem.example.org", "IMAP_HOST": "127.0.0.1",
                "IMAP_PORT": free_port(), "IMAP_TLS": False, "IMAP_USER": "turns",
                "IMAP_PASSWORD": "secret-imap-password"}
    app.config.update(settings)
    out = cron(app, "mail", "fetch")               # from cron beside `pbem mail send`
    assert out.exit_code == 1 and "cannot be read" in out.output, out.output
    return settings, health.PROBLEM, "the replies' IMAP mailbox could not be read"


def pending_migration(app, tmp_path):
    newest = health.known_migrations()[-1]
    database.rollback(newest, inclusive=True)      # as `pbem db rollback` leaves it
    return {}, health.PROBLEM, f"migrations not applied: {newest}"


def computers_never_played(app, tmp_path):
    app.config.update(BOT_ITERATIONS=3)
    game, _ = creation.create_game("duel", [{"computer": 2}, ANN], {"rounds": 3}, seed=7)
    out = cron(app, "mail", "send")                # and no `pbem bots`, no worker
    assert "computer seats wait to move" in out.output, out.output
    return {}, health.PROBLEM, f"1 computer seats wait to move (games {game.id})"


def disk_nearly_full(app, tmp_path):
    free = health.report(app.config)["disk"]
    if free is None:                               # PostgreSQL: its disk is its server's
        return {}, None, None
    return ({"DISK_FREE_MIN_MB": free["free_mb"] + 1000}, health.PROBLEM,
            "MB free beside the SQLite database")


def old_gunicorn_config(app, tmp_path):
    (tmp_path / "gunicorn.conf.py").write_text("bind = '127.0.0.1:8000'\nworkers = 2\n")
    return {}, health.PROBLEM, "lacks logger_class"


FAULTS = [failing_game, dead_worker, skewed_clock, imap_unreachable, pending_migration,
          computers_never_played, disk_nearly_full, old_gunicorn_config]


@pytest.mark.parametrize("fault", FAULTS, ids=[f.__name__ for f in FAULTS])
def test_health_and_check_say_the_same_of_each_fault(app, client, smtp, tmp_path, monkeypatch,
                                                     fault):
    assert cron(app, "mail", "send").exit_code == 0          # a cron host, healthy
    answer, out = both_say(app, client, tmp_path, monkeypatch)
    assert answer.status_code == 200 and out.exit_code == 0, (answer.json, out.output)

    settings, severity, words = fault(app, tmp_path)
    answer, out = both_say(app, client, tmp_path, monkeypatch, **settings)
    if severity is None:
        assert answer.status_code == 200 and out.exit_code == 0, (answer.json, out.output)
        return
    said = [f for f in answer.json["findings"] if words in f["text"]]
    assert [f["severity"] for f in said] == [severity], answer.json["findings"]
    listed = answer.json["problems" if severity == health.PROBLEM else "notes"]
    assert any(words in text for text in listed), answer.json
    assert answer.status_code == (503 if severity == health.PROBLEM else 200), answer.json
    assert out.exit_code == (1 if severity == health.PROBLEM else 0), out.output
    level = "PROBLEM " if severity == health.PROBLEM else "note    "
    assert any(line.startswith(level) and words in line for line in out.output.splitlines()), \
        out.output
    assert "secret-imap-password" not in answer.get_data(as_text=True)


def test_a_failing_game_hides_no_fault_that_follows(app, client, smtp, tmp_path, monkeypatch):
    """A game the passes fail on is named; the dead worker and the unreadable mailbox that come
    after it turn /health to 503 and `pbem check` to 1, each named beside it."""
    assert cron(app, "mail", "send").exit_code == 0
    _, _, game_words = failing_game(app, tmp_path)
    answer, out = both_say(app, client, tmp_path, monkeypatch)
    assert answer.status_code == 200 and out.exit_code == 0, (answer.json, out.output)
    _, _, worker_words = dead_worker(app, tmp_path)
    settings, _, imap_words = imap_unreachable(app, tmp_path)
    answer, out = both_say(app, client, tmp_path, monkeypatch, **settings)
    assert answer.status_code == 503 and out.exit_code == 1
    for words in (game_words, worker_words, imap_words):
        assert any(words in f["text"] for f in answer.json["findings"]), answer.json
        assert words in out.output, out.output
