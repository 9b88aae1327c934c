"""A command whose database is missing, unreachable, empty or not migrated as this pbem needs
says so in one line and exits 1: no traceback, and no SQLite file made where none was."""
from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from pbem.db import database, releases
from pbem.ops.cli import cli as pbem_cli
from tests.conftest import PG_URL, free_port, make_app, play_at_random
from tests.ops.test_cli import STRONG, new_game


def pbem(database_url: str, *args: str):
    env = {"PBEM_CONFIG": None, "PBEM_SECRET_KEY": STRONG, "PBEM_BASE_URL": "https://a.example",
           "PBEM_DATABASE_URL": database_url, "PBEM_MAIL_SERVER": "127.0.0.1",
           "PBEM_MAIL_PORT": str(free_port())}
    return CliRunner().invoke(pbem_cli, list(args), env=env, catch_exceptions=False)


def said_in_one_line(out, words: str) -> None:
    assert out.exit_code == 1, out.output
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], out.output


COMMANDS = [("games", "verify", "--all"), ("games", "list"), ("mail", "status"),
            ("mail", "prune", "--older-than", "90")]


@pytest.mark.parametrize("command", COMMANDS)
def test_a_missing_sqlite_database_is_said_and_not_made(tmp_path, command):
    path = tmp_path / "pbem.db"
    said_in_one_line(pbem(f"sqlite:///{path}", *command), f"there is no database at {path} "
                     "(PBEM_DATABASE_URL): pbem db upgrade makes it")
    assert not path.exists()


def test_an_empty_database_asks_for_pbem_db_upgrade(tmp_path):
    path = tmp_path / "pbem.db"
    path.write_bytes(b"")
    said_in_one_line(pbem(f"sqlite:///{path}", "games", "verify", "--all"),
                     f"the database {path} has no pbem tables: run pbem db upgrade")


def test_a_postgresql_server_that_does_not_answer_is_said(tmp_path):
    port = free_port()
    said_in_one_line(pbem(f"postgresql://pbem@127.0.0.1:{port}/pbem", "games", "verify", "--all"),
                     f"cannot reach the database pbem@127.0.0.1:{port}/pbem: ")


@pytest.mark.services
@pytest.mark.skipif(not PG_URL, reason="needs PBEM_TEST_DATABASE_URL (PostgreSQL)")
def test_a_postgresql_database_that_does_not_exist_is_said():
    url = PG_URL.rsplit("/", 1)[0] + "/pbem_no_such_database"
    out = pbem(url, "games", "verify", "--all")
    said_in_one_line(out, "cannot reach the database ")
    assert 'database "pbem_no_such_database" does not exist' in out.output


def test_a_database_without_this_release_s_migrations_is_said(database_url, smtp, duel):
    """The guide's rollback went past the release it reinstalled: verify met a missing
    column and printed a traceback."""
    app = make_app(database_url, smtp.port)
    with app.app_context():
        play_at_random(new_game(), 3, random.Random(2))
        undone = database.rollback(releases.newest_migration("0.3.0"))
    out = pbem(database_url, "games", "verify", "--all")
    said_in_one_line(out, "lacks migrations this pbem")
    assert ", ".join(reversed(undone)) in out.output and "run pbem db upgrade" in out.output
