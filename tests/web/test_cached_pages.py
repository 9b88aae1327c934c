"""Public pages that cannot have changed are answered 304 without being rendered: a finished
game's page and the spectators' replay steps carry a weak ETag and `no-cache`; anything that
changes them (a move, the reader's language) changes the tag. Pages with a seat's holdings and
a running game's page (its clocks move with time) stay `no-store` and untagged."""
from __future__ import annotations

import random

from flask import template_rendered

from pbem.play import creation
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


def test_a_running_games_page_and_a_turn_page_are_never_kept(app, client):
    game, _ = creation.create_game("tigris", PLAYERS, seed=3)
    page = client.get(f"/games/{game.id}")
    assert page.status_code == 200 and "ETag" not in page.headers
    assert page.headers["Cache-Control"] == "no-store"
    from pbem.play import links
    turn = client.get(f"/turn/{links.issue(app.config['SECRET_KEY'], game, 0, 3600)}")
    assert turn.status_code == 200 and "ETag" not in turn.headers
    assert turn.headers["Cache-Control"] == "no-store"
