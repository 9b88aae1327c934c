"""Shared fixtures: a real SMTP server, a database per test (SQLite, and PostgreSQL where
PBEM_TEST_DATABASE_URL names one), and an app with the Duel test game registered."""
from __future__ import annotations

import atexit
import os
import re
import shutil
import socket
import sqlite3
import tempfile
import threading
import uuid
from pathlib import Path
from email import message_from_bytes, policy

import pytest
from aiosmtpd.controller import Controller

from pbem.play import moves as playing
from pbem.games import RULES, register
from tests import toygame

PG_URL = os.environ.get("PBEM_TEST_DATABASE_URL")
LINK = re.compile(r"http://pbem\.test/turn/[A-Za-z0-9_.\-]+")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- a real SMTP server -----------------------------------------------------------------------------

class Inbox:
    """An aiosmtpd handler keeping every message it accepts; it can be told to refuse."""

    def __init__(self):
        self.messages = []
        self.refuse: dict[str, str] = {}   # recipient -> SMTP answer, e.g. "550 no such user"
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        message = message_from_bytes(envelope.content, policy=policy.default)
        with self.lock:
            self.messages.append(message)
        return "250 Message accepted for delivery"

    def to(self, address):
        with self.lock:
            return [m for m in self.messages if m["To"] == address]

    @staticmethod
    def text(message) -> str:
        return message.get_body(preferencelist=("plain",)).get_content()

    @classmethod
    def headline(cls, message) -> str:
        """A mail's first line: what it asks or says (the subject is the game's, the same for
        all its mail)."""
        return next(line for line in cls.text(message).splitlines() if line.strip())

    def links_for(self, address) -> list[str]:
        return [link for m in self.to(address) for link in LINK.findall(self.text(m))]

    def last_link(self, address) -> str | None:
        found = self.links_for(address)
        return found[-1] if found else None


class SMTPServer:
    def __init__(self, port=None):
        self.port = port or free_port()
        self.inbox = Inbox()
        self.controller = None

    def start(self):
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()
        return self

    def stop(self):
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


@pytest.fixture
def smtp():
    server = SMTPServer().start()
    yield server
    server.stop()


# -- databases ---------------------------------------------------------------------------------------
# Every test that builds the app starts from a copy of one migrated template, made once per
# worker process: a file copy on SQLite, CREATE DATABASE ... TEMPLATE on PostgreSQL. Migrating
# from scratch is left to the tests of the migrations themselves (they bind an empty database).

def _database_urls():
    urls = ["sqlite"]
    if PG_URL:
        urls.append("postgresql")
    return urls


def by_database(names, on_postgresql=()):
    """Parameters ("database_url", "rules_name") for a per-game test whose database's part is the
    same for every game: each game on SQLite, those of `on_postgresql` on PostgreSQL too (where
    it is configured). Use with `indirect=["database_url"]`."""
    return [("sqlite", name) for name in names] + \
        [(db, name) for db in _database_urls() if db != "sqlite"
         for name in names if name in on_postgresql]


def reset_postgresql(url: str) -> None:
    """An empty database: every table of every migration goes, whatever its name."""
    import psycopg2
    connection = psycopg2.connect(url)
    connection.autocommit = True
    with connection.cursor() as cursor:
        cursor.execute("DROP SCHEMA IF EXISTS public CASCADE")   # a reset cut short left none
        cursor.execute("CREATE SCHEMA public")
    connection.close()


def _server_command(url: str, *statements: str) -> None:
    """Statements run outside any transaction on the PostgreSQL server of `url`, through its
    maintenance database (CREATE and DROP DATABASE cannot run inside the database they name)."""
    import psycopg2
    connection = psycopg2.connect(url.rsplit("/", 1)[0] + "/postgres")
    connection.autocommit = True
    try:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
    finally:
        connection.close()


