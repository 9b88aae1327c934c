"""Pbem restore says what it did: every seat to act in every running game is
mailed a fresh link saying the game was restored, in the player's language, and the output
says so; and it refuses a backup with schema objects pbem did not create:
a trigger that un-spends links, a table, an altered column or index, with nothing changed."""
from __future__ import annotations

import random
import sqlite3

import pytest

from pbem.db.models import Game, Link, db
from pbem.log import store
from pbem.mail import mailer
from pbem.play import creation
from tests.conftest import play_at_random, token_of


@pytest.fixture
def sqlite_app(tmp_path, smtp, duel):
    from tests.conftest import make_app
    app = make_app(f"sqlite:///{tmp_path}/live/pbem.db", smtp.port)
    with app.app_context():
        yield app
    if not db.is_closed():
        db.close()


def duel_game(first: str, second: str, language: str = "en"):
    game, _ = creation.create_game("duel", [
        {"name": first, "email": f"{first.lower()}@example.org"},
        {"name": second, "email": f"{second.lower()}@example.org", "language": language}],
        seed=4, host_email="host@example.org")
    return game


def waiting_addresses(game) -> set[str]:
    to_act = store.rules_of(game).to_act(store.state_of(game))
    return {seat.email for seat in store.seats_of(game) if seat.index in to_act}


def test_restore_mails_every_seat_to_act_its_newest_link(sqlite_app, tmp_path, smtp):
    runner, client = sqlite_app.test_cli_runner(), sqlite_app.test_client()
    games = [duel_game("Ann", "Bob", "hu"), duel_game("Cid", "Dan")]
    over = play_at_random(duel_game("Eve", "Fay"), 200, random.Random(1))
    assert over.status == "over"
    for game in games:
        play_at_random(game, 2, random.Random(game.id))
    mailer.send_due()
    assert runner.invoke(args=["backup", str(tmp_path / "b.db")]).exit_code == 0
    db.connect(reuse_if_open=True)
    at_backup = {g.id: store.get_game(g.id).seq for g in games}
    for game in games:                    # moves after the dump: their links die with it
        play_at_random(store.get_game(game.id), 2, random.Random(game.id + 9))
    mailer.send_due()
    after_dump = {address: smtp.inbox.last_link(address) for address in
                  ("ann@example.org", "bob@example.org", "cid@example.org", "dan@example.org")}
    before = len(smtp.inbox.messages)

    out = runner.invoke(args=["restore", "--force", str(tmp_path / "b.db")])
    assert out.exit_code == 0, out.output
    db.connect(reuse_if_open=True)
    assert {g.id: store.get_game(g.id).seq for g in games} == at_backup
    waiting = {g.id: waiting_addresses(store.get_game(g.id)) for g in games}
    seats = sum(len(w) for w in waiting.values())
    assert f"queued a fresh link for {seats} seats to act in 2 running games, saying the game " \
           "was restored to " in out.output
    assert f"game {games[0].id}: " in out.output and f"game {over.id}:" not in out.output
    mailer.send_due()
    new = smtp.inbox.messages[before:]
    assert sorted(m["To"] for m in new) == sorted(a for w in waiting.values() for a in w)
    for message in new:
        text = " ".join(smtp.inbox.text(message).split())
        if message["To"] == "bob@example.org":
            assert "Ezt a játszmát egy mentésből visszaállítottuk" in text
            assert "a legfrissebb linked ez" in text
        else:
            assert "This game was restored to" in text and "your newest link is this one" in text
        newest = smtp.inbox.last_link(message["To"])
        assert client.get(f"/turn/{token_of(newest)}").status_code == 200
        stale = after_dump[message["To"]]
        if stale and stale != newest:
            assert client.get(f"/turn/{token_of(stale)}").status_code in (403, 410)
    for game in games:                    # one live link per seat: the restore mail's
        live = Link.select().where(Link.game == game.id, Link.spent_at.is_null())
        assert sorted(link.seat for link in live) == sorted(
            store.rules_of(game).to_act(store.state_of(store.get_game(game.id))))


