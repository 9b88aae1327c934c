"""Pages that cannot have changed are answered 304 without being rendered: a finished game's
page and the spectators' replay steps carry a weak ETag and `no-cache`; anything that changes
them (a move, the reader's language) changes the tag. A seat's turn page and its JSON twin are
tagged too (`private`: never in a shared cache) and kept rendered in the worker: never one
seat's answer to another, never a stale one after a move, a message or a setting. A running
game's public page (its clocks move with time) stays `no-store` and untagged."""
from __future__ import annotations

import datetime as dt
import random

from flask import template_rendered

import pytest

from pbem.db.models import Game, PlayerSettings
from pbem.log import store
from pbem.play import creation, links, talk
from tests.conftest import a_move, play_at_random

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]


class Renders:
    def __init__(self, app):
        self.app, self.count = app, 0

    def __enter__(self):
        template_rendered.connect(self.seen, self.app)
        return self

    def seen(self, sender, template, context, **extra):
        self.count += 1

    def __exit__(self, *exc):
        template_rendered.disconnect(self.seen, self.app)


def test_a_finished_games_page_is_answered_304_without_a_render(app, client):
    game, _ = creation.create_game("assyria", PLAYERS, seed=3)
    play_at_random(game, 5_000, random.Random(3), pick=a_move)
    first = client.get(f"/games/{game.id}")
    etag = first.headers["ETag"]
    assert first.status_code == 200 and etag.startswith('W/"')
    assert first.headers["Cache-Control"] == "no-cache"
    with Renders(app) as renders:
        again = client.get(f"/games/{game.id}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and renders.count == 0
    assert again.headers["ETag"] == etag
    magyar = client.get(f"/games/{game.id}?lang=hu", headers={"If-None-Match": etag})
    assert magyar.status_code == 200 and magyar.headers["ETag"] != etag


def test_a_replay_step_is_tagged_and_a_move_changes_the_tag(app, client):
    game, _ = creation.create_game("tigris", PLAYERS, seed=3)
    game = play_at_random(game, 3, random.Random(1))
    url = f"/games/{game.id}/replay?step=2"
    first = client.get(url)
    etag = first.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    other_step = client.get(f"/games/{game.id}/replay?step=1", headers={"If-None-Match": etag})
    assert other_step.status_code == 200
    play_at_random(game, 1, random.Random(2))
    moved = client.get(url, headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag


def test_a_running_games_page_is_never_kept(app, client):
    game, _ = creation.create_game("tigris", PLAYERS, seed=3)
    page = client.get(f"/games/{game.id}")
    assert page.status_code == 200 and "ETag" not in page.headers
    assert page.headers["Cache-Control"] == "no-store"


@pytest.fixture
def still(monkeypatch):
    """The minute the validator names held still (else a test crossing it sees a new tag)."""
    from pbem.present import freshness
    moment = freshness.utcnow()
    monkeypatch.setattr(freshness, "utcnow", lambda: moment)


def seat_links(app, game):
    return [links.issue(app.config["SECRET_KEY"], store.get_game(game.id), seat, 3600)
            for seat in range(game.players)]


@pytest.mark.parametrize("prefix", ["/turn/", "/api/turn/"])
def test_a_turn_read_again_is_not_rendered_again_and_never_anothers(app, client, prefix, still):
    game, _ = creation.create_game("tigris_cards", PLAYERS, seed=3)
    ann, bob = seat_links(app, game)
    first = client.get(prefix + ann)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and etag.startswith('W/"')
    assert first.headers["Cache-Control"] == "private, no-cache"
    with Renders(app) as renders:
        again = client.get(prefix + ann)
        unchanged = client.get(prefix + ann, headers={"If-None-Match": etag,
                                                      "Accept-Encoding": "gzip"})
    assert again.data == first.data and again.headers["ETag"] == etag
    assert unchanged.status_code == 304 and unchanged.data == b""
    assert renders.count == 0
    other = client.get(prefix + bob, headers={"If-None-Match": etag})
    assert other.status_code == 200 and other.headers["ETag"] != etag
    assert other.data != first.data             # Bob's hand, not Ann's
    assert client.get(prefix + ann).data == first.data


@pytest.mark.parametrize("change", ["move", "talk", "time zone", "language", "a minute",
                                    "another history"])
def test_whatever_a_turn_reads_changes_its_tag(app, client, change, still, monkeypatch):
    game, _ = creation.create_game("tigris", PLAYERS, seed=3)
    ann = seat_links(app, game)[0]
    etag = client.get(f"/turn/{ann}").headers["ETag"]
    query = ""
    if change == "move":
        rules = store.rules_of(game)
        seat = rules.to_act(store.state_of(store.get_game(game.id)))[0]
        token = seat_links(app, game)[seat]
        turn = client.get(f"/api/turn/{token}").get_json()
        assert client.post(f"/api/turn/{token}", json={
            "seq": turn["seq"], "action": turn["actions"][0]}).status_code == 200
        ann = seat_links(app, game)[0] if seat == 0 else ann
    elif change == "talk":
        talk.post(game.id, 1, "hello")
    elif change == "another history":   # a restore: the same seq, reached by another chain
        Game.update(head_hash="0" * 64).where(Game.id == game.id).execute()
    elif change == "time zone":
        PlayerSettings.create(email="ann@example.org", time_zone="Europe/Budapest")
    elif change == "a minute":            # the clocks say how long a seat has waited
        from pbem.present import freshness
        later = freshness.utcnow() + dt.timedelta(minutes=1)
        monkeypatch.setattr(freshness, "utcnow", lambda: later)
    else:
        query = "?lang=hu"
    after = client.get(f"/turn/{ann}{query}", headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.headers["ETag"] != etag
    if change != "a minute":
        assert client.get(f"/turn/{ann}{query}").headers["ETag"] == after.headers["ETag"]
