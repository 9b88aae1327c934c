"""Assyria's turn pages: every legal action can be tapped, and a phone plays the first turn
(start hex, draft, farming column, huts, feeding) from the links in the emails."""
from __future__ import annotations

import random
import re

import pytest
from flask import render_template

from pbem.games.assyria import rules
from pbem.games.base import speaking
from pbem.web.present import choices as make_choices, presenter_for

TAP = re.compile(r'data-tap="([^"]+)"')
PAGES = ("board_template", "public_template", "holdings_template")


def rendered(app, view, seat, choices, language="en"):
    """The game's part of the turn page: board, public facts and holdings."""
    presenter = presenter_for("assyria")
    names = [f"P{i}" for i in range(view["players"])]
    with app.test_request_context(f"/?lang={language}"), speaking(language):
        return "".join(render_template(getattr(presenter, part), view=view, seat=seat,
                                       choices=choices, names=names, presenter=presenter,
                                       payload={}, game=None)
                       for part in PAGES)


def positions(players, seed, every=1):
    """(state, seat) of a random game to its end, every `every`-th decision."""
    state = rules.setup(players, seed)
    rng = random.Random(seed)
    step = 0
    while rules.to_act(state):
        seat = rules.to_act(state)[0]
        if step % every == 0:
            yield state, seat
        state = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
        step += 1
    yield state, None


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (4, 8)])
def test_every_legal_action_has_its_own_taps_on_the_page(app, players, seed):
    presenter = presenter_for("assyria")
    kinds = set()
    for state, seat in positions(players, seed, every=2):
        if seat is None:
            break
        view = rules.view(state, seat)
        actions = rules.legal_actions(state, seat)
        choices = make_choices(presenter, actions, view, lambda a: a["type"])
        page = set(TAP.findall(rendered(app, view, seat, choices)))
        taps = [tuple(c["taps"]) for c in choices]
        assert len(set(taps)) == len(taps), f"two actions share their taps: {actions}"
        for action, tap in zip(actions, taps):
            kinds.add(action["type"])
            if action["type"] in ("end_wells", "end_actions"):
                assert tap == (), action
                continue
            assert tap, f"{action} would be a button"
            missing = [t for t in tap if t not in page]
            assert not missing, f"{action}: {missing} are not on the page"
    assert {"start", "draft", "column", "hut", "feed", "end_actions"} <= kinds


def test_spectators_and_finished_games_render_without_choices(app):
    for state, seat in positions(3, 5, every=40):
        for language in ("en", "hu"):
            html = rendered(app, rules.view(state, None), None, [], language)
            assert "<svg" in html and "tappable" not in html


def test_the_page_speaks_hungarian(app):
    state = rules.setup(2, 3)
    seat = state["active"]
    view = rules.view(state, seat)
    with speaking("hu"):
        view = rules.view(state, seat)
    html = rendered(app, view, seat, [], "hu")
    assert "Legmagasabb méltóság" in html and "kunyhó" in html.lower()
    assert "zikkurat" in view["prompt"].lower() or "ziggurat" in view["prompt"].lower()
