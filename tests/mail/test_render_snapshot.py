"""Mails rendered right after their use case commits are rendered even while another
connection writes (the dev server's mail worker, a second gunicorn worker): rendering never
writes from inside a stale SQLite read snapshot, which fails at once with "database is locked"."""
from __future__ import annotations

import contextlib
import sqlite3

import pytest

from pbem.db.models import Outbox
from pbem.mail import compose
from pbem.play import creation

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_rows_render_while_another_connection_writes_between_them(app, database_url, monkeypatch,
                                                                   caplog):
    creation.create_game("duel", PLAYERS, seed=3)
    ids = [row.id for row in Outbox.select(Outbox.id)]
    assert len(ids) >= 2
    Outbox.update(rendered=False, body_text="", body_html="").execute()
    other = sqlite3.connect(database_url[len("sqlite:///"):], timeout=10)
    language = compose.in_language

    @contextlib.contextmanager
    def with_a_write_beside(code):
        # another process commits a write while this one renders
        other.execute("UPDATE game SET title = title || '.'")
        other.commit()
        with language(code):
            yield

    monkeypatch.setattr(compose, "in_language", with_a_write_beside)
    compose.render_ids(ids)
    other.close()
    assert "could not be rendered" not in caplog.text
    assert Outbox.select().where(Outbox.rendered == False).count() == 0  # noqa: E712
