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


def test_the_archive_is_paginated(app, client):
    ids = _finished_games(ARCHIVE_PAGE + 7)
    first = client.get("/games")
    text = first.get_data(as_text=True)
    assert first.status_code == 200
    assert len(set(re.findall(r'href="/games/([0-9]+)"', text))) == ARCHIVE_PAGE
    assert 'href="?page=2"' in text and "?page=0" not in text
    second = client.get("/games?page=2").get_data(as_text=True)
    shown = {i for i in ids if f'href="/games/{i}"' in second}
    assert len(shown) == 7 and 'href="?page=1"' in second and "?page=3" not in second
    assert not shown & {i for i in ids if f'href="/games/{i}"' in text}
    for odd in ("3", "0", "-1", "x", "٣", "99999999999"):
        assert client.get(f"/games?page={odd}").status_code == 404, odd


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
