"""The operator's commands: pbem check, the mail queue (list, retry, prune, test), a new host
link, backup and restore of SQLite, rolling a migration back."""
from __future__ import annotations

import datetime as dt
import random
import re
import sqlite3

import pytest
from click.testing import CliRunner

from pbem.play import creation
from pbem.db import database
from pbem.play import health
from pbem.mail import mailer
from pbem.log import store
from pbem.ops.cli import cli as pbem_cli
from pbem.db.models import Game, Link, Outbox, db, utcnow
from tests.conftest import free_port, play_at_random

STRONG = "Zq8wR2x" + "k3Vn9LpT4sY6bHc1JmG5fD7aE0uW-_QiXoP"


@pytest.fixture
def run(app):
    runner = app.test_cli_runner()

    def invoke(*args):
        return runner.invoke(args=list(args))
    return invoke


def new_game(host_email="host@example.org"):
    game, _ = creation.create_game("duel", [{"name": "Ann", "email": "ann@example.org"},
                                         {"name": "Bob", "email": "bob@example.org"}], seed=4,
                                host_email=host_email)
    return game


# -- pbem check ----------------------------------------------------------------------------------------

def check(env):
    return CliRunner().invoke(pbem_cli, ["check"], env=env, catch_exceptions=False)


def test_check_passes_a_good_setup(app, smtp, tmp_path):
    health.beat()
    settings = tmp_path / "pbem.env"
    settings.write_text(f"PBEM_SECRET_KEY={STRONG}\nPBEM_BASE_URL=https://pbem.example.org\n"
                        f"PBEM_DATABASE_URL={app.config['DATABASE_URL']}\n"
                        f"PBEM_MAIL_SERVER=127.0.0.1\nPBEM_MAIL_PORT={smtp.port}\n")
    out = check({"PBEM_CONFIG": str(settings), "PBEM_MAIL_PORT": None})
    assert out.exit_code == 0, out.output
    assert f"settings file {settings}" in out.output
    assert "the schema is up to date" in out.output and "answers" in out.output
    assert "/new is open" in out.output and "no problems found" in out.output


def test_check_names_each_problem_in_plain_words(tmp_path):
    env = {"PBEM_CONFIG": None, "PBEM_SECRET_KEY": "change-me-to-64-random-characters",
           "PBEM_BASE_URL": "http://localhost:5000", "PBEM_MAIL_SERVER": "127.0.0.1",
           "PBEM_MAIL_PORT": str(free_port()), "PBEM_MAIL_TIMEOUT": "3",
           "PBEM_DATABASE_URL": f"postgresql://pbem@127.0.0.1:{free_port()}/pbem"}
    out = check(env)
    assert out.exit_code == 1
    assert "PROBLEM  PBEM_SECRET_KEY" in out.output and "forge turn links" in out.output
    assert "PBEM_BASE_URL=http://localhost:5000 points at this machine" in out.output
    assert "the database cannot be reached" in out.output
    assert "the mail server 127.0.0.1:" in out.output and "cannot be reached" in out.output
    assert "4 problem(s)" in out.output


def test_check_says_when_migrations_are_missing_and_signup_is_closed(tmp_path, smtp):
    env = {"PBEM_CONFIG": None, "PBEM_SECRET_KEY": STRONG, "PBEM_BASE_URL": "https://a.example",
           "PBEM_DATABASE_URL": f"sqlite:///{tmp_path}/empty.db", "PBEM_OPEN_SIGNUP": "false",
           "PBEM_MAIL_SERVER": "127.0.0.1", "PBEM_MAIL_PORT": str(smtp.port)}
    out = check(env)
    assert out.exit_code == 1
    assert "migrations not applied: 001_initial" in out.output and "pbem db upgrade" in out.output
    if "OPEN_SIGNUP" in __import__("pbem.config").config.DEFAULTS:
        assert "/new is closed" in out.output


def test_check_notes_settings_the_environment_overrides(tmp_path, smtp):
    settings = tmp_path / "pbem.env"
    settings.write_text("PBEM_BASE_URL=https://file.example\n")
    env = {"PBEM_CONFIG": str(settings), "PBEM_BASE_URL": "https://env.example",
           "PBEM_DATABASE_URL": f"sqlite:///{tmp_path}/x.db"}
    out = check(env)
    assert "winning over the file: PBEM_BASE_URL" in out.output
    assert "links point at https://env.example" in out.output


