"""The card game's pages: every legal action can be chosen by tapping what the page shows.

Random games are played through the store; at each decision the seat's turn page is rendered
and each legal action's taps must all be `data-tap` tokens on that page, no two actions share
their taps, and the actions without taps are buttons. Spectator pages and the email picture
render from the same positions.
"""
from __future__ import annotations

import html
import random
import re

import pytest
from flask import render_template

from pbem.play import moves as playing
from pbem.play import creation
from pbem.play import links
from pbem.mail import context
from pbem.log import store
from pbem.games import RULES
from pbem.games.base import current_language, set_language
from pbem.present import action_key
from pbem.present import presenter_for

from .helpers import position
from tests.conftest import on_sqlite

database_url = on_sqlite     # pages, not storage: SQLite alone

TAP = re.compile(r'data-tap="([^"]+)"')
CHOICE = re.compile(r'data-choice="([^"]+)"')
RULES_NAME = "tigris_cards"


@pytest.fixture(autouse=True)
def keep_the_language():
    """A page request sets the engines' language in this thread: the engine tests that run
    after these expect English again."""
    language = current_language()
    yield
    set_language(language)


def players(n):
    return [{"name": f"P{i}", "email": f"p{i}@example.org"} for i in range(n)]


def turn_page(client, app, game, seat) -> str:
    token = links.issue(app.config["SECRET_KEY"], game, seat, 3600)
    answer = client.get(f"/turn/{token}")
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def check_page(page: str, actions: list[dict], view: dict) -> None:
    presenter = presenter_for(RULES_NAME)
    tokens = set(TAP.findall(page))
    buttons = {html.unescape(key) for key in CHOICE.findall(page)}
    seen = {}
    for action in actions:
        taps = presenter.taps(action, view)
        if not taps:
            assert action_key(action) in buttons, f"no button for {action}"
            continue
        missing = [t for t in taps if t not in tokens]
        assert not missing, f"{action}: taps {missing} are not on the page"
        assert tuple(taps) not in seen, f"{action} and {seen.get(tuple(taps))} share {taps}"
        seen[tuple(taps)] = action


def play_and_check(app, client, count: int, seed: int, moves: int, every: int) -> set:
    rng = random.Random(seed)
    rules = RULES[RULES_NAME]
    game, _ = creation.create_game(RULES_NAME, players(count), seed=rng.randrange(10**9))
    kinds = set()
    for step in range(moves):
        game = store.get_game(game.id)
        state = store.state_of(game)
        waiting = rules.to_act(state)
        if not waiting:
            break
        seat = waiting[0]
        actions = rules.legal_actions(state, seat)
        decision = state["pending"]["kind"]
        if step % every == 0 or decision != "action":
            kinds.add(decision)
            check_page(turn_page(client, app, game, seat), actions, rules.view(state, seat))
        # lean towards the actions that build the table, so conflicts and ships happen
        busy = [a for a in actions if a["type"] in ("card", "leader")]
        action = rng.choice(busy if busy and rng.random() < 0.85 else actions)
        playing.act(game.id, seat, action, game.seq)
    return kinds


@pytest.mark.parametrize("count,seed", [(2, 1), (3, 2), (4, 3)])
def test_every_legal_action_is_on_the_page(app, client, count, seed):
    kinds = play_and_check(app, client, count, seed, moves=150, every=5)
    assert {"action", "score"} <= kinds


def test_taps_are_distinct_in_many_positions_without_pages():
    """Many more positions through the presenter alone (no pages): distinct, non-empty taps
    for every action that is drawn on the table or in the hand."""
    rules, presenter = RULES[RULES_NAME], presenter_for(RULES_NAME)
    for seed in range(6):
        rng = random.Random(seed)
        state = rules.setup(2 + seed % 3, seed)
        for _ in range(400):
            waiting = rules.to_act(state)
            if not waiting:
                break
            actions = rules.legal_actions(state, waiting[0])
            view = rules.view(state, waiting[0])
            taps = [tuple(presenter.taps(a, view)) for a in actions]
            tapped = [t for t in taps if t]
            assert len(tapped) == len(set(tapped))
            for action, tap in zip(actions, taps):
                if action["type"] in ("card", "leader", "catastrophe", "standing"):
                    assert tap, action
            state = rules.apply(state, waiting[0], rng.choice(actions))


