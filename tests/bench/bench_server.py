"""Server figures: turn-page GET and action POST throughput under gunicorn (WORKERS workers)
beside a bare "hello" route on the same server, and page time at move 1 versus move 500 of a
long game, on SQLite and (where PBEM_TEST_DATABASE_URL names one) PostgreSQL. Prints figures;
never fails on time. Each GET route is hammered SECONDS; the POST figure is GAMES - 1 first
moves, each in a game of its own, as fast as the clients can send them."""
from __future__ import annotations

import os
import re
import statistics
import tempfile
import threading
import time
from pathlib import Path

import requests

from pbem.play import moves as playing
from pbem.play import creation
from pbem.db import database
from pbem.log import store
from pbem.app import create_app
from pbem.games import RULES, register
from pbem.db.models import Outbox, db
from tests import toygame
from tests.bench import emptied_postgresql, new_sqlite, sized
from tests.conftest import free_port
from tests.support.gunicorn_server import Gunicorn

THREADS = 8
WORKERS = sized(4, 1)               # gunicorn's (quick: one; each boots the app, 1 s of CPU)
SECONDS = sized(3.0, 0.15)          # hammering per GET route
GAMES = sized(150, 3)               # games created up front: one serves the GETs, the rest a POST
MOVES = sized((1, 500), (1, 5))     # moves of the long game where its page time is taken
SAMPLES = sized(20, 3)              # in-process GETs per figure (the median is printed)
LINK = re.compile(r"/turn/([A-Za-z0-9_.\-]+)")
SECRET = "bench-secret-Zq8wR2xk3Vn9LpT4sY6bHc1JmG5fD7aE"


def settings(url: str) -> dict:
    return {"DATABASE_URL": url, "SECRET_KEY": SECRET, "BASE_URL": "http://pbem.bench",
            "MAIL_PORT": free_port(), "ENV": "development"}


def last_token(game, seat: int) -> str:
    row = (Outbox.select().where(Outbox.game == game, Outbox.seat == seat,
                                 Outbox.kind == "turn").order_by(Outbox.id.desc()).first())
    return LINK.search(row.body_text).group(1)


def players(n=2):
    return [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(n)]


def hammer(url_of, method="get", body_of=None, seconds=SECONDS) -> float:
    """Requests per second from THREADS clients for `seconds` (or until work runs out)."""
    count, errors, stop = [0], [0], time.monotonic() + seconds
    lock = threading.Lock()

    def client():
        session = requests.Session()
        while time.monotonic() < stop:
            target = url_of()
            if target is None:
                return
            if method == "get":
                answer = session.get(target, timeout=30)
            else:
                answer = session.post(target, json=body_of(target), timeout=30)
            with lock:
                count[0] += 1
                errors[0] += answer.status_code >= 400
    started = time.monotonic()
    threads = [threading.Thread(target=client) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    if errors[0]:
        print(f"    ({errors[0]} error answers)")
    return count[0] / elapsed


def throughput(url: str) -> None:
    app = create_app(settings(url))
    with app.app_context():
        db.connect(reuse_if_open=True)
        database.upgrade()
        tokens = []
        for i in range(GAMES):
            game, _ = creation.create_game("duel", players(), seed=i)
            tokens.append(last_token(game, 0))
        token0 = tokens[0]
        db.close()
    env = {"PBEM_DATABASE_URL": url, "PBEM_SECRET_KEY": SECRET, "PBEM_BASE_URL": "http://pbem.bench",
           "PBEM_MAIL_PORT": str(settings(url)["MAIL_PORT"])}
    with Gunicorn(free_port(), env, workers=WORKERS, app="tests.bench.bench_wsgi:app") as server:
        hello = hammer(lambda: f"{server.url}/hello")
        page = hammer(lambda: f"{server.url}/turn/{token0}")
        api = hammer(lambda: f"{server.url}/api/turn/{token0}")
        # one first move in each of the other games: every POST is a real, distinct action
        attacks = {t: requests.get(f"{server.url}/api/turn/{t}", timeout=30).json()["actions"][0]
                   for t in tokens[1:]}
        queue = list(attacks)
        lock = threading.Lock()

        def next_post():
            with lock:
                return f"{server.url}/api/turn/{queue.pop()}" if queue else None

        def body(target):
            return {"seq": 0, "action": attacks[target.rsplit("/", 1)[1]]}
        post = hammer(next_post, "post", body, seconds=60)    # ends when the games run out
    print(f"  hello route          {hello:8.0f} req/s")
    print(f"  turn page GET (HTML) {page:8.0f} req/s   {page / hello:5.2f} x hello")
    print(f"  turn GET (JSON API)  {api:8.0f} req/s   {api / hello:5.2f} x hello")
    print(f"  action POST          {post:8.0f} req/s   {post / hello:5.2f} x hello")


def page_times(url: str) -> None:
    app = create_app(settings(url))
    client = app.test_client()
    with app.app_context():
        db.connect(reuse_if_open=True)
        database.upgrade()
        game, _ = creation.create_game("duel", players(), seed=1, options={"rounds": 600})
        rules = RULES["duel"]
        figures = {}
        for target in MOVES:
            while game.seq < target:
                state = store.state_of(game)
                seat = rules.to_act(state)[0]
                playing.act(game.id, seat, rules.legal_actions(state, seat)[0], game.seq)
                game = store.get_game(game.id)
            seat = rules.to_act(store.state_of(game))[0]
            token = last_token(game, seat)
            figures[game.seq] = [_time(client, f"/turn/{token}"), _time(client, f"/api/turn/{token}")]
        db.close()
    for seq, (html, api) in figures.items():
        print(f"  move {seq:5d}: turn page {html:6.2f} ms, JSON API {api:6.2f} ms "
              f"(median of {SAMPLES})")


def _time(client, path) -> float:
    samples = []
    for _ in range(SAMPLES):
        started = time.perf_counter()
        assert client.get(path).status_code == 200
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def main() -> None:
    register(toygame.rules)
    with tempfile.TemporaryDirectory() as tmp:
        targets = [("SQLite", new_sqlite(Path(tmp) / "bench.db"))]
        pg = os.environ.get("PBEM_TEST_DATABASE_URL")
        if pg:
            targets.append(("PostgreSQL", pg))
        for name, url in targets:
            if url.startswith("postgres"):
                emptied_postgresql(url)
            print(f"server on {name}, gunicorn with {WORKERS} worker{'s' * (WORKERS > 1)}, "
                  f"{THREADS} clients:")
            throughput(url)
            if url.startswith("postgres"):
                emptied_postgresql(url)
            print(f"page time in a long game on {name} (in process):")
            page_times(url)


if __name__ == "__main__":
    main()