def worker_database(url: str) -> str:
    """Each pytest-xdist worker gets a PostgreSQL database of its own, named after the one
    PBEM_TEST_DATABASE_URL names (two checkouts testing at once name different ones). It exists
    when this returns; what it holds is the caller's to decide."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    base, name = url.rsplit("/", 1)
    own = f"{name}_{worker}"
    import psycopg2
    connection = psycopg2.connect(url)
    connection.autocommit = True
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", (own,))
        if cursor.fetchone() is None:
            cursor.execute(f'CREATE DATABASE "{own}"')
    connection.close()
    return base + "/" + own


def _migrate(url: str) -> None:
    """Every migration applied to the database at `url`, through a peewee database of its own
    (the models' database, bound by whichever app is current, is left alone)."""
    from peewee_migrate import Router
    from pbem.db.database import MIGRATIONS, open_database
    database = open_database(url)
    try:
        Router(database, migrate_dir=MIGRATIONS).run()
    finally:
        database.close()
        if hasattr(database, "close_all"):
            database.close_all()


SCHEMA_OF = """SELECT table_name, column_name, data_type FROM information_schema.columns
               WHERE table_schema = 'public'
               UNION ALL SELECT 'migratehistory', name, 'applied' FROM migratehistory
               ORDER BY 1, 2"""
FOREIGN_KEYS = """SELECT c.conrelid::regclass::text, c.confrelid::regclass::text
                  FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
                  WHERE c.contype = 'f' AND n.nspname = 'public'"""


class Templates:
    """The migrated templates of this worker process, made the first time one is asked for.

    SQLite: a migrated file, copied for each test. PostgreSQL: a migrated template database,
    cloned (CREATE DATABASE ... TEMPLATE) into the worker's own database when a test needs a
    fresh one and the worker's database no longer has the template's schema; between tests of
    an unchanged schema the rows are deleted instead (about 10 ms against 0.5-2.5 s for a clone
    on a busy 2-core machine, where each CREATE DATABASE waits for a checkpoint or a WAL flush
    of the 7 MB of catalogues every database carries)."""

    def __init__(self):
        self.folder = None
        self.sqlite_path = None
        self.postgresql_name = None
        self.schema = None            # the template's columns, to tell a changed schema
        self.deletion_order = []      # the tables with rows, children before parents
        self.sequences = []           # theirs, to restart
        self.cloned = False
        self.clones = 0               # how many times a test needed a clone (tests/test_conftest.py)

    def sqlite(self) -> Path:
        if self.sqlite_path is None:
            self.folder = Path(tempfile.mkdtemp(prefix="pbem-template-"))
            atexit.register(shutil.rmtree, self.folder, True)
            path = self.folder / "template.db"
            _migrate(f"sqlite:///{path}")
            with sqlite3.connect(path) as connection:      # the WAL folded into the file
                connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self.sqlite_path = path
        return self.sqlite_path

    def postgresql(self, url: str) -> str:
        """The name of this worker's migrated template database on `url`'s server."""
        if self.postgresql_name is None:
            name = worker_database(url).rsplit("/", 1)[1] + "_template"
            _server_command(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)',
                            f'CREATE DATABASE "{name}"')
            template_url = url.rsplit("/", 1)[0] + "/" + name
            _migrate(template_url)
            self.schema, self.deletion_order, self.sequences = self._read(template_url)
            self.postgresql_name = name
        return self.postgresql_name

    @staticmethod
    def _read(url: str):
        """A database's schema, and its tables in an order that deletes children first (the
        migrations' history is kept: it is what says the schema is migrated)."""
        import psycopg2
        connection = psycopg2.connect(url)
        try:
            with connection.cursor() as cursor:
                cursor.execute(SCHEMA_OF)
                schema = cursor.fetchall()
                cursor.execute(FOREIGN_KEYS)
                parents: dict[str, set] = {}
                for child, parent in cursor.fetchall():
                    parents.setdefault(child, set()).add(parent)
                tables = sorted({table for table, _, _ in schema} - {"migratehistory"})
                sequences = []
                for table in tables:
                    cursor.execute(f'SELECT EXISTS (SELECT 1 FROM "{table}")')
                    if cursor.fetchone()[0]:
                        raise RuntimeError(f"the migrations leave rows in {table}: "
                                           "emptying between tests would lose them")
                    cursor.execute("""SELECT pg_get_serial_sequence(quote_ident(%s), column_name)
                                      FROM information_schema.columns WHERE table_schema = 'public'
                                      AND table_name = %s AND column_default LIKE 'nextval%%'""",
                                   (table, table))
                    sequences += [name for name, in cursor.fetchall() if name]
        finally:
            connection.close()
        order, placed = [], set()
        while len(order) < len(tables):      # a table goes once every table it refers to waits
            ready = [t for t in tables if t not in placed
                     and all(c in placed for c in tables if t in parents.get(c, ()) and c != t)]
            if not ready:
                raise RuntimeError("the foreign keys form a circle: delete cannot order them")
            order += ready
            placed.update(ready)
        return schema, order, sequences

    def fresh_postgresql(self, url: str) -> str:
        """This worker's PostgreSQL database, as the template has it."""
        template = self.postgresql(url)
        own = worker_database(url)
        if not (self.cloned and self._emptied(own)):
            name = own.rsplit("/", 1)[1]
            _server_command(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)',
                            f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
            self.cloned = True
            self.clones += 1
        return own

    def _emptied(self, url: str) -> bool:
        """Every row the last test left deleted and the sequences restarted, if the schema is
        still the template's (False: a test changed it, and the database must be cloned)."""
        import psycopg2
        try:
            connection = psycopg2.connect(url)
        except psycopg2.Error:
            return False
        try:
            with connection.cursor() as cursor:
                cursor.execute("SET synchronous_commit = off")   # a test database: no flush
                cursor.execute(SCHEMA_OF)
                if cursor.fetchall() != self.schema:
                    return False
                for table in self.deletion_order:
                    cursor.execute(f'DELETE FROM "{table}"')
                for sequence in self.sequences:
                    cursor.execute("SELECT setval(%s, 1, false)", (sequence,))
            connection.commit()
            return True
        except psycopg2.Error:
            return False
        finally:
            connection.close()