CRAFTS = {
    "trigger unspend": "CREATE TRIGGER unspend AFTER UPDATE OF spent_at ON link "
                       "BEGIN UPDATE link SET spent_at = NULL WHERE id = NEW.id; END",
    "table spare": "CREATE TABLE spare (x TEXT)",
    "view seen": "CREATE VIEW seen AS SELECT * FROM link",
    "table link (altered)": "ALTER TABLE link ADD COLUMN note TEXT DEFAULT 'x'",
    "index link_by_seat": "CREATE UNIQUE INDEX link_by_seat ON link (game_id, seat)",
    "index event_game_id_seq (altered)": "DROP INDEX event_game_id_seq; "
                                         "CREATE INDEX event_game_id_seq ON event (game_id)",
}


@pytest.mark.parametrize("named", sorted(CRAFTS))
def test_restore_refuses_schema_objects_pbem_did_not_create(sqlite_app, tmp_path, named):
    runner = sqlite_app.test_cli_runner()
    game = duel_game("Ann", "Bob")
    play_at_random(game, 2, random.Random(1))
    assert runner.invoke(args=["backup", str(tmp_path / "b.db")]).exit_code == 0
    crafted = sqlite3.connect(tmp_path / "b.db")
    crafted.executescript(CRAFTS[named])
    crafted.commit()
    crafted.close()
    db.connect(reuse_if_open=True)
    play_at_random(store.get_game(game.id), 1, random.Random(2))
    seq = store.get_game(game.id).seq
    db.close()
    live = (tmp_path / "live/pbem.db").read_bytes()

    out = runner.invoke(args=["restore", "--force", str(tmp_path / "b.db")])
    assert out.exit_code == 1
    assert "the backup holds schema objects pbem did not create: " + named in out.output
    assert "Nothing was changed" in out.output and "Traceback" not in out.output
    assert (tmp_path / "live/pbem.db").read_bytes() == live
    db.connect(reuse_if_open=True)
    assert Game.get_by_id(game.id).seq == seq


def foreign_trigger() -> None:
    """A trigger that un-spends links, as a crafted dump would bring it."""
    from pbem.db import database
    if database.is_sqlite():
        db.obj.execute_sql("CREATE TRIGGER unspend AFTER UPDATE OF spent_at ON link "
                           "BEGIN UPDATE link SET spent_at = NULL WHERE id = NEW.id; END")
        return
    db.obj.execute_sql("CREATE FUNCTION unspend() RETURNS trigger LANGUAGE plpgsql AS "
                       "$$ BEGIN NEW.spent_at := NULL; RETURN NEW; END $$")
    db.obj.execute_sql("CREATE TRIGGER unspend BEFORE UPDATE ON link FOR EACH ROW "
                       "EXECUTE FUNCTION unspend()")


def test_mail_only_after_a_pg_restore_refuses_foreign_objects_then_mails(app, smtp):
    from pbem.db import database
    from pbem.db.models import Outbox
    game = duel_game("Ann", "Bob")
    play_at_random(game, 2, random.Random(1))
    runner = app.test_cli_runner()
    foreign_trigger()
    mails = Outbox.select().count()
    out = runner.invoke(args=["restore", "--mail-only"])
    assert out.exit_code == 1 and "will not mail: the database holds schema objects pbem did " \
                                  "not create: " in out.output and "unspend" in out.output
    db.connect(reuse_if_open=True)
    assert Outbox.select().count() == mails
    if database.is_sqlite():
        db.obj.execute_sql("DROP TRIGGER unspend")
    else:
        db.obj.execute_sql("DROP TRIGGER unspend ON link")
        db.obj.execute_sql("DROP FUNCTION unspend()")
    out = runner.invoke(args=["restore", "--mail-only"])
    assert out.exit_code == 0, out.output
    assert "queued a fresh link for 1 seats to act in 1 running games" in out.output
    db.connect(reuse_if_open=True)
    assert Outbox.select().where(Outbox.kind == "restored").count() == 1
    assert "name the backup FILE" in runner.invoke(args=["restore"]).output