def test_spectator_page_and_email_picture(app, client):
    rng = random.Random(5)
    rules = RULES[RULES_NAME]
    game, _ = creation.create_game(RULES_NAME, players(3), seed=77)
    for _ in range(60):
        game = store.get_game(game.id)
        state = store.state_of(game)
        seat = rules.to_act(state)[0]
        playing.act(game.id, seat, rng.choice(rules.legal_actions(state, seat)), game.seq)
    game = store.get_game(game.id)
    state = store.state_of(game)
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert 'class="tc-board"' in page and "Your hand" not in page
    presenter = presenter_for(RULES_NAME)
    with app.test_request_context():
        picture = render_template(presenter.email_template, view=rules.view(state, 1),
                                  names=store.names_of(game), presenter=presenter)
    assert "<table" in picture and "<svg" not in picture and "<img" not in picture
    assert max(len(line) for line in picture.splitlines()) < 500   # SMTP refuses long lines
    assert "P0" in picture
    with app.test_request_context():                    # the hand goes with it, as plain lines
        lines = context.holdings_lines(presenter, view=rules.view(state, 1), seat=1,
                                      names=store.names_of(game))
    assert lines[0].startswith("Your hand: ") and "Your leaders: " in lines[1]



def test_the_turn_page_speaks_hungarian(app, client):
    game, _ = creation.create_game(RULES_NAME, players(2), seed=3)
    start = store.state_of(game)["active"]            # the start player is drawn from the seed
    token = links.issue(app.config["SECRET_KEY"], game, start, 3600)
    page = client.get(f"/turn/{token}?lang=hu").get_data(as_text=True)
    for words in ("Te következel: 1. akció a kettőből", "A kezedben", "Vezéreid", "katasztrófa",
                  "Húzópakli", "Előre megadott válaszok", "kérdezz meg"):
        assert words in page
    for words in ("Your hand", "Your leaders", "Deck:", "Standing answers", "ask me"):
        assert words not in page


def labels_by_position(app, language: str) -> list[list[tuple[dict, str, bool]]]:
    """Per position: (action, label, is a button) for every legal action, in `language`."""
    rules, presenter = RULES[RULES_NAME], presenter_for(RULES_NAME)
    out = []
    with app.test_request_context(f"/?lang={language}"):
        app.preprocess_request()                 # the engine's words speak the language too
        for seed in range(6):
            rng = random.Random(seed)
            state = rules.setup(2 + seed % 3, seed)
            for _ in range(300):
                waiting = rules.to_act(state)
                if not waiting:
                    break
                actions = rules.legal_actions(state, waiting[0])
                view = rules.view(state, waiting[0])
                out.append([(a, presenter.label(a, view), not presenter.taps(a, view))
                            for a in actions])
                busy = [a for a in actions if a["type"] in ("card", "leader")]
                state = rules.apply(state, waiting[0],
                                    rng.choice(busy if busy and rng.random() < 0.85 else actions))
        # two external conflicts at once are rare in random play: the order, from a drawing
        state = rules.apply(position("""
            T@0r b T@1g - T@2g g T@3r - T - T - T - T
            r      r      r      r      . . . .
            b      b      b      b      . . . .
            k      k      k      k      . . . .
        """, hands={3: "kk", 1: "gg"}, active=3), 3, {"type": "card", "colour": "black", "gap": 1})
        view = rules.view(state, 3)
        out.append([(a, presenter.label(a, view), not presenter.taps(a, view))
                    for a in rules.legal_actions(state, 3)])
    return out


def test_labels_are_instructions_and_exist_in_hungarian(app):
    english, hungarian = labels_by_position(app, "en"), labels_by_position(app, "hu")
    buttons = set()
    for page_en, page_hu in zip(english, hungarian):
        for (action, en, button), (_, hu, _) in zip(page_en, page_hu):
            assert en and hu, action                     # never the log line's fallback
            assert not en.endswith(".") and not hu.endswith("."), (en, hu)
            assert "{p" not in en and "{p" not in hu and not re.match(r"P\d", en), en
            assert en != hu, en
            if button:
                buttons.add(action["type"])
        for page in (page_en, page_hu):
            labels = [label for _, label, _ in page]
            assert len(set(labels)) == len(labels), labels
    assert {"pass", "score", "no_score", "commit", "conflict"} <= buttons, buttons
    flat = {label for page in english for _, label, _ in page}
    assert {"Pass this action", "Score a red point", "Commit 2 red cards",
            "Commit no red cards", "Place a red card in column 3"} <= flat


def test_buttons_on_the_hungarian_turn_page_are_instructions(app, client):
    game, _ = creation.create_game(RULES_NAME, players(2), seed=3)
    start = store.state_of(game)["active"]            # the start player is drawn from the seed
    token = links.issue(app.config["SECRET_KEY"], game, start, 3600)
    page = client.get(f"/turn/{token}?lang=hu").get_data(as_text=True)
    assert ">Passzold ezt az akciót</button>" in page
    assert "passzolt egy akciót" not in page
