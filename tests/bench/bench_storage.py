"""Storage figures (issue 23, item 9): bytes on disk per finished game and per 1,000 moves, by
table, on SQLite and (where PBEM_TEST_DATABASE_URL names one) PostgreSQL; random games played
to their end through the use cases (moves.act: log, snapshot, links, mail rendered as in
production). On PostgreSQL also the game table's live rows beside its size — the dead copies
of the state each move leaves — before and after VACUUM, and what `mail prune` frees. Prints
figures; never fails on size."""
from __future__ import annotations

import datetime as dt
import os
import random
import tempfile
from pathlib import Path

from pbem.app import create_app
from pbem.db import database
from pbem.db.models import Game, Outbox, db
from pbem.log import store
from pbem.play import moves
from tests.bench import sized
from tests.conftest import free_port

RULES = sized("tigris", "duel")      # quick: the test game (a few moves to its end)
GAMES = sized(4, 1)
TABLES = ("game", "event", "outbox", "link", "seat")
SECRET = "bench-secret-long-enough-for-production"


def play_to_the_end(rng: random.Random) -> int:
    players = [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(2)]
    game, _ = moves.create_game(RULES, players, seed=rng.randrange(10**6),
                                host_email="host@example.org")
    rules = store.rules_of(game)
    while True:
        game = store.get_game(game.id)
        state = rules.load(game.state)
        waiting = rules.to_act(state)
        if not waiting:
            return game.seq
        seat = rng.choice(waiting)
        moves.act(game.id, seat, rng.choice(rules.legal_actions(state, seat)), game.seq)


def sqlite_sizes(path: Path) -> dict:
    db.obj.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    try:
        rows = db.obj.execute_sql("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name").fetchall()
        by_name = dict(rows)
    except Exception:  # noqa: BLE001 - an SQLite built without dbstat: the file alone
        by_name = {}
    sizes = {table: by_name.get(table, 0) for table in TABLES}
    sizes["total"] = path.stat().st_size
    return sizes


def postgresql_sizes() -> dict:
    """Each table with its indexes and TOAST; the total over every table of pbem's."""
    sizes = {table: db.obj.execute_sql("SELECT pg_total_relation_size(%s)", (table,)).fetchone()[0]
             for table in TABLES}
    sizes["total"] = db.obj.execute_sql(
        "SELECT SUM(pg_total_relation_size(relid)) FROM pg_stat_user_tables").fetchone()[0]
    return sizes


def live_game_bytes() -> int:
    return db.obj.execute_sql("SELECT COALESCE(SUM(pg_column_size(g.*)), 0) FROM game g").fetchone()[0]


def show(label: str, sizes: dict, games: int, moves_played: int) -> None:
    per_game = {k: v / games for k, v in sizes.items()}
    print(f"   {label}: {per_game['total'] / 1024:,.0f} KB per finished game "
          f"({moves_played / games:.0f} moves), {sizes['total'] / moves_played * 1000 / 1024:,.0f} "
          "KB per 1,000 moves; per game by table: "
          + ", ".join(f"{t} {per_game[t] / 1024:,.0f} KB" for t in TABLES), flush=True)


def measure(kind: str, url: str, path: Path | None = None) -> None:
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET, "BASE_URL": "http://pbem.bench",
                      "MAIL_PORT": free_port(), "ENV": "development"})
    with app.app_context():
        db.connect(reuse_if_open=True)
        database.upgrade()
        rng = random.Random(23)
        played = sum(play_to_the_end(rng) for _ in range(GAMES))
        if kind == "SQLite":
            show(f"SQLite {RULES}", sqlite_sizes(path), GAMES, played)
        else:
            before, live = postgresql_sizes(), live_game_bytes()
            show(f"PostgreSQL {RULES}", before, GAMES, played)
            print(f"   PostgreSQL game table: {before['game'] / GAMES / 1024:,.0f} KB per game on disk "
                  f"for {live / GAMES / 1024:,.1f} KB of live rows", flush=True)
            db.close()
            db.connect()
            db.obj.execute_sql("VACUUM FULL")
            show("PostgreSQL after VACUUM FULL", postgresql_sizes(), GAMES, played)
            from pbem.ops import admin
            Outbox.update(sent_at=dt.datetime(2000, 1, 1)).execute()
            counts = admin.prune(30)
            db.obj.execute_sql("VACUUM FULL")
            print(f"   PostgreSQL after mail prune (every mail old): {counts['mails']} of "
                  f"{counts['mails'] + Outbox.select().count()} mails deleted (a game keeps its "
                  f"newest {admin.HOST_PAGE_MAIL}); outbox "
                  f"{postgresql_sizes()['outbox'] / GAMES / 1024:,.0f} KB per game", flush=True)
        assert Game.select().where(Game.status == "over").count() == GAMES
        db.close()
        if hasattr(db.obj, "close_all"):
            db.obj.close_all()


def own_postgresql(url: str) -> str:
    """A database of the bench's own next to the one named (made empty)."""
    import psycopg2
    base, name = url.rsplit("/", 1)
    name = f"{name}_bench_storage"
    connection = psycopg2.connect(url)
    connection.autocommit = True
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        cursor.execute(f'CREATE DATABASE "{name}"')
    connection.close()
    return f"{base}/{name}"


def main() -> None:
    if RULES == "duel":
        from pbem.games import register
        from tests import toygame
        register(toygame.rules)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "pbem.db"
        measure("SQLite", f"sqlite:///{path}", path)
    pg = os.environ.get("PBEM_TEST_DATABASE_URL")
    if pg:
        measure("PostgreSQL", own_postgresql(pg))
    else:
        print("   PostgreSQL: not measured (PBEM_TEST_DATABASE_URL is not set)")


if __name__ == "__main__":
    main()
