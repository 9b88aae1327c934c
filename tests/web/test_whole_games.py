"""Whole games played from the links in real emails: once through the JSON API, once through
the HTML forms, on SQLite and PostgreSQL."""
from __future__ import annotations

import html
import random
import re

from pbem.play import moves as playing
from pbem.play import creation
from pbem.mail import mailer
from pbem.log import store
from pbem.db.models import Game, Outbox
from tests.conftest import token_of

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"},
           {"name": "Cy", "email": "cy@example.org"}]


def live_link(client, inbox, players):
    """The emailed link that works now, and whose it is (the seat to act)."""
    for player in players:
        link = inbox.last_link(player["email"])
        if link and client.get(f"/api/turn/{token_of(link)}").status_code == 200:
            return player, token_of(link)
    return None, None


def test_invitations_and_first_link_are_emailed(app, smtp):
    game, _ = creation.create_game("duel", PLAYERS[:2], seed=1, host_email="host@example.org")
    assert mailer.send_due()["sent"] == 4
    headlines = [smtp.inbox.headline(m) for m in smtp.inbox.messages]
    assert sum("invites you" in s for s in headlines) == 2
    assert any("Your turn" in smtp.inbox.headline(m) for m in smtp.inbox.to("ann@example.org"))
    assert smtp.inbox.links_for("bob@example.org") == []
    host_mail = smtp.inbox.to("host@example.org")
    assert len(host_mail) == 1 and "/host/" in smtp.inbox.text(host_mail[0])
    assert all(m["Message-ID"] for m in smtp.inbox.messages)


def test_a_host_who_plays_is_not_invited_by_themselves(app, smtp):
    creation.create_game("duel", PLAYERS[:2], seed=1, host_email="ann@EXAMPLE.org")
    mailer.send_due()
    headlines = [smtp.inbox.headline(m) for m in smtp.inbox.to("ann@example.org")]
    assert not any("invites you" in s for s in headlines), headlines
    assert any("invites you" in smtp.inbox.headline(m) for m in smtp.inbox.to("bob@example.org"))
    assert any("/host/" in smtp.inbox.text(m) for m in smtp.inbox.to("ann@example.org"))


def test_play_to_the_end_through_the_json_api(app, client, smtp):
    players = PLAYERS[:3]
    game, _ = creation.create_game("duel", players, seed=7)
    rng = random.Random(7)
    moves = 0
    while True:
        mailer.send_due()
        if Game.get_by_id(game.id).status == "over":
            break
        player, token = live_link(client, smtp.inbox, players)
        assert player is not None, "nobody received a working link"
        page = client.get(f"/api/turn/{token}").get_json()
        assert set(page) == {"game", "rules", "seat", "seq", "to_act", "view", "actions", "result",
                             "deadlines", "messages", "codes", "commitment", "undo",
                             "computers", "ending"}
        assert page["deadlines"] == {} and page["messages"] == []   # no pace, no talk
        assert page["seat"] in page["to_act"] and page["actions"]
        answer = client.post(f"/api/turn/{token}",
                             json={"seq": page["seq"], "action": rng.choice(page["actions"])})
        assert answer.status_code == 200, answer.get_json()
        assert answer.get_json()["seq"] > page["seq"]
        moves += 1
    game = Game.get_by_id(game.id)
    assert moves >= 6 and store.verify(game) == []
    for player in players:
        last = smtp.inbox.to(player["email"])[-1]
        assert "is over" in smtp.inbox.headline(last)
        assert client.get(f"/api/turn/{token_of(smtp.inbox.last_link(player['email']))}"
                          ).status_code == 410
    assert Outbox.select().where(Outbox.sent_at.is_null()).count() == 0


FORM_SEQ = re.compile(r'name="seq" value="(\d+)"')
FORM_ACTION = re.compile(r'(?:name="action" value|<option value)="([^"]+)"')


def test_play_to_the_end_through_the_html_forms(app, client, smtp):
    players = PLAYERS[:2]
    game, _ = creation.create_game("duel", players, seed=11, options={"rounds": 3})
    while True:
        mailer.send_due()
        if Game.get_by_id(game.id).status == "over":
            break
        player, token = live_link(client, smtp.inbox, players)
        page = client.get(f"/turn/{token}")
        assert page.status_code == 200
        text = page.get_data(as_text=True)
        assert player["name"] in text
        seq = FORM_SEQ.search(text).group(1)
        action = html.unescape(FORM_ACTION.findall(text)[-1])
        answer = client.post(f"/turn/{token}", data={"seq": seq, "action": action})
        assert answer.status_code in (200, 303), answer.get_data(as_text=True)
    assert store.verify(Game.get_by_id(game.id)) == []
    finished = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert "Final ranking" in finished


def test_forced_moves_are_applied_and_marked_automatic(app, client, smtp, duel):
    # find a deal where the defender holds no card higher than the attacker's best
    for seed in range(50):
        game, _ = creation.create_game("duel", PLAYERS[:2], seed=seed)
        state = store.state_of(game)
        attack = max(state["hands"][0])
        if all(card < attack for card in state["hands"][1]):
            break
    else:
        raise AssertionError("no seed gives a forced yield")
    applied = playing.act(game.id, 0, {"type": "attack", "card": attack}, game.seq)
    kinds = [(e.action["type"], e.automatic) for e in applied.events]
    assert kinds == [("attack", False), ("yield", True)]
    assert Game.get_by_id(game.id).seq == 2
