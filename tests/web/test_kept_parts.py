"""A board's key and symbols are rendered once per process and language (pbem/web/kept_parts.py):
each language gets its own, a seat's page its own (its leaders' gold ring) and a spectator's
its own, and an edited template is rendered again."""
from __future__ import annotations

import jinja2

from pbem.log import store
from pbem.play import creation, links
from pbem.web import kept_parts
from tests.conftest import on_sqlite

database_url = on_sqlite     # parts rendered once per process and language: SQLite alone

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]


def legend(page: str) -> str:
    start = page.index('<details class="tg-legend">')
    return page[start:page.index("</details>", start)]


def test_each_language_and_reader_gets_its_own_key(app, client):
    game, _ = creation.create_game("tigris", PLAYERS, seed=3)
    token = links.issue(app.config["SECRET_KEY"], store.get_game(game.id), 0, 3600)
    english = legend(client.get(f"/turn/{token}?lang=en").get_data(as_text=True))
    magyar = legend(client.get(f"/turn/{token}?lang=hu").get_data(as_text=True))
    spectator = legend(client.get(f"/games/{game.id}?lang=en").get_data(as_text=True))
    assert "Key to the board" in english and "yours have a gold ring" in english
    assert "Jelmagyarázat" in magyar and "a tieid arany keretesek" in magyar
    assert "Key to the board" in spectator and "gold ring" not in spectator


def test_an_edited_template_is_rendered_again(app):
    with app.test_request_context("/"):
        first = kept_parts.kept_part("games/tigris_cards/_symbols.html")
        assert kept_parts.kept_part("games/tigris_cards/_symbols.html") is first
        app.jinja_env.cache.clear()     # what the development server's reload does
        loader = app.jinja_env.loader
        app.jinja_env.loader = jinja2.ChoiceLoader([jinja2.DictLoader(
            {"games/tigris_cards/_symbols.html": "<defs>edited</defs>"}), loader])
        try:
            assert kept_parts.kept_part("games/tigris_cards/_symbols.html") == "<defs>edited</defs>"
        finally:
            app.jinja_env.loader = loader
            app.jinja_env.cache.clear()
