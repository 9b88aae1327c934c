"""The home page and the archive: each game with its players, who is to act or who won, and
how long it has waited, in words and plurals of either language."""
from __future__ import annotations

import datetime as dt
import random

from pbem.play import creation
from pbem.log import store
from pbem.db.models import Event, utcnow
from tests.conftest import play_at_random

PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}]


def age(game, **delta):
    """Make the game's last move `delta` old."""
    when = (utcnow() - dt.timedelta(**delta)).isoformat(timespec="microseconds")
    Event.update(created_at=when).where(Event.game == game, Event.seq == game.seq).execute()


def test_the_home_page_says_who_plays_whose_turn_and_how_long(client):
    game, _ = creation.create_game("tigris", PLAYERS, seed=1, title="Friday game")
    age(game, days=3, hours=2)
    page = client.get("/").get_data(as_text=True)
    assert "Friday game" in page and "Tigris &amp; Euphrates · Ann, Bob · move 0" in page
    assert "Waiting for Ann for 3 days" in page
    age(game, days=1)
    assert "Waiting for Ann for 1 day<" in client.get("/").get_data(as_text=True)
    hungarian = client.get("/?lang=hu").get_data(as_text=True)
    assert "1 nap" in hungarian and "Tigris és Eufrátesz" in hungarian


def test_the_archive_names_the_winner(client):
    game, _ = creation.create_game("duel", PLAYERS, seed=2)
    game = play_at_random(game, 50, random.Random(2))
    assert game.status == "over"
    result = store.rules_of(game).result(store.state_of(game))
    winners = [PLAYERS[s]["name"] for s in result["ranking"][0]]
    age(game, hours=5)
    page = client.get("/games").get_data(as_text=True)
    label = "Winner: " if len(winners) == 1 else "Winners: "
    assert label + ", ".join(winners) in page and "Ann, Bob" in page
    assert "(5 hours ago)" in page
