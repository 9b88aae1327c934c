"""The host's commands: create, list, verify, export, import, mail, db upgrade."""
from __future__ import annotations

import json

import pytest

from pbem.play import moves as playing, records
from pbem.play import creation
from pbem.db import database
from pbem.log import store
from pbem.db.models import Event, Game, Outbox, db
from tests.conftest import make_app


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()
    return lambda *args, input=None: runner.invoke(args=list(args), input=input)


def played_game(moves=6, seed=5):
    game, _ = creation.create_game("duel", [{"name": "Ann", "email": "ann@example.org"},
                                         {"name": "Bob", "email": "bob@example.org"}], seed=seed)
    rules = store.rules_of(game)
    for _ in range(moves):
        game = store.get_game(game.id)
        state = store.state_of(game)
        if not rules.to_act(state):
            break
        seat = rules.to_act(state)[0]
        playing.act(game.id, seat, rules.legal_actions(state, seat)[0], game.seq)
    return store.get_game(game.id)


def test_create_prints_the_id_and_queues_the_invitations(cli):
    out = cli("games", "create", "duel", "--player", "Ann <ann@example.org>",
              "--player", "Bob <bob@example.org>", "--option", "rounds=3", "--seed", "9")
    assert out.exit_code == 0, out.output
    game = Game.get_by_id(int(out.output.split()[0]))
    assert game.seed == 9 and game.options == {"rounds": 3, "open_hands": False}
    assert Outbox.select().where(Outbox.kind == "invite").count() == 2
    listing = cli("games", "list")
    assert f"{game.id}\tduel\trunning" in listing.output


@pytest.mark.parametrize("args, words", [
    (["chess", "--player", "A <a@x.org>", "--player", "B <b@x.org>"], "choose one of"),
    (["duel", "--player", "A <a@x.org>"], "2 to 3 players"),
    (["duel"] + sum([["--player", f"P{i} <p{i}@x.org>"] for i in range(4)], []), "2 to 3 players"),
    (["duel", "--player", "A <a@x.org>", "--player", "B <b@x.org>", "--option", "speed=3"],
     "allowed: open_hands, rounds"),
    (["duel", "--player", "A <a@x.org>", "--player", "B <b@x.org>", "--option", "rounds=many"],
     "takes a int"),
    (["duel", "--player", "just a name", "--player", "B <b@x.org>"], "Name <email"),
    (["duel", "--player", "A <a@x.org>", "--player", "B <b@x.org>", "--option", "rounds=\u0663"],
     "takes a int"),                                  # an Arabic-Indic three is not a number
])
def test_create_refuses_bad_input_saying_what_is_allowed(cli, args, words):
    out = cli("games", "create", *args)
    assert out.exit_code != 0
    assert words in out.output
    assert Game.select().count() == 0


def test_verify_passes_a_sound_log(cli):
    game = played_game()
    out = cli("games", "verify", str(game.id))
    assert out.exit_code == 0 and "ok" in out.output


def test_verify_detects_an_edited_event(cli):
    game = played_game()
    event = Event.get(Event.game == game, Event.seq == 2)
    Event.update(action={**event.action, "card": 99}).where(Event.game == game, Event.seq == 2).execute()
    out = cli("games", "verify", "--all")
    assert out.exit_code == 1 and "BROKEN" in out.output


def test_verify_detects_a_snapshot_that_disagrees(cli):
    game = played_game()
    state = dict(game.state, scores=[50, 50])
    Game.update(state=state).where(Game.id == game.id).execute()
    out = cli("games", "verify", str(game.id))
    assert out.exit_code == 1 and "snapshot" in out.output


def test_export_then_import_into_an_empty_database(cli, tmp_path, smtp, duel):
    game = played_game(moves=40)
    assert game.status == "over"
    record_file = tmp_path / "game.json"
    assert cli("games", "export", str(game.id), "-o", str(record_file)).exit_code == 0
    record = json.loads(record_file.read_text())
    assert "ann@example.org" not in record_file.read_text()
    state, head = store.state_of(game), game.head_hash

    other = make_app(f"sqlite:///{tmp_path / 'elsewhere.db'}", smtp.port)
    with other.app_context():
        assert Game.select().count() == 0
        out = other.test_cli_runner().invoke(args=["games", "import", str(record_file)])
        assert out.exit_code == 0, out.output
        copy = Game.get_by_id(int(out.output.split()[0]))
        assert copy.head_hash == head == record["head_hash"]
        assert store.state_of(copy) == state and store.verify(copy) == []
        db.close()


def test_import_refuses_a_doctored_record(cli, tmp_path):
    game = played_game()
    record = records.export_game(game)
    record["events"][3]["action"]["card"] = 99
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    out = cli("games", "import", str(path))
    assert out.exit_code != 0 and "cannot import" in out.output
    assert Game.select().count() == 1


def test_db_upgrade_is_idempotent_and_reversible(cli):
    """Every migration rolls back (newest first, down to the first) and applies again."""
    from pbem.play.health import known_migrations
    assert "up to date" in cli("db", "upgrade").output
    names = known_migrations()
    out = cli("db", "rollback", "--to", names[-2], input="y\n")
    assert out.output.strip().endswith(f"rolled back: {names[-1]}")
    assert cli("db", "upgrade").output.strip() == f"applied: {names[-1]}"
    out = cli("db", "rollback", "--to", "000", input="y\n")
    assert out.output.strip().endswith("rolled back: " + ", ".join(reversed(names)))
    assert "game" not in db.obj.get_tables()
    assert cli("db", "upgrade").output.strip() == "applied: " + ", ".join(names)
    assert {"game", "seat", "event", "link", "outbox"} <= set(db.obj.get_tables())


def test_mail_send_command(cli, smtp):
    played_game(moves=2)
    out = cli("mail", "send")
    assert out.exit_code == 0 and "0 failed" in out.output
    assert len(smtp.inbox.messages) == Outbox.select().count()


def test_production_refuses_to_start_without_a_secret_key(monkeypatch, tmp_path):
    from pbem.app import create_app
    monkeypatch.delenv("PBEM_SECRET_KEY", raising=False)
    with pytest.raises(RuntimeError, match="PBEM_SECRET_KEY"):
        create_app({"ENV": "production", "DATABASE_URL": f"sqlite:///{tmp_path}/x.db"})
    monkeypatch.setenv("PBEM_SECRET_KEY", "from-the-environment-Zq8wR2xk3Vn9LpT4sY6b")
    monkeypatch.setenv("PBEM_LINK_MAX_AGE", "123")
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/x.db"})
    assert app.config["SECRET_KEY"] == "from-the-environment-Zq8wR2xk3Vn9LpT4sY6b" and app.config["LINK_MAX_AGE"] == 123


def test_the_pbem_command_lists_its_groups_and_explains_a_missing_secret(tmp_path):
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env["PBEM_DATABASE_URL"] = f"sqlite:///{tmp_path}/x.db"
    run = [sys.executable, "-m", "pbem.ops.cli"]
    helped = subprocess.run(run + ["--help"], env=env, capture_output=True, text=True)
    for group in ("db", "games", "mail", "run", "dev"):
        assert f"  {group} " in helped.stdout
    refused = subprocess.run(run + ["games", "list"], env=env, capture_output=True, text=True)
    assert refused.returncode != 0 and "PBEM_SECRET_KEY" in refused.stderr
    assert "Traceback" not in refused.stderr
