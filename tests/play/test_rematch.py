"""A rematch: once a game is over anyone at its table asks, from any link they were sent (the
page or the JSON API); the same players, options and pace, a new seed, the seats shuffled, an
invitation to each; at most one rematch a game, whoever asks and however often."""
from __future__ import annotations

import random

import peewee
import pytest

from pbem.db.models import Game, Seat
from pbem.log import store
from pbem.mail import mailer
from pbem.play import creation
from pbem.play.keys import keys
from tests.conftest import a_move, play_at_random, token_of

PLAYERS = [{"name": "Ann", "email": "ann@example.org", "language": "hu"},
           {"name": "Bob", "email": "bob@example.org"}, {"computer": 2}]


def finished_game(smtp):
    game, _ = creation.create_game("assyria", PLAYERS, seed=4, host_email="ann@example.org",
                                   pace={"days": 2.0, "on_timeout": "auto", "drop_after": 2})
    mailer.send_due()
    tokens = [keys().issue(game, seat) for seat in (0, 1)]     # each seat's link, kept
    game = play_at_random(game, 20_000, random.Random(4), pick=a_move)
    assert game.status == "over"
    return game, tokens


def test_anyone_at_the_table_asks_once_and_everyone_is_invited(app, client, smtp):
    game, (ann, bob) = finished_game(smtp)
    before = len(smtp.inbox.messages)
    made = client.post(f"/api/turn/{bob}/rematch")
    assert made.status_code == 201 and made.get_json()["made"] is True
    new = store.get_game(made.get_json()["game"])
    assert new.rematch_of == game.id and new.id != game.id and new.seed != game.seed
    assert (new.rules, new.options, new.pace_days, new.on_timeout, new.drop_after) == \
        (game.rules, game.options, game.pace_days, game.on_timeout, game.drop_after)
    old_seats = [(s.name, s.email, s.language, s.bot_level) for s in store.seats_of(game)]
    new_seats = [(s.name, s.email, s.language, s.bot_level) for s in store.seats_of(new)]
    assert sorted(old_seats, key=str) == sorted(new_seats, key=str)
    mailer.send_due()
    invited = {m["To"] for m in smtp.inbox.messages[before:]}
    assert invited >= {"ann@example.org", "bob@example.org"}
    again = client.post(f"/api/turn/{ann}/rematch")
    assert again.status_code == 200 and again.get_json() == {"game": new.id, "made": False}
    page = client.post(f"/turn/{ann}/rematch")
    assert page.status_code == 303 and page.headers["Location"] == f"/games/{new.id}?rematch=1"
    assert 'id="rematch-made"' in client.get(page.headers["Location"]).get_data(as_text=True)
    assert f'href="/games/{new.id}"' in client.get(f"/turn/{ann}/done").get_data(as_text=True)
    assert Game.select().where(Game.rematch_of == game.id).count() == 1


def test_a_running_game_has_no_rematch_and_nothing_is_written(app, client, smtp):
    game, _ = creation.create_game("tigris", PLAYERS[:2], seed=4)
    mailer.send_due()
    token = token_of(smtp.inbox.last_link("ann@example.org") or
                     smtp.inbox.last_link("bob@example.org"))
    games = Game.select().count()
    refused = client.post(f"/api/turn/{token}/rematch")
    assert refused.status_code == 409
    assert refused.get_json()["error"] in ("A rematch can be asked for once the game is over.",
                                           "Visszavágót a játék vége után lehet kérni.")
    assert client.post(f"/turn/{token}/rematch").status_code == 409
    assert Game.select().count() == games and Seat.select().count() == 2
    assert client.post("/api/turn/forged.token/rematch").status_code == 403


def test_a_game_has_at_most_one_rematch_in_the_database(app, smtp):
    game, _ = finished_game(smtp)
    first, _ = creation.create_game("duel", PLAYERS[:2], seed=1)
    second, _ = creation.create_game("duel", PLAYERS[:2], seed=2)
    Game.update(rematch_of=game.id).where(Game.id == first.id).execute()
    with pytest.raises(peewee.IntegrityError):
        Game.update(rematch_of=game.id).where(Game.id == second.id).execute()