# -- pbem mail test | list | retry | prune ---------------------------------------------------------------

def test_mail_test_sends_one_mail_at_once(run, smtp):
    out = run("mail", "test", "ops@example.org")
    assert out.exit_code == 0, out.output
    [message] = smtp.inbox.to("ops@example.org")
    assert message["Subject"] == "[pbem] test mail" and Outbox.select().count() == 0


def test_mail_test_says_why_it_could_not_send(run, smtp, app):
    smtp.inbox.refuse["nobody@example.org"] = "550 no such user"
    out = run("mail", "test", "nobody@example.org")
    assert out.exit_code == 1 and "did not take it" in out.output and "550" in out.output
    assert "not a valid email address" in run("mail", "test", "not an address").output


def test_mail_list_retry_after_a_misconfigured_server_refused_everything(run, app, smtp):
    new_game()
    for row in Outbox.select():
        smtp.inbox.refuse[row.recipient] = "554 relay denied"
    mailer.send_due()
    failed = run("mail", "list", "--failed")
    assert failed.exit_code == 0
    assert failed.output.count("\tfailed\t") == Outbox.select().count() >= 3
    assert "(554, b'relay denied')" in failed.output
    assert run("mail", "list", "--waiting").output.strip() == "no mail waiting"
    smtp.inbox.refuse.clear()
    out = run("mail", "retry", "--failed")
    assert out.exit_code == 0 and out.output.startswith(f"{Outbox.select().count()} mails queued")
    assert mailer.send_due()["sent"] == Outbox.select().count()
    assert smtp.inbox.to("ann@example.org") and smtp.inbox.to("host@example.org")
    assert "\tsent\t" in run("mail", "list").output


def test_mail_retry_one_by_id_and_refusals(run, app, smtp):
    new_game()
    row = Outbox.select().order_by(Outbox.id).first()
    Outbox.update(failed_at=utcnow(), attempts=15).where(Outbox.id == row.id).execute()
    assert run("mail", "retry", str(row.id)).output.startswith("1 mails queued")
    assert Outbox.get_by_id(row.id).failed_at is None and Outbox.get_by_id(row.id).attempts == 0
    mailer.send_due()
    assert "was sent already" in run("mail", "retry", str(row.id)).output
    assert "there is no mail 9999" in run("mail", "retry", "9999").output
    assert run("mail", "retry").exit_code == 2
    assert run("mail", "retry", "0").exit_code == 2


def test_mail_prune_deletes_old_mail_and_the_host_page_still_shows_its_list(app, client, smtp):
    game, host_token = creation.create_game("duel", [{"name": "Ann", "email": "ann@example.org"},
                                                    {"name": "Bob", "email": "bob@example.org"}],
                                           seed=4, host_email="host@example.org")
    mailer.send_due()
    roots = {row.id for row in Outbox.select().where(Outbox.kind.in_(["invite", "host"]))}
    long_ago = utcnow() - dt.timedelta(days=40)
    Outbox.update(sent_at=long_ago).execute()          # the invitations too
    Outbox.insert_many([{"message_id": f"<old.{i}@pbem.test>", "game": game.id, "seat": 0,
                         "kind": "turn", "recipient": f"old{i:03}@example.org",
                         "subject": f"Old mail {i:03}", "body_text": "t" * 1000,
                         "body_html": "h" * 1000, "sent_at": long_ago}
                        for i in range(150)]).execute()
    Outbox.create(message_id="<no.game@pbem.test>", kind="signup", recipient="x@example.org",
                  subject="Confirm", body_text="t", body_html="h", sent_at=long_ago)
    Outbox.create(message_id="<recent@pbem.test>", kind="turn", recipient="y@example.org",
                  subject="Recent", body_text="t", body_html="h", sent_at=utcnow())
    expired = Link.select().order_by(Link.id).first()
    Link.update(expires_at=utcnow() - dt.timedelta(seconds=1)).where(Link.id == expired.id).execute()
    links = Link.select().count()

    def listed():
        page = client.get(f"/host/{host_token}").get_data(as_text=True)
        return re.findall(r"old\d{3}@example\.org", page)   # a row names its mail's kind

    before = listed()
    assert len(before) == 100                       # the page lists the game's newest 100
    in_game = Outbox.select().where(Outbox.game == game.id).count()
    doomed = in_game - 100 - len(roots) + 1         # and the mail of no game goes too
    out = app.test_cli_runner().invoke(args=["mail", "prune", "--older-than", "30"])
    assert out.exit_code == 0, out.output
    assert out.output.startswith(f"deleted {doomed} sent mails"), out.output
    assert out.output.endswith("and 1 expired links\n") and doomed >= 51
    assert listed() == before
    assert roots <= {row.id for row in Outbox.select()}          # threads keep their first mail
    assert not Outbox.select().where(Outbox.message_id == "<no.game@pbem.test>").exists()
    assert Outbox.select().where(Outbox.message_id == "<recent@pbem.test>").exists()
    assert Link.select().count() == links - 1 and Link.get_or_none(Link.id == expired.id) is None
    again = app.test_cli_runner().invoke(args=["mail", "prune", "--older-than", "30"])
    assert again.output.startswith("deleted 0 sent mails")
    assert app.test_cli_runner().invoke(args=["mail", "prune", "--older-than", "0"]).exit_code == 2


