"""Storage figures: bytes on disk per finished game and per 1,000 moves, by
table, on SQLite and (where PBEM_TEST_DATABASE_URL names one) PostgreSQL; random games played
to their end through the use cases (moves.act: log, snapshot, links, mail rendered and sent
to a local SMTP sink as in production). On PostgreSQL also the game table's live rows beside its size — the dead copies
of the state each move leaves — before and after VACUUM, and what `mail prune` frees, with the
game table as before migration 011 (fillfactor 100) and as now (80: the snapshot's rewrite is a
HOT update, pruned in place). Then a long game (a card game of `pass` moves through moves.act):
the game table's size as it grows, and the replay steps of a 45,000-move game: from the nearest
checkpoint (now) against from the seed (before 011). Prints figures; never fails on size."""
from __future__ import annotations

import datetime as dt
import gzip
import json
import os
import random
import tempfile
import time
from pathlib import Path

from pbem.app import create_app
from pbem.db import database
from pbem.db.models import Event, Game, Link, Outbox, db
from pbem.log import lines, store
from pbem.present import listings
from pbem.play import moves
from pbem.play import creation
from pbem.mail import mailer
from tests.bench import QUICK, new_sqlite, own_postgresql, sized
from tests.conftest import SMTPServer

RULES = sized("tigris", "duel")      # quick: the test game (a few moves to its end)
GAMES = sized(4, 1)
TABLES = ("game", "event", "checkpoint", "outbox", "link", "seat")
WARM_CYCLES = sized(2, 1)             # PostgreSQL: rounds of games pruned before the steady state
# quick: CHECKPOINT_EVERY (50) moves, a checkpoint kept and the mail sent once
LONG = sized(1_000, 50)               # moves of the long game through moves.act
# quick: twice CHECKPOINT_EVERY, the fewest with a whole checkpoint's stretch before the last
REPLAYED = sized(45_000, 100)         # moves of the game whose replay steps are timed
SWEEP_STRIDE = sized(1, 10)           # the sweep times every step of a stretch (quick: a tenth)
SECRET = "bench-secret-Zq8wR2xk3Vn9LpT4sY6bHc1JmG5fD7aE"


def send_everything() -> None:
    """Send the queued mail to the local SMTP sink, as the mail worker does in production (a
    sent mail keeps no body: redaction.redacted)."""
    while mailer.send_due(limit=200)["sent"]:
        pass


def play_out(game, rng: random.Random, every: int = 0, then=None):
    """Random legal moves through the use cases (moves.act) to the game's end; `then()` after
    each `every` moves. The game as it ended."""
    rules = store.rules_of(game)
    while True:
        game = store.get_game(game.id)
        state = rules.load(game.state)
        waiting = rules.to_act(state)
        if not waiting:
            return game
        seat = rng.choice(waiting)
        moves.act(game.id, seat, rng.choice(rules.legal_actions(state, seat)), game.seq)
        if every and (game.seq + 1) % every == 0:
            then()


def play_to_the_end(rng: random.Random, sending=None) -> int:
    """One game between two new players (a player's daily cap of turn mail would hold the
    mails of a fifth game of the same two players, bodies and all, for the next day)."""
    table = rng.randrange(10**9)
    players = [{"name": f"P{i}", "email": f"p{i}.{table}@example.org"} for i in range(2)]
    game, _ = creation.create_game(RULES, players, seed=rng.randrange(10**6),
                                host_email="host@example.org")
    sending = sending or send_everything
    game = play_out(game, rng, 50, sending)
    sending()
    return game.seq


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


def added(after: dict, before: dict) -> dict:
    """What the games added: the sizes less those of the migrated empty database (a table or
    index takes a page or more before its first row, 0.4 MB of a new SQLite file)."""
    return {k: after[k] - before.get(k, 0) for k in after}


def make_everything_old() -> None:
    """Every mail sent, link expired and game finished long ago: what the guide's prune
    leaves of a game once it is old."""
    long_ago = dt.datetime(2000, 1, 1)
    Outbox.update(sent_at=long_ago).execute()
    Link.update(expires_at=long_ago).execute()
    Game.update(finished_at=long_ago).execute()


def export_gzip_bytes() -> int:
    """The finished games' own exports, gzipped: the floor a game's storage is measured by."""
    return sum(len(gzip.compress(json.dumps(store.export(game)).encode()))
               for game in Game.select().where(Game.status == "over"))


def show(label: str, sizes: dict, games: int, moves_played: int, floor: int | None = None) -> None:
    per_game = {k: v / games for k, v in sizes.items()}
    ratio = f", {sizes['total'] / floor:.1f} x the export's gzip (goal <= 5)" if floor else ""
    print(f"   {label}: {per_game['total'] / 1024:,.0f} KB per finished game "
          f"({moves_played / games:.0f} moves){ratio}, "
          f"{sizes['total'] / moves_played * 1000 / 1024:,.0f} "
          "KB per 1,000 moves; per game by table: "
          + ", ".join(f"{t} {per_game[t] / 1024:,.0f} KB" for t in TABLES), flush=True)


