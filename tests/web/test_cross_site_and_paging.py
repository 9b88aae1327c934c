"""POSTs from another site are refused (but the one-click
unsubscribe), /games is paginated, gunicorn is reached only through nginx."""
from __future__ import annotations

import re
import pytest

from pbem.db.models import Event, Game, OptOut, utcnow
from pbem.log import store
from pbem.mail import mailer, urls
from pbem.play import creation
from pbem.web.games import ARCHIVE_PAGE
from tests.conftest import token_of

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]
CROSS_SITE = [{"Sec-Fetch-Site": "cross-site"}, {"Origin": "https://evil.example"},
              {"Origin": "null", "Sec-Fetch-Site": "cross-site"},
              {"Origin": "http://pbem.test.evil.example"},
              {"Sec-Fetch-Site": "cross-site", "Origin": "http://pbem.test"}]


@pytest.fixture
def live(app, smtp):
    game, host_token = creation.create_game("duel", PLAYERS, seed=3)
    mailer.send_due()
    seat = store.rules_of(game).to_act(store.state_of(game))[0]
    return game, token_of(smtp.inbox.last_link(PLAYERS[seat]["email"])), host_token


@pytest.mark.parametrize("headers", CROSS_SITE)
def test_a_post_from_another_site_is_refused_and_changes_nothing(live, client, headers):
    game, token, host_token = live
    page = client.get(f"/api/turn/{token}").get_json()
    move = {"seq": page["seq"], "action": page["actions"][0]}
    before = Event.select().count()
    for path, kwargs in ((f"/api/turn/{token}", {"json": move}),
                         (f"/turn/{token}", {"data": {"seq": "0", "action": "{}"}}),
                         (f"/host/{host_token}/pause", {}), ("/new", {"data": {}}),
                         (f"/turn/{token}/renew", {}), ("/me", {"data": {"email": "a@b.org"}})):
        answer = client.post(path, headers=headers, **kwargs)
        assert answer.status_code == 403, (path, answer.status_code)
    assert Event.select().count() == before
    assert Game.get_by_id(game.id).paused_at is None


@pytest.mark.parametrize("headers", [{}, {"Sec-Fetch-Site": "same-origin"},
                                     {"Origin": "http://pbem.test"},
                                     {"Origin": "http://localhost"},   # the request's own host
                                     {"Sec-Fetch-Site": "none"},
                                     # Chromium's own form posts under no-referrer
                                     {"Origin": "null", "Sec-Fetch-Site": "same-origin"}])
def test_a_post_from_this_site_plays(live, client, headers):
    game, token, _ = live
    page = client.get(f"/api/turn/{token}").get_json()
    answer = client.post(f"/api/turn/{token}", headers=headers,
                         json={"seq": page["seq"], "action": page["actions"][0]})
    assert answer.status_code == 200


def test_the_one_click_unsubscribe_works_from_the_mailbox_providers_site(live, client):
    link = urls.optout_url("bob@example.org")
    answer = client.post(link.replace("http://pbem.test", ""),
                         data={"List-Unsubscribe": "One-Click"},
                         headers={"Sec-Fetch-Site": "cross-site", "Origin": "https://mail.example"})
    assert answer.status_code < 400
    assert OptOut.select().where(OptOut.email == "bob@example.org").exists()
    undo = client.post(link.replace("http://pbem.test", "") + "/undo",
                       headers={"Sec-Fetch-Site": "cross-site"})
    assert undo.status_code == 403          # undoing is a page's button: this site only


def _finished_games(count: int) -> list[int]:
    game, _ = creation.create_game("duel", PLAYERS, seed=3)
    fields = {k: v for k, v in game.__data__.items() if k != "id"}
    ids = []
    for _n in range(count):
        copy = Game.create(**dict(fields, status="over", finished_at=utcnow()))
        ids.append(copy.id)
    return ids


def _listed(text: str) -> list[int]:
    return [int(i) for i in re.findall(r'<li><a href="/games/([0-9]+)"', text)]


def test_the_archive_is_paginated(app, client):
    """Newest first, ARCHIVE_PAGE a page; "Older games" and "Newer games" lead on from the
    page's last and first game (keyset: no page costs more the further back it is); the
    numbered pages of earlier releases still answer."""
    ids = _finished_games(ARCHIVE_PAGE + 7)
    newest_first = ids[::-1]        # finished in this order, each a moment after the one before
    first = client.get("/games")
    text = first.get_data(as_text=True)
    assert first.status_code == 200
    assert _listed(text) == newest_first[:ARCHIVE_PAGE]
    assert f'href="?older={newest_first[ARCHIVE_PAGE - 1]}" rel="next"' in text
    assert 'rel="prev"' not in text
    second = client.get(f"/games?older={newest_first[ARCHIVE_PAGE - 1]}").get_data(as_text=True)
    assert _listed(second) == newest_first[ARCHIVE_PAGE:]
    assert f'href="?newer={newest_first[ARCHIVE_PAGE]}" rel="prev"' in second
    assert 'rel="next"' not in second
    back = client.get(f"/games?newer={newest_first[ARCHIVE_PAGE]}").get_data(as_text=True)
    assert _listed(back) == newest_first[:ARCHIVE_PAGE] and 'rel="prev"' not in back
    numbered = client.get("/games?page=2").get_data(as_text=True)
    assert _listed(numbered) == newest_first[ARCHIVE_PAGE:]
    assert f'href="?newer={newest_first[ARCHIVE_PAGE]}" rel="prev"' in numbered
    running, _ = creation.create_game("duel", PLAYERS, seed=4)
    for odd in ("page=3", "page=0", "page=-1", "page=x", "page=٣", "page=99999999999",
                "older=0", "older=x", "newer=", f"older={running.id}", f"newer={running.id}",
                f"older={newest_first[-1]}", f"newer={newest_first[0]}", "older=99999999999",
                f"older={ids[0]}&page=1", f"older={ids[0]}&newer={ids[1]}"):
        assert client.get(f"/games?{odd}").status_code == 404, odd


def test_gunicorn_listens_on_loopback_only_behind_nginx(monkeypatch):
    """Idle and slow clients hold gunicorn's workers (sync and gthread alike): only nginx,
    which buffers whole requests, may reach it (deploy/gunicorn.conf.py says why)."""
    import runpy
    from pathlib import Path
    monkeypatch.delenv("PBEM_BIND", raising=False)
    conf = Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"
    settings = runpy.run_path(str(conf))
    assert settings["bind"].startswith("127.0.0.1:")
    assert "nginx must front gunicorn" in conf.read_text()
    nginx = (conf.parent / "nginx-pbem.conf").read_text()
    assert "proxy_request_buffering off" not in nginx and "proxy_pass http://127.0.0.1:" in nginx
