"""No dead ends: a finished turn lands on a page that stays reachable (303 after the POST), every
link a seat was sent opens its read-only pages while younger than the link's maximum age, and the
replay's way back never answers "link used" — while an old link never becomes a way to act."""
from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from pbem.play import creation
from pbem.play import links
from pbem.mail import mailer
from pbem.log import store
from pbem.db.database import write_transaction
from pbem.db.models import Event, Link, utcnow
from pbem.present import action_key
from tests.conftest import set_link_ages, token_of, on_sqlite

database_url = on_sqlite     # where each page leads, not storage: SQLite alone

PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}]


@pytest.fixture
def started(app, smtp):
    game, _ = creation.create_game("duel", PLAYERS, seed=2, options={"rounds": 3})
    mailer.send_due()
    return game, token_of(smtp.inbox.last_link("ann@example.org"))


def events(game):
    return Event.select().where(Event.game == game).count()


def play(client, token, game):
    """Post the first legal action of the token's seat through the turn page's form."""
    payload = client.get(f"/api/turn/{token}").get_json()
    form = {"seq": str(payload["seq"]), "action": action_key(payload["actions"][0])}
    return client.post(f"/turn/{token}", data=form), form


def test_the_last_action_of_a_turn_lands_on_a_page_that_stays(started, client):
    game, token = started
    answer, form = play(client, token, game)
    assert answer.status_code == 303
    assert answer.headers["Location"].endswith(f"/turn/{token}/done?done=1")
    count = events(game)
    for _ in range(2):                                   # the page, then a reload of it
        page = client.get(f"/turn/{token}/done?done=1")
        text = page.get_data(as_text=True)
        assert page.status_code == 200
        assert "Your move is in." in text and "Waiting for: Bob." in text
        assert "What your move did:" in text and "Ann attacked Bob" in text
        assert f'href="/replay/{token}"' in text
        assert f'action="/turn/{token}"' not in text     # nothing on it acts
    assert events(game) == count
    again = client.post(f"/turn/{token}", data=form)     # a re-post of the same form
    assert again.status_code == 409 and "already made" in again.get_data(as_text=True)
    assert f'href="/replay/{token}"' in again.get_data(as_text=True)
    assert events(game) == count
    assert client.get(f"/turn/{token}").status_code == 410   # the link itself is spent


def test_a_move_that_leaves_the_turn_open_goes_back_to_the_turn(started, client):
    game, token = started
    assert client.get(f"/turn/{token}/done").headers["Location"].endswith(f"/turn/{token}")


def newer_link(client, smtp, game, first):
    """Bob plays from his mails until Ann is sent a newer link; return it."""
    for _ in range(6):
        newest = token_of(smtp.inbox.last_link("ann@example.org"))
        if newest != first:
            return newest
        play(client, token_of(smtp.inbox.last_link("bob@example.org")), game)
        mailer.send_due()
    raise AssertionError("Ann was never sent a newer link")


def test_every_link_a_seat_was_sent_opens_its_replay(started, client, smtp, app):
    game, first = started
    play(client, first, game)
    mailer.send_due()
    newest = newer_link(client, smtp, game, first)
    for token in (first, newest):
        replay = client.get(f"/replay/{token}?step=1")
        assert replay.status_code == 200 and "what you, Ann, saw" in replay.get_data(as_text=True)
    spent = client.get(f"/turn/{first}").get_data(as_text=True)
    assert f'href="/replay/{first}"' in spent and f'href="/turn/{first}/done"' in spent
    set_link_ages(app, link_max_age=-1)                      # older than the links' maximum age
    for path in (f"/replay/{first}", f"/turn/{first}/done"):
        assert client.get(path).status_code == 410
    set_link_ages(app, link_max_age=3600)
    assert client.get(f"/replay/{first[:-3]}xyz").status_code == 403
    with write_transaction():
        links.spend(store.get_game(game.id), [0], "revoked")
    assert client.get(f"/replay/{first}").status_code == 410   # a revoke cuts older links


def test_back_to_your_turn_never_answers_410_and_an_old_link_never_acts(started, client, smtp):
    game, first = started
    play(client, first, game)
    mailer.send_due()
    replay = client.get(f"/replay/{first}").get_data(as_text=True)    # Bob's turn
    assert f'href="/turn/{first}/done"' in replay and "Back to where the game stands" in replay
    newest = newer_link(client, smtp, game, first)                    # Ann's turn again
    replay = client.get(f"/replay/{first}").get_data(as_text=True)
    assert f'href="/turn/{first}/done"' in replay and "Back to your turn" in replay
    back = client.get(f"/turn/{first}/done")
    text = back.get_data(as_text=True)
    assert back.status_code == 200 and "A newer link was emailed to you" in text
    assert f'action="/turn/{first}/renew"' not in text       # a renew it would refuse (410)
    assert f'action="/turn/{first}"' not in text
    count = events(game)
    payload = client.get(f"/api/turn/{newest}").get_json()
    form = {"seq": str(payload["seq"]), "action": json.dumps(payload["actions"][0])}
    assert client.post(f"/turn/{first}", data=form).status_code == 410   # the old one cannot act
    assert events(game) == count
    live = client.get(f"/turn/{newest}/done")                         # the live link: its turn
    assert live.status_code == 303 and live.headers["Location"].endswith(f"/turn/{newest}")


