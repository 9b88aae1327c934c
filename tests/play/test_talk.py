"""Table talk: messages from any link of a seat, shown beside the log, carried by the next mail
to each other player (never a mail of their own), exported with the game; bad input refused."""
from __future__ import annotations

import json

from pbem.play import moves as playing, records
from pbem.play import creation
from pbem.mail import mailer
from pbem.log import store
from pbem.play import talk
from pbem.db.models import Message, Outbox
from tests.conftest import token_of

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]


def started(smtp, seed=3):
    game, _ = creation.create_game("duel", PLAYERS, seed=seed)
    mailer.send_due()
    return game, token_of(smtp.inbox.last_link("ann@example.org"))


def test_a_message_shows_in_the_api_and_on_the_pages(client, smtp):
    game, ann = started(smtp)
    answer = client.post(f"/api/turn/{ann}/messages", json={"text": "Good luck, Bob!"})
    assert answer.status_code == 201, answer.get_json()
    payload = client.get(f"/api/turn/{ann}").get_json()
    [message] = payload["messages"]
    assert message["author"] == "Ann" and message["text"] == "Good luck, Bob!"
    assert message["at"].endswith("Z")
    page = client.get(f"/turn/{ann}").get_data(as_text=True)
    assert 'id="talk"' in page and "Good luck, Bob!" in page


def test_a_message_is_escaped_and_keeps_its_lines(client, smtp):
    game, ann = started(smtp)
    client.post(f"/api/turn/{ann}/messages", json={"text": "<script>alert(1)</script>\nsecond"})
    page = client.get(f"/turn/{ann}").get_data(as_text=True)
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert client.get(f"/api/turn/{ann}").get_json()["messages"][0]["text"].endswith("\nsecond")


def test_spent_and_replay_links_may_post_but_not_forged_ones(client, smtp):
    game, ann = started(smtp)
    state = store.state_of(game)
    rules = store.rules_of(game)
    playing.act(game.id, 0, rules.legal_actions(state, 0)[0], game.seq)   # Ann's link is spent
    assert client.get(f"/api/turn/{ann}").status_code == 410
    answer = client.post(f"/turn/{ann}/messages", data={"text": "Your move, Bob"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/turn/{ann}/done#talk")
    assert "Your move, Bob" in client.get(f"/turn/{ann}/done").get_data(as_text=True)
    replay = client.get(f"/replay/{ann}").get_data(as_text=True)
    assert "Your move, Bob" in replay and f'action="/turn/{ann}/messages"' in replay
    forged = ann[:-3] + ("AAA" if not ann.endswith("AAA") else "BBB")
    before = Message.select().count()
    assert client.post(f"/api/turn/{forged}/messages", json={"text": "hi"}).status_code == 403
    assert client.post(f"/turn/{forged}/messages", data={"text": "hi"}).status_code == 403
    assert Message.select().count() == before


def test_bad_messages_are_refused_and_nothing_is_kept(client, smtp):
    game, ann = started(smtp)
    for body in ({"text": ""}, {"text": "   "}, {"text": "x" * 501}, {"text": "a\x00b"},
                 {"text": "a\u202eb"}, {"text": 5}, {"text": ["a"]}, {"text": "a", "more": 1},
                 ["text"], "text"):
        answer = client.post(f"/api/turn/{ann}/messages", json=body)
        assert answer.status_code == 400, (body, answer.get_json())
        assert "error" in answer.get_json()
    assert client.post(f"/api/turn/{ann}/messages", data="{", content_type="application/json").status_code == 400
    assert client.post(f"/turn/{ann}/messages", data={"text": "\n".join("x" * 13)}).status_code == 400
    assert Message.select().count() == 0


def test_a_seat_that_posts_too_often_waits(client, smtp):
    game, ann = started(smtp)
    for n in range(talk.RATE_COUNT):
        assert client.post(f"/api/turn/{ann}/messages", json={"text": f"m{n}"}).status_code == 201
    answer = client.post(f"/api/turn/{ann}/messages", json={"text": "one more"})
    assert answer.status_code == 429 and "error" in answer.get_json()
    assert Message.select().count() == talk.RATE_COUNT


def test_messages_ride_the_next_turn_mail_once_never_a_mail_of_their_own(client, smtp):
    game, ann = started(smtp)
    mails = Outbox.select().count()
    client.post(f"/api/turn/{ann}/messages", json={"text": "Shall we play on Sundays?"})
    assert Outbox.select().count() == mails            # no mail for a message
    # Ann attacks: Bob is asked, and his mail carries Ann's message
    state = store.state_of(game)
    playing.act(game.id, 0, store.rules_of(game).legal_actions(state, 0)[0], game.seq)
    mailer.send_due()
    bob_mails = smtp.inbox.to("bob@example.org")
    last = smtp.inbox.text(bob_mails[-1])
    assert "Messages" in last and "Ann: Shall we play on Sundays?" in last
    html = bob_mails[-1].get_body(preferencelist=("html",)).get_content()
    assert "Shall we play on Sundays?" in html
    # the author's own next mail does not echo it, and Bob does not get it twice
    game = store.get_game(game.id)
    rng_moves = 0
    while store.get_game(game.id).status == "running" and rng_moves < 40:
        game = store.get_game(game.id)
        state = store.state_of(game)
        seat = store.rules_of(game).to_act(state)[0]
        playing.act(game.id, seat, store.rules_of(game).legal_actions(state, seat)[-1], game.seq)
        rng_moves += 1
    mailer.send_due()
    texts = [smtp.inbox.text(m) for m in smtp.inbox.to("bob@example.org")]
    assert sum("Shall we play on Sundays?" in t for t in texts) == 1
    assert not any("Shall we play on Sundays?" in smtp.inbox.text(m)
                   for m in smtp.inbox.to("ann@example.org"))


def test_messages_are_exported_and_imported_but_not_in_the_public_record(client, smtp):
    game, ann = started(smtp)
    client.post(f"/api/turn/{ann}/messages", json={"text": "gg"})
    record = records.export_game(store.get_game(game.id))
    assert [(m["seat"], m["text"]) for m in record["messages"]] == [(0, "gg")]
    copy = records.import_game(json.loads(json.dumps(record)))
    assert [m["text"] for m in talk.listing(copy)] == ["gg"]
    assert "messages" not in records.export_game(game, messages=False)
    bad = dict(record, messages=[{"seat": 9, "text": "x", "at": "2026-01-01T00:00:00"}])
    try:
        records.import_game(bad)
    except ValueError as exc:
        assert "seat" in str(exc)
    else:
        raise AssertionError("a message of an unknown seat was imported")
