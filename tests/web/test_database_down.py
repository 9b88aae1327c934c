"""While the database cannot be used the web answers 503 with Retry-After (a short page, or
JSON under /api), never 500, and serves again once it is back: PostgreSQL behind a link that
is cut after the app started, an SQLite file whose volume is gone."""
from __future__ import annotations

import socket
import threading
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from pbem.db.models import db
from tests.conftest import make_app


class Link:
    """A TCP relay between the app and PostgreSQL that can be cut (every connection through it
    closed, and new ones refused) and mended on the same port."""

    def __init__(self, target: tuple[str, int]):
        self.target = target
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.sockets: list[socket.socket] = []
        self.listener = None

    def mend(self):
        self.listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def cut(self):
        self.listener.shutdown(socket.SHUT_RDWR)    # wakes the accept() waiting on it
        self.listener.close()
        for sock in self.sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()
        self.sockets.clear()

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            self.sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass


def is_unavailable(answer, api=False):
    assert answer.status_code == 503, answer.get_data(as_text=True)[:500]
    assert answer.headers["Retry-After"] == "30"
    if api:
        assert "cannot reach its database" in answer.json["error"]
    else:
        assert "cannot reach its database" in answer.get_data(as_text=True)
    return True


def serves(client):
    return client.get("/games").status_code == 200       # the archive: a query


def test_the_web_answers_503_while_the_database_is_down_and_serves_once_back(app, database_url,
                                                                             smtp, tmp_path):
    if database_url.startswith("postgresql"):
        parts = urlsplit(database_url)
        link = Link((parts.hostname, parts.port or 5432))
        link.mend()
        netloc = parts.netloc.rsplit("@", 1)
        url = urlunsplit(parts._replace(netloc=f"{netloc[0]}@127.0.0.1:{link.port}"))
        down, back = link.cut, link.mend
    else:
        url = database_url
        path = Path(url[len("sqlite:///"):])
        aside = path.with_name("aside")

        def down():                 # the file's volume is gone: a folder stands in its place
            for suffix in ("", "-wal", "-shm"):
                if Path(f"{path}{suffix}").exists():
                    Path(f"{path}{suffix}").rename(f"{aside}{suffix}")
            path.mkdir()

        def back():
            path.rmdir()
            for suffix in ("", "-wal", "-shm"):
                if Path(f"{aside}{suffix}").exists():
                    Path(f"{aside}{suffix}").rename(f"{path}{suffix}")
    web = make_app(url, smtp.port)
    client = web.test_client()
    try:
        assert serves(client)
        db.close()                  # this test's own connection, not the app's, holds nothing
        down()
        assert is_unavailable(client.get("/games"))
        assert is_unavailable(client.get("/api/turn/some-token"), api=True)
        assert is_unavailable(client.get("/games"))     # again: nothing broken is kept
        assert client.get("/health").status_code == 503
        back()
        assert serves(client)
    finally:
        if hasattr(db.obj, "close_all"):
            db.obj.close_all()
