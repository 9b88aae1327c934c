"""Pace: deadlines per decision, one reminder, one timeout move, host notices, pauses and
vacations; with a controlled clock (every function takes `now`), on SQLite and PostgreSQL."""
from __future__ import annotations

import datetime as dt
import json
import threading

import pytest

from pbem.play import moves as playing, records
from pbem.play import creation
from pbem.play import clock, pace
from pbem.play import hosting, vacations
from pbem.mail import mailer
from pbem.log import store
from pbem.db.models import Event, Game, Outbox, Seat, Vacation
from tests.conftest import _database_urls, a_move, token_of

DAY = dt.timedelta(days=1)
PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "Bob@Example.org"}]


def new_game(on_timeout="auto", days=1.0, drop_after=3, host_email="host@example.org"):
    game, _ = creation.create_game("duel", PLAYERS, {"rounds": 3}, seed=3, host_email=host_email,
                                pace={"days": days, "on_timeout": on_timeout,
                                      "drop_after": drop_after})
    return game


def seat(game, index) -> Seat:
    return Seat.get(Seat.game == game.id, Seat.index == index)


def mails(kind, recipient=None):
    query = Outbox.select().where(Outbox.kind == kind)
    if recipient:
        query = query.where(Outbox.recipient == recipient)
    return list(query)


def timeouts(game):
    return list(Event.select().where(Event.game == game.id, Event.timeout == True))  # noqa: E712