# -- pbem games host-link --------------------------------------------------------------------------------

def test_host_link_is_mailed_to_the_host_and_the_old_one_stops(run, app, client, smtp):
    game = new_game()
    mailer.send_due()
    [first] = smtp.inbox.to("host@example.org")
    old = "/host/" + smtp.inbox.text(first).split("/host/")[1].split()[0]
    assert client.get(old).status_code == 200
    out = run("games", "host-link", str(game.id))
    assert out.exit_code == 0 and "queued to host@example.org" in out.output
    assert "/host/" not in out.output
    mailer.send_due()
    second = smtp.inbox.to("host@example.org")[-1]
    new = "/host/" + smtp.inbox.text(second).split("/host/")[1].split()[0]
    assert new != old and client.get(new).status_code == 200
    assert client.get(old).status_code == 403


def test_host_link_is_printed_when_the_game_has_no_host_address(run, app, client):
    game = new_game(host_email="")
    out = run("games", "host-link", str(game.id))
    assert out.exit_code == 0 and out.output.startswith("http://pbem.test/host/")
    assert client.get(out.output.strip().replace("http://pbem.test", "")).status_code == 200
    assert "there is no game 999" in run("games", "host-link", "999").output


# -- pbem backup | restore (SQLite) ------------------------------------------------------------------------

@pytest.fixture
def sqlite_app(tmp_path, smtp, duel):
    from tests.conftest import make_app
    app = make_app(f"sqlite:///{tmp_path}/live/pbem.db", smtp.port)
    with app.app_context():
        yield app
    if not db.is_closed():
        db.close()


def test_backup_while_writing_then_restore_and_verify(sqlite_app, tmp_path):
    runner = sqlite_app.test_cli_runner()
    game = new_game()
    from tests.conftest import play_at_random
    import random
    play_at_random(game, 4, random.Random(1))
    # a reader holds the database open, with a write in the WAL not yet checkpointed
    reader = sqlite3.connect(tmp_path / "live/pbem.db")
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM event").fetchone()
    out = runner.invoke(args=["backup", str(tmp_path / "backups/one.db")])
    reader.rollback()
    reader.close()
    assert out.exit_code == 0, out.output
    assert "integrity ok" in out.output and "secret key" in out.output
    assert "exists already" in runner.invoke(args=["backup", str(tmp_path / "backups/one.db")]).output
    seq_at_backup = store.get_game(game.id).seq
    play_at_random(store.get_game(game.id), 2, random.Random(2))

    refused = runner.invoke(args=["restore", str(tmp_path / "backups/one.db")])
    assert refused.exit_code == 1 and "--force" in refused.output
    out = runner.invoke(args=["restore", "--force", str(tmp_path / "backups/one.db")])
    assert out.exit_code == 0, out.output
    assert "1 games, 0 broken" in out.output
    db.connect(reuse_if_open=True)
    assert Game.get_by_id(game.id).seq == seq_at_backup


def test_restore_into_an_empty_place_and_refusing_what_is_not_a_backup(tmp_path, smtp, duel):
    from tests.conftest import make_app
    source = make_app(f"sqlite:///{tmp_path}/a.db", smtp.port)
    with source.app_context():
        new_game()
        assert source.test_cli_runner().invoke(args=["backup", str(tmp_path / "b.db")]).exit_code == 0
        db.close()
    from pbem.app import create_app
    fresh = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path}/new/c.db"})
    runner = fresh.test_cli_runner()
    (tmp_path / "junk.db").write_text("not a database")
    assert "not an SQLite database" in runner.invoke(args=["restore", str(tmp_path / "junk.db")]).output
    assert "does not exist" in runner.invoke(args=["restore", str(tmp_path / "none.db")]).output
    out = runner.invoke(args=["restore", str(tmp_path / "b.db")])
    assert out.exit_code == 0 and "1 games, 0 broken" in out.output
    with fresh.app_context():
        db.connect(reuse_if_open=True)
        assert Game.select().count() == 1
        db.close()


