"""Light turn pages: every game's turn page stays under 64 KB at the opening and later on; every
legal action has words without being played through; without JavaScript, hundreds of moves are
chosen in two short steps (what, then where) and played by their taps. (Speed itself is measured
by `make bench`, never timed here.)"""
from __future__ import annotations

import html
import random
import re

import pytest

from pbem.play import creation
from pbem.play import links
from pbem import present
from pbem.log import store
from pbem.games import RULES
from pbem.db.models import Event
from tests.conftest import play_at_random
from tests.conftest import on_sqlite

database_url = on_sqlite     # pages, not storage: SQLite alone

LIMIT = 64 * 1024
GAMES = ("tigris", "tigris_cards", "assyria")
PICK = re.compile(r'<a href="\?pick=([^"#]+)#actions"')
OPTION = re.compile(r'<option value="([^"]*)">([^<]*)</option>')
SEQ = re.compile(r'name="seq" value="(\d+)"')


def players(n):
    return [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(n)]


def turn_path(app, game) -> tuple[str, int]:
    seat = store.rules_of(game).to_act(store.state_of(game))[0]
    return f"/turn/{links.issue(app.config['SECRET_KEY'], game, seat, 3600)}", seat


@pytest.mark.parametrize("rules_name", GAMES)
def test_every_turn_page_stays_under_64_kb(app, client, rules_name):
    rng = random.Random(rules_name)
    for count in (2, 4):
        game, _ = creation.create_game(rules_name, players(count), seed=rng.randrange(10**6))
        for moves in (0, 30, 30):
            game = play_at_random(game, moves, rng)
            if game.status != "running":
                break
            path, _seat = turn_path(app, game)
            page = client.get(path)
            assert page.status_code == 200
            assert len(page.data) <= LIMIT, (rules_name, count, game.seq, len(page.data))


def test_the_tigris_opening_is_light_though_it_has_hundreds_of_moves(app, client):
    game, _ = creation.create_game("tigris", players(4), seed=5)
    path, seat = turn_path(app, game)
    assert len(RULES["tigris"].legal_actions(store.state_of(game), seat)) > 300
    text = client.get(path).get_data(as_text=True)
    assert len(text) <= LIMIT
    assert "<option" not in text             # no list of every move: first what, then where
    assert text.count('data-tap="sq:') + text.count('class="tg-own"') == 16 * 11


def test_without_javascript_a_move_is_two_short_steps_and_is_recorded(app, client):
    game, _ = creation.create_game("tigris", players(3), seed=8)
    path, seat = turn_path(app, game)
    first = client.get(path).get_data(as_text=True)
    picks = [html.unescape(p) for p in PICK.findall(first)]
    assert "hand%3Ared" in picks or "hand%3Ablack" in picks, picks
    assert 3 <= len(picks) <= 20
    pick = next(p for p in picks if p.startswith("hand%3A"))
    second = client.get(f"{path}?pick={pick}").get_data(as_text=True)
    options = OPTION.findall(second)
    assert 1 < len(options) < 200                       # the places of that piece only
    colour = pick.split("%3A")[1]
    assert all(value.startswith(f"hand:{colour} sq:") for value, _ in options)
    assert all(words.startswith("Place a ") for _, words in options)
    taps, words = options[len(options) // 2]
    answer = client.post(path, data={"seq": SEQ.search(second).group(1), "taps": taps})
    assert answer.status_code == 303
    event = Event.get(Event.game == game, Event.seq == 1)
    row, col = (int(n) for n in taps.split("sq:")[1].split("-"))
    assert event.seat == seat and event.action == {"type": "place_tile", "colour": colour,
                                                    "at": [row, col]}
    assert words.endswith(" " + "ABCDEFGHIJKLMNOP"[col] + str(row + 1))


def test_a_bad_pick_or_taps_are_refused_without_a_write(app, client):
    game, _ = creation.create_game("tigris", players(2), seed=8)
    path, _seat = turn_path(app, game)
    answer = client.get(f"{path}?pick=hand:purple")
    assert answer.status_code == 400 and b"cannot be chosen now" in answer.data
    for taps, status in (("", 400), ("x " * 600, 400), ("hand:red sq:99-99", 422),
                         ("hand:red", 422)):
        answer = client.post(path, data={"seq": "0", "taps": taps})
        assert answer.status_code == status, (taps, answer.status_code)
    assert store.get_game(game.id).seq == 0


def test_the_confirm_bar_asks_what_a_move_sets_off(app, client):
    game, _ = creation.create_game("tigris", players(2), seed=2)
    path, _seat = turn_path(app, game)
    said = client.get(f"{path}/says?taps=leader:king+sq:6-7").get_json()
    assert said == {"label": "Place your king on H7", "says": "P0 placed their king on H7."}
    assert client.get(f"{path}/says?taps=hand:red+sq:99-99").status_code == 404
    assert client.get(f"{path}/says?taps=").status_code == 400
    assert client.get(f"{path[:-3]}xyz/says?taps=swap").status_code == 403
    assert store.get_game(game.id).seq == 0


def labelled_positions(rules_name, seeds=range(3), moves=200, every=7):
    rules = RULES[rules_name]
    for seed in seeds:
        rng = random.Random(seed)
        state = rules.setup(2 + seed % 3, seed)
        for n in range(moves):
            waiting = rules.to_act(state)
            if not waiting:
                break
            actions = rules.legal_actions(state, waiting[0])
            if n % every == 0 or len(actions) < 12:
                yield rules, state, waiting[0], actions
            state = rules.apply(state, waiting[0], rng.choice(actions))


@pytest.mark.parametrize("rules_name", GAMES)
def test_every_legal_action_has_a_label(app, rules_name):
    """No action is left without words. Tigris words every action without playing it."""
    presenter = present.presenter_for(rules_name)
    with app.test_request_context("/"):
        for rules, state, seat, actions in labelled_positions(rules_name):
            view = rules.view(state, seat)
            choices = present.choices(presenter, actions, view,
                                      lambda a: rules.describe(state, seat, a))
            for choice in choices:
                assert choice.label.strip(), choice.action
                if rules_name == "tigris":
                    assert presenter.label(choice.action, view), choice.action
            words = [c.label for c in choices]
            assert len(set(words)) == len(words), words
