"""Figures at scale, beside their goals, on SQLite and (where PBEM_TEST_DATABASE_URL names one)
PostgreSQL:
- the listings (`/`, the archive's last page, a player's home page) at SMALL and then LARGE
  finished games, the player's own games unchanged (goal: within +-20%);
- the longest write transaction (SQLite: the write lock) of each pass, `pbem mail send`, the pace
  pass, the computers' pass and the guide's `mail prune --older-than 90`, with MAILS stored mails
  (goal: at most 50 ms).
Games are real (the test game "duel" played to its end through the use cases); the stored mails
beyond theirs are sent rows as the worker leaves them (no bodies). Prints figures; never fails.

Run: python -m tests.bench bench_scale   (or `make bench`)
"""
from __future__ import annotations

import contextlib
import datetime as dt
import random
import statistics
import time

from pbem.app import create_app
from pbem.db import database
from pbem.db.models import Game, Outbox, db, utcnow
from pbem.mail import mailer
from pbem.ops import mailqueue
from pbem.play import computers, creation, pace
from pbem.play.keys import keys
from pbem.present import listings
from pbem.web.games import ARCHIVE_PAGE
from tests.bench import on_both_databases, sized
from tests.bench.bench_server import settings
from tests.bench.bench_storage import play_out
from tests.conftest import SMTPServer

SMALL, LARGE = sized(200, 4), sized(2_000, 6)    # finished games (quick: ME's 3, one more, then 2)
RUNNING = sized(5, 2)                            # running games beside them in the listings
DUE = sized(10, 4)                               # running games the pace pass finds due
COMPUTERS = sized(3, 1)                          # running games the computers' pass plays in
MAILS = sized(100_000, 200)                      # stored mails when the passes are timed
SENT = sized(100, 10)                            # mails the timed `pbem mail send` pass sends
SAMPLES = sized(15, 1)                           # GETs per listing figure (median printed)
ME = "me@example.org"                            # the player whose home page is read


def finish_games(count: int, rng: random.Random, with_me: bool = False) -> None:
    """`count` 2-player games of the test game, played to their end."""
    for n in range(count):
        first = ME if with_me else f"p{rng.randrange(10**9)}@example.org"
        players = [{"name": "A", "email": first}, {"name": "B", "email": f"q{n}@example.org"}]
        game, _ = creation.create_game("duel", players, seed=rng.randrange(10**6))
        play_out(game, rng)


def running_games(count: int, rng: random.Random, computer: bool = False) -> None:
    """Games left running with a day's pace (their reminders and deadlines fall due later)."""
    for n in range(count):
        second = {"computer": 1} if computer else {"name": "B", "email": f"r{n}@example.org"}
        creation.create_game("duel", [{"name": "A", "email": ME if n < 3 else f"s{n}@example.org"},
                                      second], seed=rng.randrange(10**6),
                             pace={"days": 1.0, "on_timeout": "auto"})


