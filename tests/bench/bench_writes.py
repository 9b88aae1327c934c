"""A mid-game Tigris move through POST /api/turn: time inside the write transaction, queries per
POST, the reply's time beside a GET of the same turn, and the mail rendered after the reply.
Prints figures; never fails on time.

Run: python -m tests.bench bench_writes   (or `make bench`)
"""
from __future__ import annotations

import contextlib
import logging
import random
import statistics
import time

from pbem.app import create_app
from pbem.db import database
from pbem.db.models import Outbox, db
from pbem.log import store
from pbem.mail import compose
from pbem.play import creation
from pbem.play import outbox
from tests.bench import on_both_databases, sized
from tests.bench.bench_pages import play, players, settings

MOVES_BEFORE = sized(40, 4)        # random moves into the game before each measured move
SAMPLES = sized(30, 2)             # measured moves (one game each)
PLAYERS = 3


class Counter(logging.Handler):
    """Counts the SQL statements peewee runs (it logs each one at DEBUG)."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.count = 0

    def emit(self, record):
        if isinstance(record.msg, tuple):       # (sql, params): not the pool's own messages
            self.count += 1


@contextlib.contextmanager
def timed_transactions(into: list[float]):
    """Time every use case's write transaction (pbem.play.outbox.transaction opens them)."""
    real = outbox.write_transaction

    @contextlib.contextmanager
    def timed():
        start = time.perf_counter()
        with real():
            yield
        into.append(time.perf_counter() - start)
    outbox.write_transaction = timed
    try:
        yield
    finally:
        outbox.write_transaction = real


def newest_token(game, seat: int) -> str:
    row = (Outbox.select().where(Outbox.game == game, Outbox.seat == seat)
           .order_by(Outbox.id.desc()).first())
    return row.context["token"]


def one_move(app, client, rng, figures: dict) -> None:
    """A new game played MOVES_BEFORE random moves, then one move timed: a GET of the seat's
    turn, the POST of its move (queries counted, write transaction timed), and the mails
    rendered after the reply."""
    game, _ = creation.create_game("tigris", players(PLAYERS), seed=rng.randrange(10**9))
    game = store.get_game(play(game, MOVES_BEFORE, rng).id)
    rules, state = store.rules_of(game), store.state_of(game)
    seat = rules.to_act(state)[0]
    token = newest_token(game, seat)
    action = rng.choice(rules.legal_actions(state, seat))
    start = time.perf_counter()
    assert client.get(f"/api/turn/{token}").status_code == 200
    figures["gets"].append(time.perf_counter() - start)
    counter, transactions, unrendered = Counter(), [], []
    # as under a real server: the reply goes before the mails are rendered (the renderer runs
    # when the response closes), so the POST is timed without them
    renderer = app.extensions[outbox.RENDERER]
    app.extensions[outbox.RENDERER] = unrendered.extend
    peewee_log = logging.getLogger("peewee")
    peewee_log.addHandler(counter)
    with timed_transactions(transactions):
        start = time.perf_counter()
        answer = client.post(f"/api/turn/{token}", json={"seq": game.seq, "action": action})
        figures["posts"].append(time.perf_counter() - start)
    peewee_log.removeHandler(counter)
    app.extensions[outbox.RENDERER] = renderer
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    figures["queries"].append(counter.count)
    figures["inside"].append(sum(transactions))
    start = time.perf_counter()
    compose.render_ids(unrendered)   # what runs after the reply has gone
    figures["renders"].append((time.perf_counter() - start, len(unrendered)))


def measure(kind: str, url: str) -> None:
    rng = random.Random(7)
    app = create_app(settings(url))
    client = app.test_client()
    peewee_log = logging.getLogger("peewee")
    peewee_log.setLevel(logging.DEBUG)
    figures = {"posts": [], "gets": [], "inside": [], "queries": [], "renders": []}
    with app.app_context():
        db.connect(reuse_if_open=True)
        database.upgrade()
        for _sample in range(SAMPLES):
            one_move(app, client, rng, figures)
        db.close()
        if hasattr(db.obj, "close_all"):
            db.obj.close_all()
    peewee_log.setLevel(logging.WARNING)
    report(kind, figures)


def report(kind: str, figures: dict) -> None:
    def ms(values):
        return f"median {statistics.median(values) * 1000:.1f} ms (least {min(values) * 1000:.1f})"
    posts, gets, renders = figures["posts"], figures["gets"], figures["renders"]
    print(f"mid-game Tigris move ({PLAYERS} players, after {MOVES_BEFORE} random moves, "
          f"{SAMPLES} moves, {kind}, in-process):")
    print(f"  inside the write transaction: {ms(figures['inside'])}   (goal <= 10 ms)")
    print(f"  queries per POST: median {statistics.median(figures['queries']):.0f}, "
          f"most {max(figures['queries'])}   (goal <= 10)")
    print(f"  POST /api/turn: {ms(posts)};  GET /api/turn: {ms(gets)};  POST / GET = "
          f"{statistics.median(posts) / statistics.median(gets):.2f}   (goal <= 2)")
    mails = sum(n for _t, n in renders)
    print(f"  mail rendered after the reply: {ms([t for t, _n in renders])} for "
          f"{mails / len(renders):.1f} mails a move", flush=True)


def main() -> None:
    on_both_databases(measure, "bench_writes")


if __name__ == "__main__":
    main()
