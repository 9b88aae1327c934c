"""The host's form to create a game, and the public pages."""
from __future__ import annotations

from pbem.play import creation
from pbem.mail import mailer
from pbem.log import store
from pbem.db.models import Game
from tests.conftest import on_sqlite

database_url = on_sqlite     # what the public pages and the form show, not storage: SQLite alone


def test_new_game_form_creates_the_game_and_mails_the_players(client, smtp):
    form = {"rules": "duel", "name0": "Ann", "email0": "ann@example.org", "name1": "Bob",
            "email1": "bob@example.org", "language1": "hu", "option_rounds": "3",
            "host_email": "host@example.org"}
    answer = client.post("/new", data=form)
    assert answer.status_code == 303 and "/host/" in answer.headers["Location"]
    game = Game.get()
    assert game.options == {"rounds": 3, "open_hands": False}
    assert [s.language for s in game.seats] == ["en", "hu"]
    assert mailer.send_due()["sent"] == 4


def test_new_game_form_says_what_is_wrong(client):
    cases = [({"name0": "Ann", "email0": "ann@example.org"}, "Choose a game"),
             ({"rules": "duel", "name0": "Ann", "email0": "not-an-address"}, "valid email"),
             ({"rules": "duel", "name0": "Ann", "email0": "ann@example.org"},
              "takes at least 2 players: fill 1 more seat"),
             ({"rules": "duel", "name0": "A", "email0": "a@x.org", "name1": "B", "email1": "b@x.org",
               "option_rounds": "lots"}, "whole number")]
    for form, words in cases:
        answer = client.post("/new", data=form)
        assert answer.status_code == 400 and words in answer.get_data(as_text=True), words
    assert Game.select().count() == 0


def test_spectator_page_shows_no_hand(client):
    game, _ = creation.create_game("duel", [{"name": "Ann", "email": "a@x.org"},
                                         {"name": "Bob", "email": "b@x.org"}], seed=2)
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    state = store.state_of(game)
    assert "Ann" in page and "hand_sizes" in page
    assert str(state["hands"]) not in page
    assert client.get("/games/999").status_code == 404
    assert client.get("/games").status_code == 200


def test_pages_and_json_go_compressed_to_a_client_that_asks(client, smtp):
    import gzip
    game, _ = creation.create_game("tigris", [{"name": "Ann", "email": "a@x.org"},
                                              {"name": "Bob", "email": "b@x.org"}], seed=2)
    for path in (f"/games/{game.id}", "/new", "/"):
        plain = client.get(path)
        packed = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert plain.status_code == packed.status_code == 200, path
        assert "Content-Encoding" not in plain.headers
        if len(plain.get_data()) >= 1024:
            assert packed.headers["Content-Encoding"] == "gzip", path
            assert "Accept-Encoding" in packed.headers["Vary"]
            assert gzip.decompress(packed.get_data()) == plain.get_data(), path
            assert len(packed.get_data()) < len(plain.get_data()) / 2
