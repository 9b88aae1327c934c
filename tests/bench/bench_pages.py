"""Turn pages of the real games: bytes (raw and gzip), in-process time, and throughput under
gunicorn as a ratio to a bare route served by the same gunicorn — per game, at the opening and
after 60 random moves, side by side. Prints figures; never fails on time.

Run: python -m tests.bench bench_pages   (or `make bench`, which runs every bench)
"""
from __future__ import annotations

import gc
import gzip
import http.client
import random
import re
import statistics
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from pbem.play import moves as playing
from pbem.play import creation
from pbem.db import database
from pbem.log import store
from pbem.app import create_app
from pbem.db.models import Outbox, db
from pbem.web import pagecache
from tests.bench import new_sqlite, sized
from tests.conftest import free_port
from tests.support.gunicorn_server import Gunicorn

GAMES = ("tigris", "tigris_cards", "assyria")
FINISHED = sized("assyria", "duel")  # the finished game's page (quick: the test game, 12 moves)
PLAYERS = 3
STAGES = sized((0, 60), (0, 1))     # random moves played before the page is measured
SAMPLES = sized(40, 2)              # in-process GETs per page (the median is printed)
UNMEASURED = sized(3, 1)            # in-process GETs per page before them
SECONDS = sized(2.0, 0.05)          # wrk-like hammering per page under gunicorn
THREADS = 4
WORKERS = sized(2, 1)               # gunicorn's (quick: one; each boots the app, 1 s of CPU)
WARM_UP = sized(0.3, 0.02)          # seconds of unmeasured requests per page first
LINK = re.compile(r"/turn/([A-Za-z0-9_.\-]+)")
SECRET = "bench-secret-Zq8wR2xk3Vn9LpT4sY6bHc1JmG5fD7aE"


def settings(url: str) -> dict:
    return {"DATABASE_URL": url, "SECRET_KEY": SECRET, "BASE_URL": "http://pbem.bench",
            "MAIL_PORT": free_port(), "ENV": "development"}


def players(n: int) -> list[dict]:
    return [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(n)]


def token_for(game, seat: int) -> str:
    row = (Outbox.select().where(Outbox.game == game, Outbox.seat == seat, Outbox.kind == "turn")
           .order_by(Outbox.id.desc()).first())
    return LINK.search(row.body_text).group(1)


def play(game, moves: int, rng: random.Random):
    rules = store.rules_of(game)
    for _ in range(moves):
        game = store.get_game(game.id)
        state = store.state_of(game)
        waiting = rules.to_act(state)
        if not waiting:
            break
        seat = rng.choice(waiting)
        playing.act(game.id, seat, rng.choice(rules.legal_actions(state, seat)), game.seq)
    return store.get_game(game.id)


def make_pages(rules_name: str, moves: int, seed: int = 1) -> str:
    """A new game played `moves` random moves on; the turn path of a seat that is to act."""
    rng = random.Random(f"{rules_name}-{moves}-{seed}")
    game, _ = creation.create_game(rules_name, players(PLAYERS), seed=rng.randrange(10**9))
    game = play(game, moves, rng)
    seat = store.rules_of(game).to_act(store.state_of(game))[0]
    return f"/turn/{token_for(game, seat)}"


def in_process(client, paths: list[str]) -> list[tuple[float, float, float, int, int, float]]:
    """For each of `paths`: (median CPU ms, least CPU ms, median wall ms, raw bytes, gzip
    bytes) of GET rendered (the worker's page cache emptied before each), and the median CPU
    ms of the same GET again while nothing moved (answered from the cache:
    pbem/web/pagecache.py). The CPU time of the serving thread is the server's own cost; wall
    time also counts whatever else the shared machine is running. On a shared virtual machine
    the same code's CPU time drifts by a third from one minute to the next: the pages are
    measured in turns, one GET of each a round, so that every page sees the same minutes, and
    the least of the samples says what a page costs when nothing else interferes."""
    cpu = {path: [] for path in paths}
    wall = {path: [] for path in paths}
    kept = {path: [] for path in paths}
    body = {}
    for path in paths:
        for _ in range(UNMEASURED):     # templates compiled, catalogues loaded
            client.get(path)
    for _ in range(SAMPLES):
        for path in paths:
            client.application.extensions.pop(pagecache.EXTENSION, None)
            started, started_cpu = time.perf_counter(), time.thread_time()
            answer = client.get(path)
            cpu[path].append((time.thread_time() - started_cpu) * 1000)
            wall[path].append((time.perf_counter() - started) * 1000)
            assert answer.status_code == 200, answer.status_code
            body[path] = answer.data
            started_cpu = time.thread_time()
            assert client.get(path).status_code == 200          # kept since the line above
            kept[path].append((time.thread_time() - started_cpu) * 1000)
    return [(statistics.median(cpu[path]), min(cpu[path]), statistics.median(wall[path]),
             len(body[path]), len(gzip.compress(body[path], 6)), statistics.median(kept[path]))
            for path in paths]


