"""Computer players in the server (issue 19): seats for the computer, the pass that thinks
outside any lock and plays through `moves.act`, the computer standing in at a missed deadline
and during a vacation, "bot" in the hash, in the export and on import; real SMTP, SQLite and
PostgreSQL, and a solo game of every game played to its end by email."""
from __future__ import annotations

import datetime as dt
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.db.models import Event, Game, Outbox, Seat, Vacation
from pbem.games import RULES
from pbem.log import store
from pbem.mail import mailer
from pbem.play import clock, computers, pace, records
from pbem.play import moves as playing
from tests.conftest import LINK, token_of

DAY = dt.timedelta(days=1)
ANN = {"name": "Ann", "email": "ann@example.org"}
BOB = {"name": "Bob", "email": "bob@example.org"}
ROOT = Path(__file__).resolve().parents[2]
FAST = {"BOT_ITERATIONS": 3}             # a few search iterations a decision: tests stay fast


def seat(game, index) -> Seat:
    return Seat.get(Seat.game == game.id, Seat.index == index)


def bot_events(game):
    return list(Event.select().where(Event.game == game.id, Event.bot == True)  # noqa: E712
                .order_by(Event.seq))


def fast(app):
    app.config.update(FAST)


def create(app, *players, on_timeout="wait", days=None, drop_after=3, rules="duel",
           options=None):
    game, _host = playing.create_game(rules, list(players), options or {"rounds": 3}, seed=7,
                                      host_email="host@example.org",
                                      pace={"days": days, "on_timeout": on_timeout,
                                            "drop_after": drop_after})
    return game


# -- seats for the computer ------------------------------------------------------------------------

def test_games_create_seats_computers_by_level_and_mails_only_the_player(app, smtp):
    fast(app)
    out = app.test_cli_runner().invoke(args=[
        "games", "create", "duel", "--player", "Ann <ann@example.org>", "--player", "bot",
        "--player", "bot:3"])
    assert out.exit_code == 0, out.output
    game = Game.get_by_id(int(out.output.split()[0]))
    seats = list(game.seats.order_by(Seat.index))
    assert [(s.name, s.email, s.bot_level) for s in seats] == [
        ("Ann", "ann@example.org", None), ("Computer (level 2)", "", 2),
        ("Computer (level 3)", "", 3)]
    assert game.title == "Duel (test game): Ann vs Computer (level 2) vs Computer (level 3)"
    mailer.send_due()
    assert {m["To"] for m in smtp.inbox.messages} == {"ann@example.org", "host@example.org"} or \
        {m["To"] for m in smtp.inbox.messages} == {"ann@example.org"}
    assert Outbox.select().where(Outbox.recipient == "").count() == 0


@pytest.mark.parametrize("raw, problem", [("bot:4", "level is 1, 2 or 3"),
                                          ("bot:x", "level is 1, 2 or 3")])
def test_a_computer_level_outside_1_to_3_is_refused(app, raw, problem):
    out = app.test_cli_runner().invoke(args=[
        "games", "create", "duel", "--player", "Ann <ann@example.org>", "--player", raw])
    assert out.exit_code != 0 and problem in out.output
    assert Game.select().count() == 0


def test_a_game_of_computers_alone_is_refused(app):
    out = app.test_cli_runner().invoke(args=[
        "games", "create", "duel", "--player", "bot", "--player", "bot:1"])
    assert out.exit_code != 0 and "At least one seat is a player's" in out.output
    assert Game.select().count() == 0


def test_the_pass_plays_the_computers_turns_and_stops_at_the_players(app, smtp):
    fast(app)
    game = create(app, {"computer": 1}, ANN)      # the computer opens
    assert seat(game, 0).asked_at is not None
    counts = computers.run_pass()
    assert counts == {"moves": 1, "stale": 0, "failed": 0}
    game = store.get_game(game.id)
    (event,) = bot_events(game)
    assert event.seat == 0 and event.bot and not event.timeout and not event.automatic
    rules = store.rules_of(game)
    assert rules.to_act(store.state_of(game)) == [1]
    assert computers.run_pass()["moves"] == 0          # nothing left: Ann is asked
    assert store.verify(game) == []
    mailer.send_due()
    texts = [smtp.inbox.text(m) for m in smtp.inbox.to("ann@example.org")]
    assert any("Computer (level 1) attacked Ann" in t for t in texts), texts


