"""The turn page of every game in RULES (plugins too: none is named here), in process through
the Flask client: each seat asked opens its link, sees the game's name, its own name and a
form; the move it posts from that form is played, and the page it lands on answers; the
game goes on so from link to link until its end or a bounded number of moves."""
from __future__ import annotations

import json
import random
import re
from html import escape

import pytest

from pbem.db.database import write_transaction
from pbem.db.models import Game
from pbem.games import RULES
from pbem.log import store
from pbem.play import links
from pbem.play import creation
from pbem.present.titles import game_name
from tests.support.games import GAMES
from tests.conftest import on_sqlite

database_url = on_sqlite     # pages, not storage: SQLite alone

PLAYERS = [{"name": n, "email": f"{n.lower()}@example.org"} for n in ("Ann", "Bob", "Cy")]
MOVES = 40              # moves posted from the turn pages, at most, a game
SEQ = re.compile(r'name="seq" value="(\d+)"')


@pytest.mark.parametrize("name", GAMES)
def test_every_seat_asked_plays_from_its_turn_page(app, client, name):
    rules = RULES[name]
    players = max(rules.min_players, min(3, rules.max_players))
    game, _ = creation.create_game(name, PLAYERS[:players], seed=4)
    rng, posted = random.Random(4), 0
    while posted < MOVES:
        game = Game.get_by_id(game.id)
        state = store.state_of(game)
        waiting = rules.to_act(state)
        if not waiting:
            break
        seat = rng.choice(waiting)
        with write_transaction():
            token = links.issue(app.config["SECRET_KEY"], game, seat, 3600)
        page = client.get(f"/turn/{token}")
        text = page.get_data(as_text=True)
        assert page.status_code == 200, text[-2000:]
        assert escape(game_name(name)) in text and PLAYERS[seat]["name"] in text
        assert SEQ.search(text).group(1) == str(game.seq), "the form carries the move number"
        action = rng.choice(rules.legal_actions(state, seat))
        answer = client.post(f"/turn/{token}",
                             data={"seq": str(game.seq), "action": json.dumps(action)})
        assert answer.status_code == 303, answer.get_data(as_text=True)[-2000:]
        assert Game.get_by_id(game.id).seq > game.seq, "the posted move was not played"
        landed = client.get(answer.headers["Location"])
        assert landed.status_code == 200 and "Traceback" not in landed.get_data(as_text=True)
        posted += 1
    assert posted >= min(MOVES, 2)
    assert store.verify(Game.get_by_id(game.id)) == []