def revalidated(client) -> tuple[float, float]:
    """(median CPU ms of a finished game's page rendered, of the same page answered 304 to a
    browser that kept it): what the page's validator saves (pbem/web/conditional.py)."""
    rng = random.Random("finished")
    game, _ = creation.create_game(FINISHED, players(PLAYERS), seed=rng.randrange(10**9))
    game = play(game, 100_000, rng)
    path = f"/games/{game.id}"
    etag = client.get(path).headers["ETag"]
    times = {}
    for status, headers in ((200, {}), (304, {"If-None-Match": etag})):
        cpu = []
        for _ in range(SAMPLES):
            started = time.thread_time()
            answer = client.get(path, headers=headers)
            cpu.append((time.thread_time() - started) * 1000)
            assert answer.status_code == status, answer.status_code
        times[status] = statistics.median(cpu)
    return times[200], times[304]


def hammer(url: str, seconds: float = SECONDS) -> float:
    """Requests per second from THREADS clients for `seconds`: plain http.client, which costs
    the shared 2 cores far less than a full HTTP library (gunicorn's sync workers close every
    connection, so each request is a new one, as with wrk)."""
    parts = urlsplit(url)
    count, stop, lock = [0], time.monotonic() + seconds, threading.Lock()

    def client():
        while time.monotonic() < stop:
            connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
            connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""))
            answer = connection.getresponse()
            answer.read()
            connection.close()
            assert answer.status == 200, answer.status
            with lock:
                count[0] += 1
    started = time.monotonic()
    threads = [threading.Thread(target=client) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return count[0] / (time.monotonic() - started)


def run(url: str) -> None:
    app = create_app(settings(url))
    gc.freeze()         # as a gunicorn worker does once it built the app (deploy/gunicorn.conf.py)
    client = app.test_client()
    rows = []
    with app.app_context():
        db.connect(reuse_if_open=True)
        database.upgrade()
        pages = [(name, moves, make_pages(name, moves)) for name in GAMES for moves in STAGES]
        for (name, moves, path), figures in zip(pages, in_process(client,
                                                                  [p for _, _, p in pages])):
            rows.append([name, moves, path, *figures])
        rendered, kept = revalidated(client)
        db.close()
    gc.unfreeze()
    env = {"PBEM_DATABASE_URL": url, "PBEM_SECRET_KEY": SECRET,
           "PBEM_BASE_URL": "http://pbem.bench", "PBEM_MAIL_PORT": str(free_port())}
    with Gunicorn(free_port(), env, workers=WORKERS, app="tests.bench.bench_wsgi:app") as server:
        # steady state, as a server runs for months: every worker has compiled each page's
        # templates and loaded its catalogues before the clock starts
        for path in ["/hello"] + [row[2] for row in rows]:
            hammer(f"{server.url}{path}", WARM_UP)
        hello = hammer(f"{server.url}/hello")
        for row in rows:
            row.append(hammer(f"{server.url}{row[2]}"))
        hello = (hello + hammer(f"{server.url}/hello")) / 2      # before and after the pages
        for row in rows:
            row[-1] /= hello
    print(f"  {PLAYERS} players; in-process median of {SAMPLES} GETs; gunicorn -w {WORKERS}, "
          f"{THREADS} clients, bare route {hello:.0f} req/s")
    print("  CPU ms: rendered; kept: read again while nothing moved (the worker's page cache); "
          "x bare: gunicorn's rate against a bare route (goal >= 0.25)")
    print(f"  {'game':<13}{'moves':>6}{'bytes':>9}{'gzip':>8}{'CPU ms':>8}{'least':>8}"
          f"{'wall ms':>9}{'kept':>7}{'x bare':>8}")
    for name, moves, _path, cpu, least, wall, raw, packed, kept, ratio in rows:
        print(f"  {name:<13}{moves:>6}{raw:>9}{packed:>8}{cpu:>8.2f}{least:>8.2f}{wall:>9.2f}"
              f"{kept:>7.2f}{ratio:>8.3f}")
    print(f"  a finished game's page: rendered {rendered:.2f} ms CPU, answered 304 to a browser "
          f"that kept it {kept:.2f} ms ({rendered / kept:.0f}x less)")


def main() -> None:
    if FINISHED == "duel":
        from pbem.games import register
        from tests import toygame
        register(toygame.rules)
    with tempfile.TemporaryDirectory() as tmp:
        run(new_sqlite(Path(tmp) / "pages.db"))


if __name__ == "__main__":
    main()