def test_backup_of_postgresql_points_to_pg_dump_and_sqlite_writes_the_file(app, run, tmp_path):
    target = tmp_path / "backup.db"
    out = run("backup", str(target))
    if database.is_sqlite():
        assert out.exit_code == 0, out.output
        assert target.stat().st_size > 0
    else:
        assert out.exit_code == 1 and "pg_dump" in out.output and not target.exists()


# -- pbem db rollback --------------------------------------------------------------------------------------

def newer_than_005() -> str:
    """The migrations after 005, newest first, as rollback names them."""
    return ", ".join(reversed([m for m in health.known_migrations() if m[:3] > "005"]))


def test_rollback_names_what_it_undoes_and_asks_first(app):
    runner = app.test_cli_runner()
    out = runner.invoke(args=["db", "rollback", "--to", "005"], input="n\n")
    assert out.exit_code == 1 and "Aborted" in out.output
    assert f"this undoes, newest first: {newer_than_005()}" in out.output
    assert "009_pace_failure, 008_heartbeat_per_process, 007_" in newer_than_005()
    assert "heartbeat" in db.obj.get_tables()
    out = runner.invoke(args=["db", "rollback", "--to", "005_talk_and_home"], input="y\n")
    assert out.exit_code == 0, out.output
    assert f"rolled back: {newer_than_005()}" in out.output
    assert "heartbeat" not in db.obj.get_tables()
    assert "is not applied here" in runner.invoke(args=["db", "rollback", "--to", "006"]).output
    out = runner.invoke(args=["db", "upgrade"])
    assert "006_heartbeat, " in out.output and "heartbeat" in db.obj.get_tables()


def test_rollback_undoes_the_newest_first_whatever_order_they_were_applied_in(app):
    """008 undone after 006 would find no table to put back: the order is the numbers'."""
    db.obj.execute_sql("UPDATE migratehistory SET id = id + 100 WHERE name = '006_heartbeat'")
    out = app.test_cli_runner().invoke(args=["db", "rollback", "--to", "005"], input="y\n")
    assert out.exit_code == 0, out.output
    assert f"rolled back: {newer_than_005()}" in out.output
    assert database.applied()[-1] == "005_talk_and_home"

def test_mail_prune_leaves_a_long_finished_game_the_mails_of_its_result(app, client, smtp):
    game, host_token = creation.create_game("duel", [{"name": "Ann", "email": "ann@example.org"},
                                                    {"name": "Bob", "email": "bob@example.org"}],
                                           seed=4, host_email="host@example.org")
    game = play_at_random(game, 50, random.Random(4))
    assert game.status == "over"
    mailer.send_due()
    kinds = {row.kind for row in Outbox.select()}
    assert {"invite", "turn", "over"} <= kinds
    kept = {row.id for row in Outbox.select().where(Outbox.kind.in_(["invite", "host", "over"]))}
    long_ago = utcnow() - dt.timedelta(days=100)
    Outbox.update(sent_at=long_ago).execute()
    Game.update(finished_at=long_ago).where(Game.id == game.id).execute()
    still_running, _ = creation.create_game("duel", [{"name": "Cy", "email": "cy@example.org"},
                                                     {"name": "Di", "email": "di@example.org"}],
                                            seed=5)
    mailer.send_due()
    Outbox.update(sent_at=long_ago).where(Outbox.game == still_running.id).execute()
    running_mail = Outbox.select().where(Outbox.game == still_running.id).count()
    out = app.test_cli_runner().invoke(args=["mail", "prune", "--older-than", "90"])
    assert out.exit_code == 0, out.output
    assert {row.id for row in Outbox.select().where(Outbox.game == game.id)} == kept
    assert Outbox.select().where(Outbox.game == still_running.id).count() == running_mail
    page = client.get(f"/host/{host_token}").get_data(as_text=True)
    assert "Game over" in page and "Invitation" in page and "Turn mail" not in page
