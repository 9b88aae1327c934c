"""Shared fixtures: a real SMTP server, a database per test (SQLite, and PostgreSQL where
PBEM_TEST_DATABASE_URL names one), and an app with the Duel test game registered."""
from __future__ import annotations

import os
import re
import socket
import threading
import uuid
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

def _database_urls():
    urls = ["sqlite"]
    if PG_URL:
        urls.append("postgresql")
    return urls


def reset_postgresql(url: str) -> None:
    """An empty database: every table of every migration goes, whatever its name."""
    import psycopg2
    connection = psycopg2.connect(url)
    connection.autocommit = True
    with connection.cursor() as cursor:
        cursor.execute("DROP SCHEMA IF EXISTS public CASCADE")   # a reset cut short left none
        cursor.execute("CREATE SCHEMA public")
    connection.close()


def worker_database(url: str) -> str:
    """Under pytest-xdist each worker gets a PostgreSQL database of its own."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return url
    import psycopg2
    base, name = url.rsplit("/", 1)
    name = f"{name}_{worker}"          # two checkouts testing at once name different bases
    connection = psycopg2.connect(url)
    connection.autocommit = True
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,))
        if cursor.fetchone() is None:
            cursor.execute(f'CREATE DATABASE "{name}"')
    connection.close()
    return base + "/" + name


@pytest.fixture(params=_database_urls())
def database_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'pbem.db'}"
    url = worker_database(PG_URL)
    reset_postgresql(url)
    return url


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


def play_at_random(game, moves, rng):
    """Up to `moves` random legal actions through the store (any seat that is to act)."""
    from pbem.log import store
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