TEMPLATES = Templates()


def fresh_sqlite(path) -> str:
    """The URL of a migrated SQLite database at `path`, copied from the template (`path` must
    not exist yet)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(TEMPLATES.sqlite(), path)
    return f"sqlite:///{path}"


def fresh_postgresql(url: str) -> str:
    """This worker's PostgreSQL database, migrated and empty."""
    return TEMPLATES.fresh_postgresql(url)


@pytest.fixture(params=_database_urls())
def database_url(request, tmp_path):
    """A migrated database of the test's own: SQLite, and PostgreSQL where
    PBEM_TEST_DATABASE_URL names a server."""
    if request.param == "sqlite":
        return fresh_sqlite(tmp_path / "pbem.db")
    return fresh_postgresql(PG_URL)


@pytest.fixture
def on_sqlite(tmp_path):
    """`database_url` on SQLite alone, for a module whose subject is what pages and mails show,
    not how games are stored: it says `database_url = on_sqlite`. PostgreSQL adds nothing there
    that the tests of the log, the mail, the pace and the commands, run on both, do not cover,
    and it doubled those modules' time."""
    return fresh_sqlite(tmp_path / "pbem.db")


# -- making an app, 1,500 times a run --------------------------------------------------------------
# Werkzeug writes and compiles a Python function that builds each URL rule's address every time a
# rule is bound to a map: two for each of pbem's 64 rules, 0.14 s of the 0.16 s `create_app`
# took. A server makes its app once; the tests make one a test, about 1,500 a run (200 s of a
# 2-core run's time). The function depends on the rule's text and parts alone (it reaches the
# converters through the rule it is bound to, when called), so the tests keep each one werkzeug
# made and give it to the next rule of the same text: pbem's own code is unchanged, and where
# werkzeug no longer has the method, nothing is kept.

def _keep_url_builders() -> None:
    from werkzeug.routing.rules import Rule
    make = getattr(Rule, "_compile_builder", None)
    if make is None:
        return
    made: dict = {}

    def compile_builder(self, append_unknown: bool = True):
        key = (self.rule, self.subdomain, self.host, self.map.host_matching,
               self.merge_slashes, tuple(self._trace), repr(sorted((self.defaults or {}).items())),
               append_unknown)
        builder = made.get(key)
        if builder is None:
            builder = made[key] = make(self, append_unknown)
        return builder

    Rule._compile_builder = compile_builder


_keep_url_builders()


# -- the app -----------------------------------------------------------------------------------------

@pytest.fixture
def duel():
    register(toygame.rules)
    yield toygame.rules
    RULES.pop(toygame.rules.name, None)