def postgresql_figures(label: str, empty: dict, played: int, floor: int, rng) -> None:
    """The first games as they end, their game table's live rows, and compacted (VACUUM FULL);
    then a server in its steady state, never compacted: those games old and pruned as the
    guide says, a plain VACUUM (what autovacuum does: the space freed becomes reusable, the
    files keep their size) after WARM_CYCLES rounds of as many games again, and what as many
    new games then add as they end and once pruned: a long-running server's growth a game."""
    before, live = postgresql_sizes(), live_game_bytes()
    show(f"PostgreSQL {RULES}{label}", added(before, empty), GAMES, played, floor)
    print(f"   PostgreSQL game table{label}: {before['game'] / GAMES / 1024:,.0f} KB per game "
          f"on disk for {live / GAMES / 1024:,.1f} KB of live rows", flush=True)
    vacuum("VACUUM FULL")
    show("PostgreSQL after VACUUM FULL", added(postgresql_sizes(), empty), GAMES, played, floor)
    counts = prune_old("VACUUM FULL")
    print(f"   PostgreSQL after the guide's mail prune (every mail, link and game old): "
          f"{counts['mails']} of {counts['mails'] + Outbox.select().count()} mails and "
          f"{counts['links']} links deleted", flush=True)
    show("PostgreSQL after the guide's mail prune and VACUUM FULL",
         added(postgresql_sizes(), empty), GAMES, played, floor)
    for _ in range(WARM_CYCLES):            # games whose pruned space the next ones reuse
        for _ in range(GAMES):
            play_to_the_end(rng, send_and_vacuum)
        prune_old("VACUUM")
    settled, floor_before = postgresql_sizes(), export_gzip_bytes()
    again = sum(play_to_the_end(rng, send_and_vacuum) for _ in range(GAMES))
    floor_again = export_gzip_bytes() - floor_before
    vacuum("VACUUM")
    show(f"PostgreSQL steady state{label}, no VACUUM FULL: {GAMES} more games as they end",
         added(postgresql_sizes(), settled), GAMES, again, floor_again)
    prune_old("VACUUM")
    show("PostgreSQL steady state, no VACUUM FULL: those games once the guide's prune and "
         "autovacuum passed", added(postgresql_sizes(), settled), GAMES, again, floor_again)


def prune_old(vacuuming: str) -> dict:
    """Every game, mail and link made old, the guide's prune, then `vacuuming`; its counts."""
    from pbem.ops import mailqueue
    make_everything_old()
    counts = mailqueue.prune(90)
    vacuum(vacuuming)
    return counts


def send_and_vacuum() -> None:
    """The mail worker's sending, then what autovacuum does within a minute of it (its
    threshold, a fifth of a table's rows dead, is passed by the bodies a sending empties and
    the links and seats the moves update): in production a game's moves are hours or days
    apart, and autovacuum looks at every table each minute."""
    send_everything()
    vacuum("VACUUM")


def vacuum(command: str) -> None:
    """VACUUM outside a transaction (a new connection: none is open). Quick, on PostgreSQL: of
    pbem's tables by name, the only ones the figures read (a VACUUM FULL of the whole database
    also rewrites the system catalogues: 3 s on a loaded machine, six times a run)."""
    db.close()
    db.connect()
    if QUICK and not database.is_sqlite():
        tables = db.obj.execute_sql("SELECT relname FROM pg_stat_user_tables").fetchall()
        command += " " + ", ".join(f'"{name}"' for name, in tables)
    db.obj.execute_sql(command)


def play_long(moves_: int, every: int, sizes_now=None) -> list[tuple[int, int]]:
    """A 2-player card game of `moves_` passes through moves.act; (moves, game-table bytes)
    every `every` moves (PostgreSQL: `sizes_now`, postgresql_sizes)."""
    players = [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(2)]
    game, _ = creation.create_game("tigris_cards", players, seed=7, host_email="host@example.org")
    rules, sizes = store.rules_of(game), []
    for n in range(1, moves_ + 1):
        game = store.get_game(game.id)
        moves.act(game.id, rules.to_act(store.state_of(game))[0], {"type": "pass"}, game.seq)
        if n % 50 == 0:
            send_everything()               # as the mail worker does: sent mail keeps no body
        if sizes_now is not None and n % every == 0:
            sizes.append((n, sizes_now()["game"]))
    return sizes


