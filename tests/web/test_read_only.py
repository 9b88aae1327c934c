"""No dead ends: a seat's read-only pages (where the game stands from any link it was
sent, one game seen from the player's home, the replay) show its holdings without a control
that looks tappable and does nothing there: no data-tap in the holdings, no tap buttons, and no
form but the ones that work (table talk, "Play now", the replay's own navigation)."""
from __future__ import annotations

import random
import re

import pytest

from pbem.play import creation
from pbem.play import home
from pbem.mail import mailer
from pbem.log import store
from tests.conftest import play_at_random, token_of

PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}]
GAMES = {"tigris": 12, "tigris_cards": 12, "assyria": 8}     # random moves before the pages
MAIN = re.compile(r"<main>(.*)</main>", re.S)
FORM = re.compile(r"<form\b[^>]*>.*?</form>", re.S)
WORKING_FORM = re.compile(r'<form method="get"|class="talk-form"|action="/me/[^"]+/play"')
HOLDINGS = re.compile(r'<section class="holdings".*?</section>\s*(?=<section class="talk"|'
                      r'<section class="holdings"|<section class="log")', re.S)


def action_controls(html: str) -> list[str]:
    """Every control on a read-only page that looks as if it acted and does not."""
    main = MAIN.search(html).group(1)
    forms = FORM.findall(main)
    found = [form[:120] for form in forms if not WORKING_FORM.search(form)]
    rest = FORM.sub("", main)
    found += re.findall(r"<button\b[^>]*>.{0,40}", rest)
    for section in HOLDINGS.findall(main):
        found += re.findall(r'data-tap="[^"]*"', section)
    return found


@pytest.fixture(params=sorted(GAMES))
def played(request, app, smtp):
    """A game of each kind some moves in, and the first link Ann was mailed (spent since)."""
    game, _ = creation.create_game(request.param, PLAYERS, seed=5)
    mailer.send_due()
    first = token_of(smtp.inbox.last_link("ann@example.org"))
    game = play_at_random(game, GAMES[request.param], random.Random(7))
    return game, first


def test_read_only_pages_have_no_action_controls(played, client, app):
    game, first = played
    pages = {"done": f"/turn/{first}/done", "replay": f"/replay/{first}",
             "home": f"/me/{home.issue(app.config['SECRET_KEY'], 'ann@example.org')}"
                     f"/games/{game.id}"}
    for name, path in pages.items():
        page = client.get(path)
        text = page.get_data(as_text=True)
        assert page.status_code == 200, (name, page.status_code)
        assert 'class="holdings"' in text, name                       # the holdings are shown
        assert action_controls(text) == [], (game.rules, name)
