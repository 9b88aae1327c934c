"""Every way a request can be wrong gets its status code, a clear message, and an unchanged log."""
from __future__ import annotations

import pytest

from pbem.play import moves as playing
from pbem.play import creation
from pbem.mail import mailer
from pbem.log import store
from pbem.db.models import Event, Link
from tests.conftest import set_link_ages, token_of

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]


@pytest.fixture
def started(app, client, smtp):
    game, host_token = creation.create_game("duel", PLAYERS, seed=3)
    mailer.send_due()
    token = token_of(smtp.inbox.last_link("ann@example.org"))
    return game, token, host_token


def events(game):
    return [(e.seq, e.hash) for e in Event.select().where(Event.game == game).order_by(Event.seq)]


def post(client, token, body, raw=False):
    if raw:
        return client.post(f"/api/turn/{token}", data=body, content_type="application/json")
    return client.post(f"/api/turn/{token}", json=body)


@pytest.mark.parametrize("body, status, words", [
    ("{not json", 400, "JSON object"),
    ('["a list"]', 400, "JSON object"),
    ('{"seq": "x", "action": {"type": "attack", "card": 1}}', 400, "seq"),
    ('{"seq": 0, "action": "attack"}', 400, "action"),
    ('{"seq": 0, "action": {"type": "teleport"}}', 422, "illegal"),
    ('{"seq": 0, "action": {"type": "attack", "card": 999}}', 422, "illegal"),
    ('{"seq": 7, "action": {"type": "attack", "card": 1}}', 409, "already played"),
])
def test_bad_requests_get_their_status_and_change_nothing(started, client, body, status, words):
    game, token, _ = started
    before = events(game)
    answer = post(client, token, body, raw=True)
    assert answer.status_code == status
    assert words in answer.get_json()["error"]
    assert events(game) == before


def test_tampered_link_is_403(started, client):
    game, token, _ = started
    for bad in (token[:-2] + ("AA" if not token.endswith("AA") else "BB"), "nonsense", token + "x"):
        answer = client.get(f"/api/turn/{bad}")
        assert answer.status_code == 403 and answer.get_json()["error"]
        assert client.get(f"/turn/{bad}").status_code == 403


def test_expired_link_is_410_and_offers_a_fresh_one(started, client, app, smtp):
    game, token, _ = started
    set_link_ages(app, link_max_age=-1)
    answer = client.get(f"/api/turn/{token}")
    assert answer.status_code == 410 and "expired" in answer.get_json()["error"]
    assert post(client, token, {"seq": 0, "action": {"type": "yield"}}).status_code == 410
    app.config["RENEW_INTERVAL"] = 0          # else the link is too young to replace: no button
    page = client.get(f"/turn/{token}")
    assert page.status_code == 410 and "Email me a fresh link" in page.get_data(as_text=True)
    set_link_ages(app, link_max_age=3600)
    assert client.post(f"/turn/{token}/renew").status_code == 200
    mailer.send_due()
    fresh = token_of(smtp.inbox.last_link("ann@example.org"))
    assert fresh != token and client.get(f"/api/turn/{fresh}").status_code == 200
    assert client.get(f"/api/turn/{token}").status_code == 410    # replaced by the fresh one


def test_spent_link_is_410_and_wrong_seat_cannot_act(started, client, smtp):
    game, token, _ = started
    page = client.get(f"/api/turn/{token}").get_json()
    attack = next(a for a in page["actions"] if a["type"] == "attack")
    assert post(client, token, {"seq": page["seq"], "action": attack}).status_code == 200
    before = events(game)
    now = store.get_game(game.id).seq
    again = post(client, token, {"seq": now, "action": {"type": "yield"}})
    assert again.status_code == 410 and "used" in again.get_json()["error"]
    repeat = post(client, token, {"seq": page["seq"], "action": attack})
    assert repeat.status_code == 409 and "already played" in repeat.get_json()["error"]
    html = client.get(f"/turn/{token}")
    assert html.status_code == 410 and "fresh link" not in html.get_data(as_text=True)
    with pytest.raises(store.IllegalAction, match="not your turn"):
        playing.act(game.id, 0, {"type": "yield"}, store.get_game(game.id).seq)
    assert events(game) == before


def test_get_never_acts(started, client):
    game, token, _ = started
    before = events(game)
    for _ in range(3):
        assert client.get(f"/turn/{token}").status_code == 200
        assert client.get(f"/api/turn/{token}").status_code == 200
    assert events(game) == before


def test_links_store_only_a_hash_of_a_long_nonce(started):
    game, token, _ = started
    link = Link.get(Link.game == game)
    assert len(link.nonce_hash) == 64 and link.nonce_hash not in token
    assert link.expires_at > link.created_at


def test_host_can_revoke_and_resend(started, client, smtp):
    game, token, host_token = started
    assert client.post(f"/host/{host_token}/revoke/0").status_code == 303
    assert client.get(f"/api/turn/{token}").status_code == 410
    assert "revoked" in client.get(f"/api/turn/{token}").get_json()["error"]
    client.post(f"/host/{host_token}/resend/0")
    mailer.send_due()
    fresh = token_of(smtp.inbox.last_link("ann@example.org"))
    assert client.get(f"/api/turn/{fresh}").status_code == 200
    assert client.get("/host/not-a-token").status_code == 403


def test_every_page_sends_the_security_headers(started, client):
    game, token, host_token = started
    for path in ("/", "/new", "/games", f"/games/{game.id}", f"/turn/{token}",
                 f"/api/turn/{token}", f"/host/{host_token}", "/turn/bad", "/api/turn/bad"):
        answer = client.get(path)
        assert answer.headers["Referrer-Policy"] == "no-referrer", path
        csp = answer.headers["Content-Security-Policy"]
        assert "default-src 'none'" in csp and "http" not in csp, path
        text = answer.get_data(as_text=True)
        assert "src=\"http" not in text and "href=\"http" not in text.replace(
            'href="http://pbem.test', ""), path


def test_running_game_record_is_not_published(started, client):
    game, _, _ = started
    assert client.get(f"/games/{game.id}/record.json").status_code == 403