def replay_steps(kind: str) -> None:
    """Replay steps of a REPLAYED-move card game: the last one (the snapshot), the worst one
    (CHECKPOINT_EVERY - 1 events after a checkpoint), a sweep over one checkpoint's stretch
    (every SWEEP_STRIDE-th step), and the last step from the seed as every step was rebuilt
    before 011."""
    from tests.log.test_checkpoints import passing_game
    game = passing_game(REPLAYED)
    every = store.CHECKPOINT_EVERY
    worst = (game.seq // every) * every - 1
    sweep = range(worst - every + 1, worst + 1, SWEEP_STRIDE)

    def timed(step):
        started = time.perf_counter()
        rebuilt = store.state_at(game, step)
        return (time.perf_counter() - started) * 1000, rebuilt.replayed
    last, _ = timed(game.seq)
    worst_ms, worst_n = timed(worst)
    swept = [timed(step)[0] for step in sweep]
    started = time.perf_counter()
    for _event, _state in store.replay(game, upto=game.seq):
        pass
    seed_ms = (time.perf_counter() - started) * 1000
    print(f"   {kind} replay step of a {game.seq:,}-move card game: last step {last:.1f} ms, "
          f"worst step {worst_ms:.1f} ms ({worst_n} events applied), mean over {len(swept)} steps "
          f"{sum(swept) / len(swept):.1f} ms; from the seed (before 011) {seed_ms:,.0f} ms",
          flush=True)
    recent = list(game.events.order_by(Event.seq.desc()).limit(listings.PUBLIC_LOG_LINES))
    lines._kept.clear()
    times = []
    for _ in range(2):                  # its table read English: described anew, then kept
        started = time.perf_counter()
        said = lines.texts(game, recent, "hu")
        times.append((time.perf_counter() - started) * 1000)
    assert all(said)
    print(f"   {kind} a spectator's {len(recent)} Hungarian lines of that game: {times[0]:.0f} ms "
          f"described from the checkpoint before them, {times[1]:.1f} ms read again", flush=True)


def measure(kind: str, url: str, path: Path | None = None, fillfactor: int | None = None) -> None:
    sink = SMTPServer().start()
    try:
        _measure(kind, url, sink.port, path, fillfactor)
    finally:
        sink.stop()


def _measure(kind: str, url: str, port: int, path: Path | None, fillfactor: int | None) -> None:
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": SECRET, "BASE_URL": "http://pbem.bench",
                      "MAIL_PORT": port, "ENV": "development"})
    with app.app_context():
        db.connect(reuse_if_open=True)
        database.upgrade()
        if fillfactor is not None:
            db.obj.execute_sql(f"ALTER TABLE game SET (fillfactor = {int(fillfactor)})")
        label = "" if fillfactor is None else f" (game fillfactor {fillfactor})"
        if kind == "SQLite":
            db.obj.execute_sql("VACUUM")        # the migrations' freed pages
        empty = sqlite_sizes(path) if kind == "SQLite" else postgresql_sizes()
        rng = random.Random(23)
        played = sum(play_to_the_end(rng) for _ in range(GAMES))
        floor = export_gzip_bytes()
        print(f"   {RULES}: the export gzipped {floor / GAMES / 1024:,.1f} KB per game", flush=True)
        if kind == "SQLite":
            db.obj.execute_sql("VACUUM")        # pages the sent bodies left: reused in production
            show(f"SQLite {RULES}", added(sqlite_sizes(path), empty), GAMES, played, floor)
            links = Link.select().count()
            counts = prune_old("VACUUM")        # freed pages: reused by later games in production
            show(f"SQLite {RULES} after the guide's mail prune (every mail, link and game old: "
                 f"{counts['mails']} mails and {counts['links']} of {links} links deleted)",
                 added(sqlite_sizes(path), empty), GAMES, played, floor)
        else:
            postgresql_figures(label, empty, played, floor, rng)
        assert Game.select().where(Game.status == "over").count() == GAMES * (
            1 if kind == "SQLite" else 2 + WARM_CYCLES)
        if kind == "SQLite":
            Game.delete().execute()
            db.obj.execute_sql("VACUUM")
            start = sqlite_sizes(path)
            play_long(LONG, LONG)
            grown = sqlite_sizes(path)
            print(f"   SQLite long card game, {LONG:,} passes: {grown['total'] - start['total']:,} bytes "
                  f"({(grown['total'] - start['total']) / LONG * 1000 / 1024:,.0f} KB per 1,000 moves); "
                  f"game table {grown['game'] / 1024:,.0f} KB, checkpoints "
                  f"{grown['checkpoint'] / 1024:,.0f} KB", flush=True)
        else:
            Game.delete().execute()
            vacuum("VACUUM FULL")
            sizes = play_long(LONG, max(1, LONG // 4), postgresql_sizes)
            print(f"   PostgreSQL long card game{label}: game table "
                  + ", ".join(f"{size / 1024:,.0f} KB after {n:,}" for n, size in sizes)
                  + f" moves; checkpoints {postgresql_sizes()['checkpoint'] / 1024:,.0f} KB", flush=True)
        if fillfactor is None or fillfactor == 80:
            replay_steps(kind)
        db.close()
        if hasattr(db.obj, "close_all"):
            db.obj.close_all()


def main() -> None:
    if RULES == "duel":
        from pbem.games import register
        from tests import toygame
        register(toygame.rules)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "pbem.db"
        measure("SQLite", new_sqlite(path), path)
    pg = os.environ.get("PBEM_TEST_DATABASE_URL")
    if pg:
        measure("PostgreSQL", own_postgresql(pg, "bench_storage"), fillfactor=100)    # the game table before 011
        measure("PostgreSQL", own_postgresql(pg, "bench_storage"), fillfactor=80)     # as migration 011 sets it
    else:
        print("   PostgreSQL: not measured (PBEM_TEST_DATABASE_URL is not set)")


if __name__ == "__main__":
    main()
