"""Computer players in the server: seats for the computer, the pass that thinks
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

from pbem import bots
from pbem.db.models import Event, Game, Link, Outbox, Seat, Vacation
from pbem.games import RULES
from pbem.log import chain, store
from pbem.mail import mailer
from pbem.play import clock, computers, pace, records
from pbem.play import vacations
from pbem.play import moves as playing
from pbem.play import creation
from tests.conftest import LINK, _database_urls, a_move, token_of
from tests.support.games import GAMES

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
    game, _host = creation.create_game(rules, list(players), options or {"rounds": 3}, seed=7,
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
    create(app, ANN, {"computer": 2}, BOB)
    mailer.send_due()
    token = token_of(smtp.inbox.last_link("ann@example.org"))
    answer = client.get(f"/api/turn/{token}").get_json()
    assert answer["computers"] == [1]


def test_a_decision_takes_its_whole_time_whatever_the_hand(app):
    """Without an iteration cap the computer's move lands when its time is up, however many
    moves its hand gives it (a search among two moves may stop sooner than among three: the
    defender's blocks are its hidden cards): when it lands tells the others nothing of it."""
    import time
    app.config.update(BOT_SECONDS=5, BOT_ITERATIONS=0)
    level_time = bots.LEVELS[2].seconds
    took = {}
    for seed in range(60):
        game, _host = creation.create_game("duel", [ANN, {"computer": 2}], {"rounds": 3},
                                          seed=seed)
        rules, state = store.rules_of(game), store.state_of(game)
        attack = min(rules.legal_actions(state, 0), key=lambda a: a["card"])
        playing.act(game.id, 0, attack, game.seq)
        game = store.get_game(game.id)
        choices = min(len(rules.legal_actions(store.state_of(game), 1)), 3)
        if choices > 1 and choices not in took:
            started = time.monotonic()
            computers.think(game, 1, 2)
            took[choices] = time.monotonic() - started
        if len(took) == 2:
            break
    assert set(took) == {2, 3}
    assert all(seconds >= level_time for seconds in took.values()), took


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
    assert event.hash == chain.chain_hash(
        Event.get(Event.game == game.id, Event.seq == event.seq - 1).hash, event.seq,
        event.seat, event.action, False, event.created_at, False, True)
    assert event.hash != chain.chain_hash(
        Event.get(Event.game == game.id, Event.seq == event.seq - 1).hash, event.seq,
        event.seat, event.action, False, event.created_at)
    assert store.verify(store.get_game(game.id)) == []
    Event.update(bot=False).where(Event.game == game.id, Event.seq == event.seq).execute()     # the flag taken away
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
    out = app.test_cli_runner().invoke(args=["games", "check", str(path)])
    assert out.exit_code == 0 and out.output.startswith("ok"), out.output

    forged = json.loads(json.dumps(record))
    forged["events"][flagged[0]["seq"]]["bot"] = False
    path.write_text(json.dumps(forged))
    out = app.test_cli_runner().invoke(args=["games", "import", str(path)])
    assert out.exit_code == 1 and "\"bot\" is written only when true" in out.output
    del forged["events"][flagged[0]["seq"]]["bot"]
    path.write_text(json.dumps(forged))
    out = app.test_cli_runner().invoke(args=["games", "import", str(path)])
    assert out.exit_code == 1 and "hash does not match" in out.output


# -- standing in -----------------------------------------------------------------------------------

def test_on_timeout_bot_plays_the_missed_move_then_the_seat_after_drop_after(app, smtp):
    fast(app)
    game = create(app, ANN, BOB, on_timeout="bot", days=1.0, drop_after=2)
    asked = seat(game, 0).asked_at
    counts = pace.run_pass(asked + 1.1 * DAY)            # Ann missed her deadline
    assert counts["computer"] == 1 and counts["timeouts"] == 0
    ann = seat(game, 0)
    assert ann.stand_in and ann.missed == 1 and not ann.dropped
    assert computers.run_pass(asked + 1.1 * DAY)["moves"] == 1
    (event,) = bot_events(game)
    assert event.seat == 0 and not event.timeout
    assert event.summary.endswith("(played by the computer)")
    assert not seat(game, 0).stand_in                   # that decision is answered
    assert computers.run_pass(asked + 1.1 * DAY)["moves"] == 0      # Bob is asked, not it

    game = store.get_game(game.id)
    rules = store.rules_of(game)
    state = rules.load(game.state)
    playing.act(game.id, 1, rules.legal_actions(state, 1)[-1], game.seq)   # Bob answers
    game = store.get_game(game.id)
    state = rules.load(game.state)
    if 1 in rules.to_act(state):
        playing.act(game.id, 1, rules.legal_actions(state, 1)[0], game.seq)
    game = store.get_game(game.id)
    assert 0 in rules.to_act(rules.load(game.state))
    asked = seat(game, 0).asked_at
    pace.run_pass(asked + 1.1 * DAY)                    # her second miss: dropped, to the computer
    ann = seat(game, 0)
    assert ann.dropped and ann.missed == 2
    mailer.send_due()
    dropped = [m for m in smtp.inbox.to("ann@example.org")
               if "the computer plays your moves" in smtp.inbox.text(m)]
    assert len(dropped) == 1
    assert computers.run_pass(asked + 1.1 * DAY)["moves"] >= 1
    assert timeouts_of(game) == []                      # no default move: the computer's

    # the page tells the others who stands in, until Ann plays for herself again
    game = store.get_game(game.id)
    if 0 in rules.to_act(rules.load(game.state)):
        shown = clock.clocks(game, [0])
        assert shown[0].computer


def timeouts_of(game):
    return list(Event.select().where(Event.game == game.id, Event.timeout == True))  # noqa: E712


def test_a_player_back_through_a_move_takes_the_seat_back_from_the_computer(app):
    fast(app)
    game = create(app, ANN, BOB, on_timeout="bot", days=1.0, drop_after=1)
    asked = seat(game, 0).asked_at
    pace.run_pass(asked + 1.1 * DAY)
    assert seat(game, 0).dropped and seat(game, 0).stand_in
    game = store.get_game(game.id)
    rules = store.rules_of(game)
    playing.act(game.id, 0, rules.legal_actions(rules.load(game.state), 0)[0], game.seq)
    ann = seat(game, 0)
    assert not ann.dropped and not ann.stand_in and ann.missed == 0
    assert computers.decisions(asked + 1.1 * DAY) == []
    assert bot_events(game) == []


def test_away_with_bot_hands_the_seats_to_the_computer_for_that_time(app, client, smtp):
    fast(app)
    game = create(app, ANN, BOB, days=1.0)
    out = app.test_cli_runner().invoke(args=["players", "away", "Ann@Example.org", "3", "--bot"])
    assert out.exit_code == 0 and "the computer plays their seats" in out.output, out.output
    row = Vacation.get(Vacation.email == "ann@example.org")
    assert row.bot and row.used_days == 0
    assert computers.run_pass()["moves"] == 1
    (event,) = bot_events(game)
    assert event.seat == 0 and "(played by the computer)" in event.summary
    mailer.send_due()
    token = token_of(smtp.inbox.last_link("bob@example.org"))
    assert "The computer plays for" not in client.get(f"/turn/{token}").get_data(as_text=True)
    # Bob answers; then Ann is asked again and the computer plays for her, visibly
    game = store.get_game(game.id)
    rules = store.rules_of(game)
    while 0 not in rules.to_act(rules.load(game.state)) and game.status == "running":
        state = rules.load(game.state)
        (who,) = rules.to_act(state)
        playing.act(game.id, who, rules.legal_actions(state, who)[0], game.seq)
        game = store.get_game(game.id)
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert "The computer plays for Ann for now." in page
    assert computers.run_pass()["moves"] >= 1
    # after the vacation the computer plays no more
    later = dt.datetime.utcnow() + 4 * DAY
    assert computers.decisions(later) == []
    assert vacations.come_home("ann@example.org") and Vacation.get(Vacation.email == "ann@example.org").used_days == 0


def test_the_computer_never_stands_in_when_nobody_plays_in_person(app, client, smtp):
    """A game of computers alone could go round for ever (two of them can place leaders and
    commit nothing, turn after turn, in the card game): while no person plays (Ann away with
    --bot, or dropped, and the other seats the computer's own) the computer plays its own
    seats but not hers; the game waits for her, and her turn link brings her back."""
    fast(app)
    game = create(app, ANN, {"computer": 2}, on_timeout="bot", days=1.0, drop_after=1)
    out = app.test_cli_runner().invoke(args=["players", "away", "ann@example.org", "3", "--bot"])
    assert out.exit_code == 0, out.output
    assert computers.decisions() == [] and computers.run_pass()["moves"] == 0
    assert bot_events(game) == []                       # Ann's move waits for her
    assert computers.someone_plays(store.get_game(game.id), dt.datetime.utcnow()) is False

    # with a person at the table (Bob in a three-seat game), it stands in for Ann
    other = create(app, ANN, BOB, {"computer": 2})
    (decision,) = [d for d in computers.decisions() if d.game_id == other.id]
    assert decision.seat == 0
    assert vacations.come_home("ann@example.org")

    # dropped after a missed deadline: the computer answers that one decision, then no more
    asked = seat(game, 0).asked_at
    pace.run_pass(asked + 1.1 * DAY)
    assert seat(game, 0).dropped and seat(game, 0).stand_in
    assert computers.run_pass(asked + 1.1 * DAY)["moves"] >= 1      # the missed one, and its own
    game = store.get_game(game.id)
    rules = store.rules_of(game)
    assert game.status == "running" and rules.to_act(rules.load(game.state)) == [0]
    assert computers.decisions(asked + 1.1 * DAY) == []            # the seat waits for Ann
    mailer.send_due()
    token = token_of(smtp.inbox.last_link("ann@example.org"))
    answer = client.get(f"/api/turn/{token}").get_json()
    assert client.post(f"/api/turn/{token}", json={
        "seq": answer["seq"], "action": answer["actions"][0]}).status_code == 200
    assert not seat(game, 0).dropped                    # back through her link


# -- a solo game by email --------------------------------------------------------------------------

class Mailbox:
    """Ann's newest link, reading each new message once (the inbox keeps them all)."""

    def __init__(self, smtp, address="ann@example.org"):
        self.inbox, self.address, self.seen, self.link = smtp.inbox, address, 0, None

    def last_link(self):
        with self.inbox.lock:
            new = self.inbox.messages[self.seen:]
            self.seen += len(new)
        for message in new:
            if message["To"] == self.address:
                found = LINK.findall(self.inbox.text(message))
                self.link = found[-1] if found else self.link
        return self.link


def play_solo_by_email(game, mailbox, act_json, get_json, step, rng, limit=20_000):
    """Ann plays her moves from the links in her mail (a random legal move each, as a player
    who wants the game to move on: `a_move`), the
    computer the others' (`step` waits until the mail worker played them), until
    the game is over; the number of Ann's moves."""
    ann_moves = 0
    for _step in range(limit):
        step()
        answer = get_json(token_of(mailbox.last_link()))
        if answer.get("result") is not None:
            return ann_moves
        if "error" in answer:           # a spent link: her next mail is on its way, or it is over
            if store.get_game(game.id).status == "over":
                return ann_moves
            continue
        if 0 not in answer["to_act"]:
            continue                    # the computer's turn: the next pass plays it
        rules = store.rules_of(game)
        answered = act_json(token_of(mailbox.last_link()),
                            {"seq": answer["seq"], "action": a_move(rules, answer["actions"], rng)})
        ann_moves += 1
        if answered.get("result") is not None:
            return ann_moves
    raise AssertionError(f"no end after {limit} steps")


def check_solo_game_over(game, smtp):
    game = store.get_game(game.id)
    assert game.status == "over"
    assert store.verify(game) == []
    assert bot_events(game) and all(e.seat == 1 for e in bot_events(game))
    assert {m["To"] for m in smtp.inbox.messages} == {"ann@example.org"}
    over = [m for m in smtp.inbox.to("ann@example.org") if "Computer (level 1)" in
            smtp.inbox.text(m) and "/replay" in smtp.inbox.text(m)]
    assert over, "the last mail names the computer in the ranking"


# every game in RULES (plugins too) on SQLite; the database's part is the same for every game,
# so PostgreSQL plays the shortest of pbem's games with hidden holdings (Assyria: about a third
# of the card game's time, which mails most and runs on SQLite)
SOLO_RUNS = [("sqlite", name) for name in GAMES] + \
    [(db, "assyria") for db in _database_urls() if db != "sqlite" and "assyria" in GAMES]


@pytest.mark.slow
@pytest.mark.parametrize("database_url,rules_name", SOLO_RUNS, indirect=["database_url"])
def test_a_solo_game_plays_to_its_end_under_gunicorn_and_the_mail_worker(
        app, smtp, database_url, rules_name):
    """The deployment's own parts: gunicorn serves Ann's links, `pbem mail worker` plays the
    computer's moves in its loop and mails her; the test only reads mail and follows links."""
    import time
    import requests
    from tests.conftest import free_port
    from tests.support.gunicorn_server import Gunicorn
    game, _host = creation.create_game(rules_name, [ANN, {"computer": 1}], {}, seed=11)
    env = {"PBEM_DATABASE_URL": database_url, "PBEM_SECRET_KEY": app.config["SECRET_KEY"],
           "PBEM_BASE_URL": "http://pbem.test", "PBEM_MAIL_SERVER": "127.0.0.1",
           "PBEM_MAIL_PORT": str(smtp.port), "PBEM_BOT_ITERATIONS": "1",
           "PBEM_BOT_SECONDS": "0.05", "PBEM_MAIL_SENDER": "pbem <pbem@pbem.test>",
           # the daily cap counts no turn mail of a solo game: they answer Ann's own moves (a
           # solo card game asks her hundreds of times a day)
           "PBEM_MAILS_PER_RECIPIENT_PER_DAY": "3"}
    worker = subprocess.Popen(
        [sys.executable, "-m", "flask", "--app", "tests.support.duel_wsgi:app", "mail", "worker",
         "--interval", "0.03"], cwd=ROOT, env=dict(os.environ, **env),
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    mailbox = Mailbox(smtp)
    try:
        with Gunicorn(free_port(), env, workers=2) as server:
            seen = {"seq": -1, "token": None, "spent": False}

            def get_json(token):
                answer = requests.get(f"{server.url}/api/turn/{token}", timeout=60).json()
                seen.update(seq=answer.get("seq", seen["seq"]), token=token,
                            spent="error" in answer)
                return answer

            def wait_for_the_worker():
                """Until the game moved past what Ann last saw and, if her link was spent,
                her next mail came (or an hour passed: hung)."""
                deadline = time.monotonic() + 3600
                while time.monotonic() < deadline and worker.poll() is None:
                    now, link = store.get_game(game.id), mailbox.last_link()
                    if now.status == "over":
                        return
                    if link and (token_of(link) != seen["token"] if seen["spent"]
                                 else now.seq != seen["seq"]):
                        return
                    time.sleep(0.02)
                raise AssertionError("the worker stopped moving the game")

            ann_moves = play_solo_by_email(
                game, mailbox, get_json=get_json, step=wait_for_the_worker, rng=random.Random(5),
                act_json=lambda token, body: requests.post(
                    f"{server.url}/api/turn/{token}", json=body, timeout=60).json())
        assert ann_moves > 0 and "Traceback" not in server.output
        for _wait in range(600):            # the worker mails the result
            if any("/replay" in smtp.inbox.text(m) for m in smtp.inbox.to("ann@example.org")):
                break
            time.sleep(0.1)
    finally:
        worker.terminate()
        _out, errors = worker.communicate(timeout=60)
    assert b"Traceback" not in errors, errors.decode()[-3000:]
    check_solo_game_over(game, smtp)


def test_two_bots_processes_at_once_never_double_a_move(app, database_url):
    """Each game waits for one computer move and then for Ann: two `pbem bots` started
    together play each of those moves exactly once (the loser's result is dropped as stale)."""
    games = [create(app, {"computer": 2}, ANN, options={"rounds": 3}) for _ in range(6)]
    env = dict(os.environ, PBEM_DATABASE_URL=database_url,
               PBEM_SECRET_KEY=app.config["SECRET_KEY"], PBEM_BASE_URL="http://pbem.test",
               PBEM_BOT_ITERATIONS="200", PBEM_BOT_SECONDS="0.5")
    command = [sys.executable, "-m", "flask", "--app", "tests.support.duel_wsgi:app", "bots"]
    runs = [subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    played = [int(out.split(" computer moves")[0].split()[-1]) for out, _err in outputs]
    assert sum(played) == len(games), outputs
    for game in games:
        events = bot_events(game)
        assert [e.seat for e in events] == [0]
        assert store.verify(store.get_game(game.id)) == []


# -- the web: /new, the home page's button, the player's switch ------------------------------------

def test_new_offers_computer_seats_and_the_computer_at_a_missed_deadline(app, client, smtp):
    fast(app)
    page = client.get("/new").get_data(as_text=True)
    for level in (1, 2, 3):
        assert f'value="bot{level}"' in page and f"computer (level {level})" in page
    assert '<option value="bot"' in page and "the computer plays" in page
    answer = client.post("/new", data={
        "rules": "duel", "name0": "Ann", "email0": "ann@example.org", "seat1": "bot3",
        "name1": "", "email1": "", "pace": "1", "on_timeout": "bot", "drop_after": "2",
        "option_rounds": "2"})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    game = Game.select().order_by(Game.id.desc()).get()
    assert game.on_timeout == "bot" and game.drop_after == 2
    assert [(s.name, s.bot_level, s.email) for s in game.seats.order_by(Seat.index)] == [
        ("Ann", None, "ann@example.org"), ("Computer (level 3)", 3, "")]
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert "Computer (level 3)" in page


def test_new_in_hungarian_names_the_computer_in_hungarian(app, client):
    fast(app)
    game = create(app, ANN, {"computer": 2})
    client.set_cookie("lang", "hu")
    page = client.get(f"/games/{game.id}?lang=hu").get_data(as_text=True)
    assert "Számítógép (2. szint)" in page
    assert "számítógép (1. szint)" in client.get("/new?lang=hu").get_data(as_text=True)
    # the default title was written in English when the game was made: read in Hungarian
    title = page.split("<title>")[1].split("</title>")[0]
    assert "Számítógép (2. szint)" in title and "Computer (level" not in title


def test_the_home_page_starts_a_game_against_the_computer_in_one_button(app, client, smtp):
    fast(app)
    page = client.get("/").get_data(as_text=True)
    assert 'action="/new/solo"' in page and "Start a game against the computer" in page
    answer = client.post("/new/solo", data={"rules": "duel", "email": "newcomer@example.org"})
    # the newcomer opens the game first: the button leads to their turn, not the host page
    assert answer.status_code == 303 and answer.headers["Location"].startswith("/turn/")
    turn = client.get(f"/api/turn/{answer.headers['Location'].split('/')[2]}").get_json()
    assert turn["seat"] == 0 and turn["actions"]
    game = Game.select().order_by(Game.id.desc()).get()
    seats = list(game.seats.order_by(Seat.index))
    assert [(s.email, s.bot_level) for s in seats] == [("newcomer@example.org", None), ("", 2)]
    mailer.send_due()
    # one mail at the start: the host's (the host page, a link away); no invitation from
    # oneself, and no turn mail for the turn already open on the page
    [mail] = smtp.inbox.messages
    assert mail["To"] == "newcomer@example.org" and "/host/" in smtp.inbox.text(mail)
    assert client.post("/new/solo", data={"rules": "duel", "email": ""}).status_code == 400
    assert client.post("/new/solo", data={"rules": "nope", "email": "x@example.org"}) \
        .status_code == 400


def test_the_home_page_switch_hands_the_seats_to_the_computer(app, client, smtp):
    fast(app)
    game = create(app, ANN, BOB, days=1.0)
    mailer.send_due()
    home = [link for m in smtp.inbox.to("ann@example.org")
            for link in __import__("re").findall(r"http://pbem\.test/me/[A-Za-z0-9_.\-]+",
                                                 smtp.inbox.text(m))]
    token = token_of(home[-1])
    page = client.get(f"/me/{token}").get_data(as_text=True)
    assert "Let the computer play my moves" in page
    answer = client.post(f"/me/{token}/away", data={"days": "5", "bot": "1"})
    assert answer.status_code == 303
    assert "the computer plays your moves meanwhile" in client.get(f"/me/{token}").get_data(
        as_text=True)
    assert computers.run_pass()["moves"] == 1
    assert [e.seat for e in bot_events(game)] == [0]
    client.post(f"/me/{token}/back")
    assert not Vacation.get(Vacation.email == "ann@example.org").bot or \
        not clock.is_away(Vacation.get(Vacation.email == "ann@example.org"),
                          dt.datetime.utcnow())


# -- against the computer alone: no trip to the mailbox each turn ----------------------------------

def test_against_the_computer_alone_the_page_waits_for_it_and_then_plays_on(app, client, smtp):
    fast(app)
    game = create(app, ANN, {"computer": 1})            # Ann opens
    mailer.send_due()
    token = token_of(smtp.inbox.last_link("ann@example.org"))
    rules = store.rules_of(game)
    action = rules.legal_actions(store.state_of(game), 0)[0]
    answer = client.post(f"/api/turn/{token}", json={"seq": game.seq, "action": action})
    assert answer.status_code == 200
    waiting = client.get(f"/turn/{token}/done").get_data(as_text=True)
    assert 'http-equiv="refresh"' in waiting and 'data-now="computer-thinking"' in waiting
    assert computers.run_pass()["moves"] >= 1           # the computer answers
    assert rules.to_act(store.state_of(store.get_game(game.id))) == [0]
    back = client.get(f"/turn/{token}/done").get_data(as_text=True)
    assert 'http-equiv="refresh"' not in back and 'id="play-on-form"' in back
    opened = client.post(f"/turn/{token}/play-on")
    assert opened.status_code == 303 and opened.headers["Location"].startswith("/turn/")
    fresh_token = opened.headers["Location"].split("/")[2]
    assert fresh_token != token
    assert client.get(f"/api/turn/{fresh_token}").get_json()["actions"]   # Ann's turn, live
    assert 'id="play-on-form"' not in client.get(f"/turn/{token}/done").get_data(as_text=True)


def test_when_the_computer_opens_the_button_leads_to_a_page_that_waits_then_plays_on(
        app, client, smtp, monkeypatch):
    fast(app)
    monkeypatch.setattr(creation.secrets, "randbits", lambda bits: 1)   # the computer opens
    answer = client.post("/new/solo", data={"rules": "tigris_cards",
                                            "email": "newcomer@example.org"})
    location = answer.headers["Location"]
    assert answer.status_code == 303 and location.startswith("/turn/") and \
        location.endswith("/done")
    game = Game.select().order_by(Game.id.desc()).get()
    assert store.rules_of(game).to_act(store.state_of(game)) == [1]
    waiting = client.get(location).get_data(as_text=True)
    assert 'http-equiv="refresh"' in waiting and 'data-now="computer-thinking"' in waiting
    assert computers.run_pass()["moves"] >= 1
    mailer.send_due()                                   # the first turn's mail goes as ever
    back = client.get(location).get_data(as_text=True)
    assert 'id="play-on-form"' in back and "open your latest email" not in back
    opened = client.post(location.replace("/done", "/play-on"))
    assert opened.status_code == 303
    fresh_token = opened.headers["Location"].split("/")[2]
    assert client.get(f"/api/turn/{fresh_token}").get_json()["actions"]
    # the waiting link opens the first turn once, never again
    assert 'id="play-on-form"' not in client.get(location).get_data(as_text=True)


def test_a_move_followed_by_moves_played_for_you_still_plays_on(app, client, smtp):
    """A link spent by the server's forced follow-up of its player's own move (a lone option)
    plays on like one spent by the move itself; one its player never used does not."""
    fast(app)
    game = create(app, ANN, {"computer": 1})
    mailer.send_due()
    token = token_of(smtp.inbox.last_link("ann@example.org"))
    link = Link.get(Link.game == game.id, Link.seat == 0, Link.spent_at.is_null())
    rules = store.rules_of(game)
    action = rules.legal_actions(store.state_of(game), 0)[0]
    client.post(f"/api/turn/{token}", json={"seq": game.seq, "action": action})
    computers.run_pass()
    Link.update(spent_by="forced").where(Link.id == link.id).execute()
    assert 'id="play-on-form"' in client.get(f"/turn/{token}/done").get_data(as_text=True)
    Event.update(automatic=True).where(Event.game == game.id, Event.seat == 0).execute()
    assert 'id="play-on-form"' not in client.get(f"/turn/{token}/done").get_data(as_text=True)


def test_with_another_player_at_the_table_there_is_no_play_on(app, client, smtp):
    fast(app)
    game = create(app, ANN, {"computer": 1}, {"name": "Bob", "email": "bob@example.org"})
    mailer.send_due()
    token = token_of(smtp.inbox.last_link("ann@example.org"))
    rules = store.rules_of(game)
    action = rules.legal_actions(store.state_of(game), 0)[0]
    client.post(f"/api/turn/{token}", json={"seq": game.seq, "action": action})
    page = client.get(f"/turn/{token}/done").get_data(as_text=True)
    assert 'http-equiv="refresh"' not in page and 'id="play-on-form"' not in page
    assert client.post(f"/turn/{token}/play-on").headers["Location"] == f"/turn/{token}/done"