def test_api_names_the_computers_seats(app, client, smtp):
    fast(app)
    game = create(app, ANN, {"computer": 2}, BOB)
    mailer.send_due()
    token = token_of(smtp.inbox.last_link("ann@example.org"))
    answer = client.get(f"/api/turn/{token}").get_json()
    assert answer["computers"] == [1]


def test_a_stale_result_is_dropped(app):
    """The computer thought at move n; someone played move n meanwhile: nothing is played."""
    fast(app)
    game = create(app, {"computer": 2}, ANN)
    (decision,) = computers.decisions()
    rules = store.rules_of(game)
    state = store.state_of(game)
    playing.act(game.id, 0, rules.legal_actions(state, 0)[0], game.seq, bot=True)
    assert computers.play(decision) is False
    assert len(bot_events(game)) == 1


def test_a_player_never_has_the_computer_play_for_them_unasked(app):
    game = create(app, ANN, BOB)
    rules = store.rules_of(game)
    state = store.state_of(game)
    with pytest.raises(store.StaleSeq):
        playing.act(game.id, 0, rules.legal_actions(state, 0)[0], game.seq, bot=True)
    assert computers.decisions() == []


def test_one_games_failure_stops_no_other(app):
    fast(app)
    broken = create(app, {"computer": 2}, ANN)
    sound = create(app, {"computer": 2}, BOB)
    Game.update(state={"not": "a duel"}).where(Game.id == broken.id).execute()
    counts = computers.run_pass()
    assert counts["failed"] == 1 and counts["moves"] == 1
    assert len(bot_events(sound)) == 1 and bot_events(broken) == []
    broken = store.get_game(broken.id)
    assert broken.pace_error and broken in pace.failed_games()
    assert computers.run_pass()["failed"] == 0          # skipped until it moves


# -- "bot" in the hash, the export and import ------------------------------------------------------

def test_bot_enters_the_hash_only_when_true_and_verify_checks_it(app):
    fast(app)
    game = create(app, {"computer": 2}, ANN)
    computers.run_pass()
    (event,) = bot_events(game)
    assert event.hash == store.chain_hash(
        Event.get(Event.game == game.id, Event.seq == event.seq - 1).hash, event.seq,
        event.seat, event.action, False, event.created_at, False, True)
    assert event.hash != store.chain_hash(
        Event.get(Event.game == game.id, Event.seq == event.seq - 1).hash, event.seq,
        event.seat, event.action, False, event.created_at)
    assert store.verify(store.get_game(game.id)) == []
    Event.update(bot=False).where(Event.id == event.id).execute()     # the flag taken away
    problems = store.verify(store.get_game(game.id))
    assert problems == [f"event {event.seq}: hash does not match its content"]


def test_a_record_with_the_computers_moves_exports_and_imports(app, tmp_path):
    fast(app)
    game = create(app, {"computer": 3}, ANN)
    rng = random.Random(1)
    rules = RULES["duel"]
    while store.get_game(game.id).status == "running":
        computers.run_pass()
        game = store.get_game(game.id)
        state = rules.load(game.state)
        if 1 in rules.to_act(state):
            playing.act(game.id, 1, rng.choice(rules.legal_actions(state, 1)), game.seq)
    record = records.export_game(store.get_game(game.id))
    flagged = [e for e in record["events"] if e.get("bot")]
    assert flagged and all(e["bot"] is True and e["seat"] == 0 for e in flagged)
    assert all("bot" not in e for e in record["events"] if not e.get("bot"))
    assert record["seats"][0] == {"name": "Computer (level 3)", "language": "en", "computer": 3}
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    out = app.test_cli_runner().invoke(args=["games", "import", str(path)])
    assert out.exit_code == 0, out.output
    copy = Game.get_by_id(int(out.output.split()[0]))
    assert store.verify(copy) == []
    assert [e.seq for e in bot_events(copy)] == [e["seq"] for e in flagged]
    assert seat(copy, 0).bot_level == 3

    forged = json.loads(json.dumps(record))
    forged["events"][flagged[0]["seq"]]["bot"] = False
    path.write_text(json.dumps(forged))
    out = app.test_cli_runner().invoke(args=["games", "import", str(path)])
    assert out.exit_code == 1 and "\"bot\" is written only when true" in out.output
    del forged["events"][flagged[0]["seq"]]["bot"]
    path.write_text(json.dumps(forged))
    out = app.test_cli_runner().invoke(args=["games", "import", str(path)])
    assert out.exit_code == 1 and "hash does not match" in out.output