# -- every way out of a link's error page works --------------------------------------------

MAIN = re.compile(r"<main>(.*)</main>", re.S)
HREF = re.compile(r'<a href="(/[^"]*)"')
FORM = re.compile(r'<form method="post" action="(/[^"]*)"[^>]*>(.*?)</form>', re.S)


def ways_out(text: str) -> list[tuple[str, str]]:
    """Every link and one-button form in a page's main part, as (method, path); a form with a
    field to fill (the table talk) is not a button."""
    main = MAIN.search(text).group(1)
    buttons = [("POST", action) for action, body in FORM.findall(main)
               if "<textarea" not in body and "<input" not in body.replace('type="hidden"', "")]
    return [("GET", href.replace("&amp;", "&")) for href in HREF.findall(main)] + buttons


def assert_no_dead_end(client, path: str, depth: int = 2) -> str:
    """The page at `path` (an error page too) and, `depth` clicks deep, every page its links and
    buttons lead to: none of those answers 4xx or 5xx."""
    page = client.get(path)
    text = page.get_data(as_text=True)
    seen = {("GET", path)}
    frontier = [(method, target, path) for method, target in ways_out(text)]
    for _ in range(depth):
        after = []
        for method, target, source in frontier:
            if (method, target) in seen:
                continue
            seen.add((method, target))
            answer = client.get(target) if method == "GET" else client.post(target)
            assert answer.status_code in (200, 303), (source, method, target, answer.status_code,
                                                      answer.get_data(as_text=True)[-600:])
            if method == "GET" and answer.status_code == 200:
                after += [(m, t, target) for m, t in ways_out(answer.get_data(as_text=True))]
        frontier = after
    return text


def test_an_old_link_of_a_seat_to_act_says_a_newer_one_was_mailed(started, client, smtp, app):
    game, first = started
    play(client, first, game)
    mailer.send_due()
    newest = newer_link(client, smtp, game, first)               # Ann is to act again
    app.config["RENEW_INTERVAL"] = 0                             # a fresh link could be mailed now
    text = assert_no_dead_end(client, f"/turn/{first}")
    assert "A newer link was emailed to you on" in text
    assert re.search(r"emailed to you on [^<]* UTC: open", text)    # the time says its zone
    assert "Email me a fresh link" not in text
    assert 'href="/me"' in text and f'href="/turn/{first}/done"' in text
    done = assert_no_dead_end(client, f"/turn/{first}/done", depth=1)
    assert "A newer link was emailed to you on" in done and "Email me a fresh link" not in done
    assert re.search(r"emailed to you on [^<]* UTC: open", done)
    assert client.get(f"/api/turn/{newest}").status_code == 200   # the newest still works


def test_an_expired_newest_link_offers_a_fresh_one_that_comes(started, client, smtp, app):
    game, first = started
    Link.update(expires_at=utcnow() - dt.timedelta(seconds=1),
                created_at=utcnow() - dt.timedelta(hours=1)).where(Link.game == game).execute()
    text = client.get(f"/turn/{first}").get_data(as_text=True)
    assert "Email me a fresh link" in text
    assert_no_dead_end(client, f"/turn/{first}", depth=1)          # the renew answers 200
    mailer.send_due()
    assert token_of(smtp.inbox.last_link("ann@example.org")) != first


def test_a_just_mailed_link_that_expired_offers_no_renew_it_would_refuse(started, client, app):
    game, first = started
    Link.update(expires_at=utcnow() - dt.timedelta(seconds=1)).where(Link.game == game).execute()
    text = assert_no_dead_end(client, f"/turn/{first}")          # younger than RENEW_INTERVAL
    assert "Email me a fresh link" not in text and "a few minutes ago" in text


def test_a_spent_link_of_a_seat_not_to_act_leads_to_the_game(started, client):
    game, first = started
    play(client, first, game)                                    # Bob's turn now
    text = assert_no_dead_end(client, f"/turn/{first}")
    assert f'href="/games/{game.id}"' in text and "Email me a fresh link" not in text
