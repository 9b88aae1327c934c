"""Ending a game together (pbem/log/ending.py): a player resigns (with two players the other
wins; with more, the seat is played by its defaults and ranked last), or the players agree to
abandon the game (one refusal: nothing ends); through the pages, the JSON API and the log,
which exports, verifies and imports with it."""
from __future__ import annotations

import re

from pbem.db.models import Event, Game, Link, Outbox
from pbem.log import check, ending, store
from pbem.mail import mailer
from pbem.play import creation, fresh, limits, moves, resigning
from pbem.play.keys import keys
from tests.conftest import token_of
from tests.mail.test_replies import asked, replying  # noqa: F401  (fixtures)

ANN = {"name": "Ann", "email": "ann@example.org"}
BOB = {"name": "Bob", "email": "bob@example.org"}
CY = {"name": "Cy", "email": "cy@example.org", "language": "hu"}
PACE = {"days": 2.0, "on_timeout": "auto", "drop_after": 3}
ASKED = re.compile(r"/turn/([^/\s\"]+)/end")


def first_link(smtp, address) -> str:
    mailer.send_due()
    return token_of(smtp.inbox.last_link(address))


def checks_out(game: Game) -> dict:
    """The game's record verifies, checks offline and imports to the same end."""
    assert store.verify(game) == []
    record = store.export(game)
    assert check.check(record).ok, check.check(record).text
    copy = store.import_record(record, PACE)
    assert (copy.status, copy.seq, copy.ending) == (game.status, game.seq, game.ending)
    assert store.result_of(copy, store.state_of(copy)) == record["result"]
    return record


def test_with_two_players_a_resignation_ends_the_game_and_the_other_wins(app, client, smtp):
    game, _ = creation.create_game("tigris", [ANN, BOB], seed=3, pace=PACE)
    ann = first_link(smtp, "ann@example.org")
    turn = client.get(f"/turn/{ann}").get_data(as_text=True)
    assert f'href="/turn/{ann}/end"' in turn
    assert 'id="resign-form"' in client.get(f"/turn/{ann}/end").get_data(as_text=True)
    seq = game.seq
    unconfirmed = client.post(f"/turn/{ann}/resign", data={})
    assert unconfirmed.status_code == 400 and store.get_game(game.id).seq == seq
    before = len(smtp.inbox.messages)
    done = client.post(f"/turn/{ann}/resign", data={"confirm": "yes"})
    assert done.status_code == 303 and done.headers["Location"] == f"/turn/{ann}/done"
    game = store.get_game(game.id)
    assert game.status == "over" and game.finished_at is not None
    result = store.result_of(game, store.state_of(game))
    assert result == {"ranking": [[1], [0]], "ended": "resigned", "resigned": [0]}
    last = Event.get(Event.game == game, Event.seq == game.seq)
    assert (last.seat, last.action, last.summary) == (0, {"type": "resign"},
                                                     "{p0} resigned. The game is over.")
    assert not Link.select().where(Link.game == game, Link.spent_at.is_null()).exists()
    mailer.send_due()
    over = [m for m in smtp.inbox.messages[before:] if "Resigned: Ann." in smtp.inbox.text(m)]
    assert {m["To"] for m in over} == {"ann@example.org", "bob@example.org"}
    page = client.get(f"/turn/{ann}/done").get_data(as_text=True)
    assert "Resigned: Ann." in page and 'id="end-link"' not in page
    assert 'id="resign-form"' not in client.get(f"/turn/{ann}/end").get_data(as_text=True)
    again = client.post(f"/api/turn/{ann}/resign")
    assert again.status_code == 409 and store.get_game(game.id).seq == game.seq
    assert checks_out(game)["status"] == "over"


def test_with_three_players_the_resigned_seat_is_played_by_its_defaults(app, client, smtp):
    game, _ = creation.create_game("tigris", [ANN, BOB, CY], seed=5, pace=PACE)
    bob = keys().issue(game, 1)
    answer = client.post(f"/api/turn/{bob}/resign")
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["ending"] == {"resigned": [1], "agreed": [], "ended": None}
    game = store.get_game(game.id)
    assert game.status == "running"
    rules = store.rules_of(game)
    for _ in range(40):         # the others play; Bob's turns are played for him at once
        game = store.get_game(game.id)
        state = store.state_of(game)
        asked = rules.to_act(state)
        assert 1 not in asked or game.status != "running"
        if not asked:
            break
        seat = asked[0]
        moves.act(game.id, seat, rules.default_action(state, seat), game.seq)
    bob_moves = list(Event.select().where(Event.game == game, Event.seat == 1,
                                          Event.seq > 1))
    assert bob_moves and all(e.played_by == "resigned" for e in bob_moves)
    assert all(e.summary.endswith("(played by default: {p1} resigned)") for e in bob_moves)
    mailer.send_due()
    assert not [m for m in smtp.inbox.to("bob@example.org")
                if smtp.inbox.headline(m).startswith("Your turn")]
    refused = client.post(f"/api/turn/{bob}/resign")
    assert refused.status_code == 409
    game = store.get_game(game.id)
    assert limits.fresh_link_refusal(game, 1, [1]).status == 409    # no fresh link mailed,
    assert fresh.play_now(game.id, 1) is None                       # nor opened at home
    checks_out(game)