def make_app(database_url, smtp_port, **extra):
    from pbem.db import database
    from pbem.app import create_app
    from pbem.db.models import db

    config = {"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-" + uuid.uuid4().hex,
              "BASE_URL": "http://pbem.test", "MAIL_SERVER": "127.0.0.1", "MAIL_PORT": smtp_port,
              "MAIL_SENDER": "pbem <pbem@pbem.test>", "MAIL_TIMEOUT": 5}
    config.update(extra)
    path = database_url[len("sqlite:///"):] if database_url.startswith("sqlite:///") else None
    if path and path != ":memory:" and not Path(path).exists():
        fresh_sqlite(path)                 # a new file starts from the template: no migrating
    app = create_app(config)
    with app.app_context():
        db.connect(reuse_if_open=True)
        database.upgrade()
    return app


@pytest.fixture
def app(database_url, smtp, duel):
    from pbem.db.models import db
    app = make_app(database_url, smtp.port)
    ctx = app.app_context()
    ctx.push()
    yield app
    ctx.pop()
    if not db.is_closed():
        db.close()
    if hasattr(db.obj, "close_all"):
        db.obj.close_all()


@pytest.fixture
def client(app):
    return app.test_client()


def a_move(rules, actions: list[dict], rng) -> dict:
    """A random legal move of a player who wants the game to move on: drawn by the game's own
    playout weights (its computer player's heuristic: placing a card is likelier than moving a
    leader about), standing answers left alone. A card game played so ends in about 300 actions
    instead of 2,000 uniformly random ones."""
    from pbem.bots import heuristic_for
    from pbem.bots.search import weighted_index
    moves = [a for a in actions if a["type"] != "standing"] or actions
    return moves[weighted_index(heuristic_for(rules).weights, rng, moves)]


def play_at_random(game, moves, rng, check=None, pick=None):
    """Up to `moves` random legal actions through the store (any seat that is to act);
    `check(rules, state, seat, actions, waiting)`, if given, sees each choice before it;
    `pick(rules, actions, rng)` chooses (`a_move`: as a player who wants the game to end;
    by default uniformly)."""
    from pbem.log import store
    rules = store.rules_of(game)
    for _ in range(moves):
        game = store.get_game(game.id)
        state = store.state_of(game)
        waiting = rules.to_act(state)
        if not waiting:
            break
        seat = rng.choice(waiting)
        actions = rules.legal_actions(state, seat)
        if check is not None:
            check(rules, state, seat, actions, waiting)
        action = pick(rules, actions, rng) if pick is not None else rng.choice(actions)
        playing.act(game.id, seat, action, game.seq)
    return store.get_game(game.id)


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


@pytest.fixture
def app_with(database_url, duel):
    """Build an app with other settings (another SMTP port, a short link age...)."""
    from pbem.db.models import db
    contexts = []

    def build(smtp_port, **extra):
        app = make_app(database_url, smtp_port, **extra)
        ctx = app.app_context()
        ctx.push()
        contexts.append(ctx)
        return app

    yield build
    for ctx in reversed(contexts):
        ctx.pop()
    if not db.is_closed():
        db.close()
    if hasattr(db.obj, "close_all"):
        db.obj.close_all()


# -- markers ----------------------------------------------------------------------------------------
# `make quick` runs what carries none of e2e, slow, services and install. The folder says e2e
# and install; a test on PostgreSQL is a services test by its parameter; the rest say it where
# they are (a test over 10 s carries `slow`, one on SpamAssassin or Dovecot `services`).
TESTS = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    for item in items:
        folder = Path(str(item.fspath)).resolve().relative_to(TESTS).parts[0]
        if folder == "e2e":
            item.add_marker(pytest.mark.e2e)
        elif folder == "install":
            item.add_marker(pytest.mark.install)
        callspec = getattr(item, "callspec", None)
        if ((callspec is not None and "postgresql" in callspec.params.values())
                or "dovecot" in getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.services)
    # The longest tests first (slow, install: 10 to 60 s each): run last, one of them kept a
    # worker busy after the other had finished everything else. xdist hands each worker a run
    # of the list and the idle one takes from the end of the busy one's: the short tests left
    # at the end even the two out.
    items.sort(key=lambda item: not (item.get_closest_marker("slow")
                                     or item.get_closest_marker("install")))


def set_link_ages(app, **ages) -> None:
    """Change a running app's links' ages (`link_max_age=-1`: every turn link is too old now):
    the keys object the app factory made (pbem/play/keys.py) holds them."""
    from dataclasses import replace

    from pbem.play import keys
    app.extensions[keys.EXTENSION] = replace(app.extensions[keys.EXTENSION], **ages)