def listing_times(client) -> dict:
    """Per listing (`/`, the archive's last page, ME's home page): the median ms of a GET, and
    the work of one GET that no other load on the machine changes: its queries and, on
    SQLite, the instructions its virtual machine ran."""
    finished = Game.select().where(Game.status == "over").count()
    last_page = max(1, -(-finished // ARCHIVE_PAGE))
    last = "/games"                 # the last page, by the page before's "Older games" link
    if last_page > 1:
        before = listings.finished(offset=(last_page - 1) * ARCHIVE_PAGE - 1, limit=1)
        last = f"/games?older={before[0]['game'].id}"
    paths = {"/": "/", "/games (last page)": last, "home page": f"/me/{keys().home_link(ME)}"}
    times = {}
    for label, path in paths.items():
        client.get(path)                    # its templates compiled, its pages cached: warm
        samples = []
        for _ in range(SAMPLES):
            started = time.perf_counter()
            answer = client.get(path)
            samples.append((time.perf_counter() - started) * 1000)
            assert answer.status_code == 200, (path, answer.status_code)
        with counted_work() as work:
            client.get(path)
        times[label] = (statistics.median(samples), work)
    return times


@contextlib.contextmanager
def counted_work():
    """{"queries": n, "steps": hundreds of SQLite instructions (None on PostgreSQL)} of what
    runs inside the block."""
    work = {"queries": 0, "steps": None}
    database_object = db.obj
    real = database_object.execute_sql

    def counted(*args, **kwargs):
        work["queries"] += 1
        return real(*args, **kwargs)

    def stepped():
        work["steps"] += 1
        return 0
    sqlite = database.is_sqlite()
    if sqlite:
        work["steps"] = 0
        database_object.connection().set_progress_handler(stepped, 100)
    database_object.execute_sql = counted
    try:
        yield work
    finally:
        del database_object.execute_sql
        if sqlite:
            database_object.connection().set_progress_handler(None, 100)


def work_said(work: dict) -> str:
    steps = "" if work["steps"] is None else f", {work['steps'] / 10:,.1f}k SQLite steps"
    return f"{work['queries']} queries{steps}"


@contextlib.contextmanager
def timed_writes(into: list[float]):
    """Time every outermost transaction (SQLite: BEGIN IMMEDIATE, the write lock) from its
    start to its commit, whoever opens it."""
    database_object = db.obj
    real = database_object.atomic

    @contextlib.contextmanager
    def timed(*args, **kwargs):
        outermost = database_object.transaction_depth() == 0
        started = time.perf_counter()
        with real(*args, **kwargs):
            yield
        if outermost:
            into.append((time.perf_counter() - started) * 1000)
    database_object.atomic = timed
    try:
        yield
    finally:
        del database_object.atomic


def store_mails(total: int) -> None:
    """Sent mails (no bodies, as the worker leaves them) spread over the finished games, half
    of them older than the guide's 90 days, until the outbox holds `total` rows."""
    games = [g.id for g in Game.select(Game.id).where(Game.status == "over")]
    missing = total - Outbox.select().count()
    now, old = utcnow(), utcnow() - dt.timedelta(days=120)
    for start in range(0, max(0, missing), 1000):
        rows = [{"message_id": f"<bench.{start + i}@pbem.bench>", "game": games[(start + i) % len(games)],
                 "seat": 0, "kind": "turn", "recipient": f"p{i % 97}@example.org",
                 "subject": "[pbem] Your turn", "template": "turn",
                 "context": {"seq": 1, "token": "redacted"}, "rendered": True,
                 "sent_at": old if (start + i) % 2 else now, "next_try_at": now}
                for i in range(min(1000, missing - start))]
        with database.write_transaction():
            Outbox.insert_many(rows).execute()


def pass_holds(rng: random.Random) -> dict:
    """The longest write transaction (ms) of each pass, with work due for each."""
    running_games(DUE, rng)
    running_games(COMPUTERS, rng, computer=True)
    later = utcnow() + dt.timedelta(days=3)     # every reminder and deadline due
    passes = {"mail send": lambda: mailer.send_due(limit=SENT),
              "pace pass": lambda: pace.run_pass(now=later),
              "computers' pass": lambda: computers.run_pass(iterations=100),
              "mail prune --older-than 90": lambda: mailqueue.prune(90)}
    holds = {}
    for label, run in passes.items():
        spans: list[float] = []
        with timed_writes(spans):
            run()
        holds[label] = (max(spans) if spans else 0.0, len(spans))
    return holds


def autoanalyze() -> str:
    """What PostgreSQL's autovacuum does within a minute of a bulk load, where this server runs
    without it (as the CI machine's does): ANALYZE, so that the planner knows the tables' sizes.
    A server as the hosting guide sets it up has it on; /health notes one that has not."""
    if not database.autovacuum_off():
        return ""
    db.obj.execute_sql("ANALYZE")
    return ": autovacuum is off on this server, ANALYZE is run in its place after each load"


def measure(kind: str, url: str) -> None:
    sink = SMTPServer().start()
    options = settings(url)
    options["MAIL_PORT"] = sink.port
    app = create_app(options)
    rng = random.Random(5)
    try:
        with app.app_context():
            db.connect(reuse_if_open=True)
            database.upgrade()
            client = app.test_client()
            finish_games(3, rng, with_me=True)
            finish_games(SMALL - 3, rng)
            running_games(RUNNING, rng)
            said = autoanalyze()
            if said:
                print(f"  {kind}{said}", flush=True)
            small = listing_times(client)
            finish_games(LARGE - SMALL, rng)
            autoanalyze()
            large = listing_times(client)
            for label in small:
                (before, work_before), (after, work_after) = small[label], large[label]
                change = (after / before - 1) * 100
                print(f"  {kind} {label}: {before:.1f} ms at {SMALL:,} games, {after:.1f} ms at "
                      f"{LARGE:,} ({change:+.0f}%)   (goal within +-20%); one GET's work: "
                      f"{work_said(work_before)}, then {work_said(work_after)}", flush=True)
            store_mails(MAILS)
            autoanalyze()
            stored = Outbox.select().count()
            for label, (longest, count) in pass_holds(rng).items():
                print(f"  {kind} {label} at {stored:,} stored mails: longest write transaction "
                      f"{longest:.1f} ms of {count}   (goal <= 50 ms)", flush=True)
            db.close()
            if hasattr(db.obj, "close_all"):
                db.obj.close_all()
    finally:
        sink.stop()


def main() -> None:
    from pbem.games import register
    from tests import toygame
    register(toygame.rules)
    on_both_databases(measure, "bench_scale")


if __name__ == "__main__":
    main()