def test_abandoning_takes_every_player_and_one_refusal_ends_nothing(app, client, smtp):
    game, _ = creation.create_game("tigris", [ANN, BOB, CY, {"computer": 1}], seed=7,
                                   pace=PACE)
    ann = keys().issue(game, 0)
    proposed = client.post(f"/api/turn/{ann}/abandon", json={"agree": True})
    assert proposed.status_code == 200
    assert proposed.get_json()["ending"]["agreed"] == [0]
    mailer.send_due()
    asked = {address: ASKED.findall(smtp.inbox.text(smtp.inbox.to(address)[-1]))[0]
             for address in ("bob@example.org", "cy@example.org")}
    assert Outbox.select().where(Outbox.game == game, Outbox.kind == "abandon-asked").count() == 2
    seat_page = client.get(f"/turn/{asked['bob@example.org']}/done").get_data(as_text=True)
    assert "Ann proposes to abandon the game." in seat_page and 'id="end-link"' in seat_page
    page = client.get(f"/turn/{asked['bob@example.org']}/end").get_data(as_text=True)
    assert "Ann proposes to abandon the game" in page and 'id="abandon-agree"' in page
    declined = client.post(f"/turn/{asked['bob@example.org']}/abandon", data={"agree": "no"})
    assert declined.status_code == 303
    game = store.get_game(game.id)
    assert game.status == "running" and ending.of(game.ending)["agreed"] == []
    assert client.post(f"/api/turn/{ann}/abandon", json={"agree": "yes"}).status_code == 400
    assert client.post(f"/api/turn/{ann}/abandon", json={"agree": True}).status_code == 200
    mailer.send_due()
    bob = ASKED.findall(smtp.inbox.text(smtp.inbox.to("bob@example.org")[-1]))[0]
    cy = ASKED.findall(smtp.inbox.text(smtp.inbox.to("cy@example.org")[-1]))[0]
    assert client.post(f"/api/turn/{bob}/abandon", json={"agree": True}).status_code == 200
    assert store.get_game(game.id).status == "running"
    last = client.post(f"/api/turn/{cy}/abandon", json={"agree": True})
    assert last.get_json()["status"] == "over"
    game = store.get_game(game.id)
    assert store.result_of(game, store.state_of(game)) == {
        "ranking": [], "ended": "abandoned", "resigned": []}
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert "The players agreed to abandon the game." in page
    checks_out(game)


def test_an_older_link_only_reads_and_nothing_is_written(app, client, smtp):
    game, _ = creation.create_game("tigris", [ANN, BOB], seed=3, pace=PACE)
    old = keys().issue(game, 0)
    keys().issue(game, 0)                   # a newer link: the old one no longer speaks
    seq = store.get_game(game.id).seq
    assert client.post(f"/api/turn/{old}/resign").status_code == 410
    assert client.post(f"/turn/{old}/abandon", data={"agree": "yes"}).status_code == 410
    assert client.post("/api/turn/forged.token/resign").status_code == 403
    assert store.get_game(game.id).seq == seq


def test_the_log_refuses_an_ending_the_rules_do_not_allow(app, smtp):
    game, _ = creation.create_game("tigris", [ANN, BOB, {"computer": 1}], seed=3, pace=PACE)
    resigning.resign(game.id, 0)
    record = store.export(store.get_game(game.id))
    forged = dict(record, events=[dict(e) for e in record["events"]])
    resigned = next(e for e in forged["events"] if e["action"] == {"type": "resign"})
    resigned["seat"] = 2                # the computer's seat neither resigns nor votes
    verdict = check.check(forged)
    assert not verdict.ok and "not allowed" in verdict.text
    for refused in ({"type": "abandon", "agree": False}, {"type": "resign", "why": "x"}):
        try:
            store.end_together(store.get_game(game.id), None, 1, refused, [2])
        except Exception as exc:        # IllegalAction, in the reader's words
            assert "abandon" in str(exc)
        else:
            raise AssertionError(f"{refused} was recorded")


def test_a_reply_that_says_resign_resigns(asked, smtp):
    """`resign` as the one code of a reply to the turn mail (a say: line goes to the table)."""
    from pbem.mail import inbound
    from tests.mail.test_replies import client_reply
    game, seat, mail, _codes = asked
    played = inbound.receive(client_reply(mail, ["say: well played", "Resign"]).as_bytes())
    assert played == "played"
    game = store.get_game(game.id)
    assert game.status == "over" and ending.resigned(game.ending) == [seat]
    assert store.result_of(game, store.state_of(game))["ranking"] == [[1 - seat], [seat]]
    checks_out(game)