def parallel_passes(app, now, n=2):
    """`n` pace passes started at the same moment, each in its own thread and connection."""
    from pbem.db.models import db
    results, errors, start = [], [], threading.Barrier(n)

    def one():
        with app.app_context():
            try:
                start.wait()
                results.append(pace.run_pass(now))
            except Exception as exc:  # noqa: BLE001 - reported below
                errors.append(exc)
            finally:
                if not db.is_closed():
                    db.close()

    threads = [threading.Thread(target=one) for _ in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    return results


def test_a_silent_seat_gets_one_reminder_then_one_timeout_under_two_parallel_passes(app):
    game = new_game("auto")
    ann = seat(game, 0)
    asked = ann.asked_at
    assert ann.deadline == asked + DAY and ann.remind_at == asked + 0.75 * DAY

    assert sum(r["reminders"] for r in parallel_passes(app, asked + 0.7 * DAY)) == 0
    assert mails("reminder") == []
    for _ in range(2):      # a second round of passes finds the reminder already sent
        parallel_passes(app, asked + 0.8 * DAY)
    reminders = mails("reminder", "ann@example.org")
    assert len(reminders) == 1 and "/turn/" in reminders[0].body_text
    assert reminders[0].body_text.startswith("Reminder")      # the first line; one subject a game
    assert timeouts(game) == []

    for _ in range(2):
        parallel_passes(app, asked + 1.01 * DAY)
    moves = timeouts(game)
    assert len(moves) == 1 and moves[0].seat == 0
    assert moves[0].action == {"type": "attack", "card": 1} or moves[0].action["type"] == "attack"
    assert "played at the deadline" in moves[0].summary
    assert len(mails("reminder")) == 1
    game = Game.get_by_id(game.id)
    assert store.verify(game) == []
    assert seat(game, 0).missed == 1 and not seat(game, 0).dropped
    # Bob is asked now: his clock starts at the timeout, not at Ann's deadline
    assert seat(game, 1).asked_at is not None and seat(game, 0).asked_at is None


def test_the_default_move_is_the_engines_and_the_next_clock_starts_when_asked(app):
    game = new_game("auto")
    asked = seat(game, 0).asked_at
    pace.run_pass(asked + 1.5 * DAY)
    bob = seat(store.get_game(game.id), 1)
    assert len(timeouts(game)) == 1
    # Bob was asked when Ann's move was played: a full day from then
    assert bob.deadline - bob.asked_at == DAY


def test_auto_drops_a_seat_after_drop_after_misses_and_its_player_comes_back(app):
    game = new_game("auto", drop_after=2)
    rules = store.rules_of(game)
    now = seat(game, 0).asked_at
    misses = 0
    while not seat(game, 0).dropped:
        game = store.get_game(game.id)
        state = store.state_of(game)
        who = rules.to_act(state)[0]
        if who == 1:
            playing.act(game.id, 1, rules.legal_actions(state, 1)[-1], game.seq)
            continue
        now = seat(game, 0).deadline + dt.timedelta(minutes=1)
        pace.run_pass(now)
        misses += 1
    assert misses == 2
    dropped = mails("host-dropped", "host@example.org")
    assert len(dropped) == 1 and "Ann" in dropped[0].subject
    # from now on Ann's moves are played as soon as she is asked
    game = store.get_game(game.id)
    state = store.state_of(game)
    if rules.to_act(state) == [1]:
        playing.act(game.id, 1, rules.legal_actions(state, 1)[-1], game.seq)
    game = store.get_game(game.id)
    assert 0 not in rules.to_act(store.state_of(game)) or game.status == "over"
    assert pace.come_back(game.id, 0) is True
    assert not seat(game, 0).dropped and seat(game, 0).missed == 0
    assert store.verify(store.get_game(game.id)) == []


def test_wait_tells_the_host_once_per_late_decision_and_the_host_chooses(app):
    game = new_game("wait")
    asked = seat(game, 0).asked_at
    for hours in (25, 26, 30):
        pace.run_pass(asked + dt.timedelta(hours=hours))
    late = mails("host-late", "host@example.org")
    assert len(late) == 1 and "Ann" in late[0].subject
    assert timeouts(game) == []                 # wait: nothing is played by itself

    hosting.extend(game.id, 0, now=asked + dt.timedelta(hours=30))
    assert seat(game, 0).deadline == asked + dt.timedelta(hours=54)
    pace.run_pass(asked + dt.timedelta(hours=55))
    assert len(mails("host-late")) == 2         # the extended deadline was missed too
    hosting.play_default_once(game.id, 0, now=asked + dt.timedelta(hours=56))
    assert len(timeouts(game)) == 1
    with pytest.raises(hosting.TooEarly):          # Bob, now asked: his deadline is to come
        hosting.hand_over(game.id, 1, now=asked + dt.timedelta(hours=56))
    hosting.hand_over(game.id, 1, now=asked + dt.timedelta(hours=81))
    game = store.get_game(game.id)
    assert seat(game, 1).dropped and len(timeouts(game)) >= 2
    assert store.verify(game) == []


def test_a_paused_game_stops_every_clock_and_resume_moves_the_deadline(app):
    game = new_game("auto")
    asked = seat(game, 0).asked_at
    assert hosting.pause(game.id, now=asked + 0.5 * DAY)
    pace.run_pass(asked + 5 * DAY)
    assert timeouts(game) == [] and mails("reminder") == []
    assert clock.deadlines(store.get_game(game.id), [0], asked + 5 * DAY) == {
        "0": clock.iso(asked + 5.5 * DAY)}
    assert hosting.resume(game.id, now=asked + 3 * DAY)
    assert seat(game, 0).deadline == asked + 3.5 * DAY
    pace.run_pass(asked + 3.4 * DAY)
    assert timeouts(game) == [] and len(mails("reminder")) == 1
    pace.run_pass(asked + 3.6 * DAY)
    assert len(timeouts(game)) == 1


def test_vacation_pauses_the_clock_and_the_bank_runs_down(app):
    game = new_game("auto")
    asked = seat(game, 0).asked_at
    start = asked + 0.25 * DAY
    vacations.go_away("ANN@example.org ", 3, now=start)
    assert vacations.vacation("ann@example.org", now=start)["left"] == 27
    assert seat(game, 0).held_at == start
    held = clock.clocks(store.get_game(game.id), [0], start + DAY)
    assert held[0].held == "away" and held[0].away_until == start + 3 * DAY
    pace.run_pass(start + 2 * DAY)
    assert timeouts(game) == [] and mails("reminder") == []
    with pytest.raises(pace.PaceError, match="left"):
        vacations.go_away("bob@example.org", 31, now=start)
    with pytest.raises(pace.PaceError, match="away already"):
        vacations.go_away("ann@example.org", 1, now=start + DAY)
    # the vacation runs out by itself; pages and the pass move the deadline by the days away
    shown = clock.deadlines(store.get_game(game.id), [0], start + 3.5 * DAY)
    assert shown == {"0": clock.iso(asked + 4 * DAY)}
    pace.run_pass(start + 3 * DAY + 0.1 * DAY)
    assert seat(game, 0).deadline == asked + 4 * DAY and seat(game, 0).held_at is None
    assert timeouts(game) == []
    pace.run_pass(asked + 4.01 * DAY)
    assert len(timeouts(game)) == 1
    # a second, shorter vacation ended early gives the unused days back
    later = asked + 10 * DAY
    vacations.go_away("ann@example.org", 5, now=later)
    assert vacations.come_home("ann@example.org", now=later + 2 * DAY)
    assert vacations.vacation("ann@example.org", now=later + 2 * DAY)["left"] == pytest.approx(25)
    assert Vacation.select().count() == 1


def test_verify_and_export_import_hold_for_games_with_timeouts(app):
    game = new_game("auto", drop_after=1)
    rules = store.rules_of(game)
    while store.get_game(game.id).status == "running":
        game = store.get_game(game.id)
        state = store.state_of(game)
        who = rules.to_act(state)[0]
        if who == 0:
            pace.run_pass(seat(game, 0).deadline + dt.timedelta(seconds=1))
        else:
            playing.act(game.id, 1, rules.legal_actions(state, 1)[0], game.seq)
    game = store.get_game(game.id)
    assert store.verify(game) == [] and len(timeouts(game)) >= 2
    record = json.loads(json.dumps(records.export_game(game)))
    assert record["pace"] == {"days": 1.0, "on_timeout": "auto", "drop_after": 1}
    marked = [e for e in record["events"] if e.get("timeout")]
    assert marked and all(e["timeout"] is True and e["seat"] == 0 for e in marked)
    assert all("timeout" not in e for e in record["events"] if not e.get("timeout"))
    copy = records.import_game(record)
    assert copy.head_hash == game.head_hash and store.verify(copy) == []
    assert (copy.pace_days, copy.on_timeout, copy.drop_after) == (1.0, "auto", 1)
    # a record whose timeout mark was removed no longer matches its hashes
    for event in record["events"]:
        event.pop("timeout", None)
    with pytest.raises(ValueError, match="hash"):
        records.import_game(record)


def test_api_deadlines(app, client, smtp):
    game = new_game("wait")
    mailer.send_due()
    link = smtp.inbox.last_link("ann@example.org")
    answer = client.get(f"/api/turn/{token_of(link)}").get_json()
    assert answer["deadlines"] == {"0": clock.iso(seat(game, 0).deadline)}
    assert answer["deadlines"]["0"].endswith("Z")
    mail = [m for m in smtp.inbox.to("ann@example.org") if "/turn/" in smtp.inbox.text(m)][-1]
    assert "Please move by" in smtp.inbox.text(mail)


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()
    return lambda *args: runner.invoke(args=list(args))


@pytest.mark.parametrize("args, words", [
    (["--pace", "0"], "--pace"), (["--pace", "-2"], "--pace"), (["--pace", "soon"], "--pace"),
    (["--pace", "nan"], "--pace"), (["--on-timeout", "skip"], "--on-timeout"),
    (["--drop-after", "0"], "--drop-after"), (["--drop-after", "two"], "--drop-after"),
])
def test_create_refuses_a_bad_pace_naming_the_option(cli, args, words):
    out = cli("games", "create", "duel", "--player", "A <a@x.org>", "--player", "B <b@x.org>",
              *args)
    assert out.exit_code != 0 and words in out.output
    assert Game.select().count() == 0


def test_cli_pace_pause_resume_and_vacation(cli):
    out = cli("games", "create", "duel", "--player", "A <a@x.org>", "--player", "B <b@x.org>",
              "--pace", "0.5", "--on-timeout", "auto", "--drop-after", "2")
    assert out.exit_code == 0, out.output
    game = Game.get_by_id(int(out.output.split()[0]))
    assert (game.pace_days, game.on_timeout, game.drop_after) == (0.5, "auto", 2)
    assert cli("games", "pause", str(game.id)).exit_code == 0
    assert Game.get_by_id(game.id).paused_at is not None
    assert "resumed" in cli("games", "resume", str(game.id)).output
    later = (seat(game, 0).deadline + dt.timedelta(minutes=1)).isoformat()
    out = cli("pace", "--now", later)
    assert out.exit_code == 0 and "1 timeout moves" in out.output, out.output
    assert cli("mail", "send", "--now", later).exit_code == 0
    out = cli("players", "away", "a@x.org", "2.5")
    assert out.exit_code == 0 and "27.5" in out.output
    assert "vacation ended" in cli("players", "back", "a@x.org").output
    assert cli("players", "away", "a@x.org", "-1").exit_code != 0
    assert cli("games", "pause", "999").exit_code != 0


def test_the_rollback_of_the_pace_migration(app):
    from peewee_migrate import Router
    from pbem.db import database
    from pbem.db.models import db
    router = Router(db.obj, migrate_dir=database.MIGRATIONS)
    while "004_pace" in router.done:
        router.rollback()
    assert "vacation" not in db.obj.get_tables()
    assert "timeout" not in [c.name for c in db.obj.get_columns("event")]
    database.upgrade()
    assert "vacation" in db.obj.get_tables()


# -- pages ------------------------------------------------------------------------------------------

def test_new_game_form_takes_a_pace_and_refuses_a_bad_one(client):
    form = {"rules": "duel", "name0": "Ann", "email0": "ann@example.org", "name1": "Bob",
            "email1": "bob@example.org", "pace": "2", "on_timeout": "auto", "drop_after": "4"}
    for bad, words in [({"pace": "-1"}, "positive"), ({"pace": "nan"}, "positive"),
                       ({"on_timeout": "skip"}, "missed deadline"),
                       ({"drop_after": "0"}, "whole number"), ({"drop_after": "٣"}, "whole number")]:
        answer = client.post("/new", data={**form, **bad})
        assert answer.status_code == 400 and words in answer.get_data(as_text=True), bad
    assert Game.select().count() == 0
    assert client.post("/new", data=form).status_code == 303     # to the host page
    game = Game.get()
    assert (game.pace_days, game.on_timeout, game.drop_after) == (2.0, "auto", 4)
    assert 'name="pace"' in client.get("/new").get_data(as_text=True)


def host_token(smtp):
    mailer.send_due()
    body = smtp.inbox.text(smtp.inbox.to("host@example.org")[0])
    return body.split("/host/")[1].split()[0]


def test_pages_say_how_long_each_seat_has_had_the_move_and_its_deadline(app, client, smtp):
    game = new_game("wait")
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert "Ann has had the move since" in page and "Deadline:" in page
    hu = client.get(f"/games/{game.id}?lang=hu").get_data(as_text=True)
    assert "óta van soron" in hu and "Határidő:" in hu
    later = clock.clocks(store.get_game(game.id), [0], seat(game, 0).asked_at + 2.5 * DAY)
    assert later[0].waited.days == 2
    token = host_token(smtp)
    host = client.get(f"/host/{token}?lang=en").get_data(as_text=True)
    assert "Each decision may take 1 day." in host and "Pause the game" in host
    turn = client.get(f"/turn/{token_of(smtp.inbox.last_link('ann@example.org'))}")
    assert "Deadline:" in turn.get_data(as_text=True)


def test_host_page_pauses_resumes_and_deals_with_a_late_seat(app, client, smtp):
    game = new_game("wait")
    token = host_token(smtp)

    def late_now():             # the page uses the real clock: Ann's deadline passed an hour ago
        now = clock.utcnow()
        Seat.update(asked_at=now - 1.1 * DAY, remind_at=now - 0.5 * DAY,
                    deadline=now - 0.1 * DAY).where(Seat.game == game.id,
                                                    Seat.index == 0).execute()
        pace.run_pass(now)
        return now
    now = late_now()
    page = client.get(f"/host/{token}").get_data(as_text=True)
    assert "Give more time" in page and "Play the default move once" in page
    assert client.post(f"/host/{token}/pace/extend/0").status_code == 303
    assert seat(game, 0).late_at is None and seat(game, 0).deadline > now
    assert client.post(f"/host/{token}/pace/nonsense/0").status_code == 404
    assert client.post(f"/host/{token}/pace/default/1").status_code == 409   # Bob is not asked
    assert client.post(f"/host/{token}/pace/default/0").status_code == 409   # more time now
    late_now()
    assert client.post(f"/host/{token}/pace/default/0").status_code == 303
    assert len(timeouts(game)) == 1
    assert client.post(f"/host/{token}/pause").status_code == 303
    assert Game.get_by_id(game.id).paused_at is not None
    assert "The game is paused" in client.get(f"/games/{game.id}").get_data(as_text=True)
    assert client.post(f"/host/{token}/resume").status_code == 303
    assert Game.get_by_id(game.id).paused_at is None
    assert client.post(f"/host/{token}/pace/handover/1").status_code == 409   # not late
    assert not seat(game, 1).dropped


def test_a_dropped_player_comes_back_through_a_spent_link(app, client, smtp):
    game = new_game("auto", drop_after=1)
    mailer.send_due()
    old = token_of(smtp.inbox.last_link("ann@example.org"))
    pace.run_pass(seat(game, 0).deadline + dt.timedelta(seconds=1))
    assert seat(game, 0).dropped
    page = client.get(f"/turn/{old}")
    assert page.status_code == 410 and "I am back" in page.get_data(as_text=True)
    assert client.post(f"/turn/{old}/back").status_code == 200
    assert not seat(game, 0).dropped
    assert client.post("/turn/garbage/back").status_code == 403


# -- whole games of the three engines with one seat that never answers ------------------------------

# every game and policy on SQLite; PostgreSQL (the same passes, other locks) plays Tigris's two
SILENT_SEAT_RUNS = [("sqlite", name, policy) for name in ("tigris", "tigris_cards", "assyria")
                    for policy in ("wait", "auto")] + \
    [(db, "tigris", policy) for db in _database_urls() if db != "sqlite"
     for policy in ("wait", "auto")]


@pytest.mark.slow
@pytest.mark.parametrize("database_url,rules_name,on_timeout", SILENT_SEAT_RUNS,
                         indirect=["database_url"])
def test_a_whole_game_plays_out_with_one_silent_seat(app, rules_name, on_timeout):
    """Seat 0 never answers: under auto its deadlines pass until it is dropped; under wait the
    host plays its default move once, then hands the seat over. The others act at random."""
    import random
    rng = random.Random(f"{rules_name}-{on_timeout}")
    count = 4 if rules_name == "tigris_cards" else 2   # four hands empty the deck sooner
    players = [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(count)]
    game, _ = creation.create_game(rules_name, players, seed=rng.randrange(10**6),
                                host_email="host@example.org",
                                pace={"days": 2, "on_timeout": on_timeout, "drop_after": 2})
    rules = store.rules_of(game)
    # the card game draws its start player: the clock starts with whoever is asked first
    now = min(s.asked_at for s in game.seats if s.asked_at is not None)
    misses, host_moves = 0, 0
    while True:
        game = store.get_game(game.id)
        state = store.state_of(game)
        if game.status == "over":
            break
        waiting = rules.to_act(state)
        if 0 not in waiting:
            who = rng.choice(waiting)
            playing.act(game.id, who, a_move(rules, rules.legal_actions(state, who), rng), game.seq)
            continue
        silent = seat(game, 0)
        now = max(now, silent.deadline) + dt.timedelta(minutes=1)
        counts = pace.run_pass(now)
        if on_timeout == "auto":
            assert counts["timeouts"] >= 1
            misses += 1
        else:
            assert counts["late"] == 1 and counts["timeouts"] == 0, (counts, host_moves, vars(silent)["__data__"], now)
            if host_moves < 2:
                hosting.play_default_once(game.id, 0, now=now)
            else:
                hosting.hand_over(game.id, 0, now=now)
            host_moves += 1
    game = store.get_game(game.id)
    assert rules.result(store.state_of(game)) is not None
    assert store.verify(game) == []
    moves = timeouts(game)
    assert moves and all(e.seat == 0 for e in moves)
    assert not Event.select().where(Event.game == game.id, Event.seat == 0,
                                    Event.timeout == False, Event.automatic == False).exists()  # noqa: E712
    if on_timeout == "auto":
        assert misses == 2 and len(mails("host-dropped")) == 1
    else:
        assert len(mails("host-late")) == host_moves and mails("host-dropped") == []
    copy = records.import_game(json.loads(json.dumps(records.export_game(game))))
    assert copy.head_hash == game.head_hash and store.verify(copy) == []


# -- two `pbem` processes at the same moment --------------------------------------------------------

def test_two_pace_processes_at_the_same_moment_both_succeed_and_act_once(app, database_url, smtp):
    """`pbem pace` and `pbem mail send` in two processes started together: both exit 0 (no
    "database is locked"), and each reminder and each timeout happens once between them."""
    import os
    import subprocess
    import sys
    games = [creation.create_game("assyria", PLAYERS, seed=i, host_email="host@example.org",
                               pace={"days": 1, "on_timeout": "auto"})[0] for i in range(4)]
    asked = max(s.asked_at for s in Seat.select().where(Seat.asked_at.is_null(False)))
    from pbem.db.models import db
    db.close()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update(PBEM_DATABASE_URL=database_url, PBEM_SECRET_KEY=app.config["SECRET_KEY"],
               PBEM_BASE_URL="http://pbem.test", PBEM_MAIL_SERVER="127.0.0.1",
               PBEM_MAIL_PORT=str(smtp.port), PBEM_MAIL_SENDER="pbem <pbem@pbem.test>")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

    def together(*args):
        processes = [subprocess.Popen([sys.executable, "-m", "pbem.ops.cli", *args], cwd=root,
                                      env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True) for _ in range(2)]
        done = [p.communicate(timeout=120) + (p.returncode,) for p in processes]
        for out, err, code in done:
            assert code == 0 and "locked" not in err, err
        return done

    together("pace", "--now", (asked + 0.8 * DAY).isoformat())
    db.connect(reuse_if_open=True)
    assert len(mails("reminder")) == len(games)
    db.close()
    together("mail", "send", "--now", (asked + 1.1 * DAY).isoformat())
    db.connect(reuse_if_open=True)
    for game in games:
        assert len(timeouts(game)) == 1 and store.verify(store.get_game(game.id)) == []
    assert len(mails("reminder")) == len(games)
    assert Outbox.select().where(Outbox.sent_at.is_null()).count() == 0


def test_every_loop_of_the_mail_worker_starts_with_the_pace_pass(app, smtp):
    game = new_game("auto")
    past = seat(game, 0).asked_at - DAY        # as if the day had passed (the worker uses now)
    Seat.update(asked_at=past - DAY, remind_at=past - 0.25 * DAY, deadline=past).where(
        Seat.game == game.id, Seat.index == 0).execute()
    mailer.worker(interval=0, once=True)
    assert len(timeouts(game)) == 1
    assert Outbox.select().where(Outbox.sent_at.is_null()).count() == 0
