"""Link pages that say what happened: a turn link that no longer acts says
whether its move was made by its player or played for them (at the deadline, by the host, by
default for a dropped or handed-over seat), replaced by a newer link and from where (a mail,
the player's request, the host's resend, "Play now" — which mails nothing), or revoked by the
host; it says "emailed" only when a mail went, and offers a fresh link wherever none is on its
way. Each sentence is checked against what was done; real SMTP sink."""
from __future__ import annotations

import datetime as dt
import re

import pytest

from pbem.db.models import Link, Outbox, Seat, utcnow
from pbem.log import store
from pbem.mail import mailer
from pbem.play import choices, fresh, home, optout, pace
from pbem.play import hosting
from pbem.play import creation
from pbem.present import action_key
from tests.conftest import token_of, on_sqlite

database_url = on_sqlite     # what a used link's page says, not storage: SQLite alone

DAY = dt.timedelta(days=1)
ANN, BOB = "ann@example.org", "bob@example.org"
PLAYERS = [{"name": "Ann", "email": ANN}, {"name": "Bob", "email": BOB}]
HOME = re.compile(r"http://pbem\.test/me/[A-Za-z0-9_.\-]+")
UNTRUE_FOR_A_DROPPED_SEAT = ("This link has been used", "We email you whenever it is your turn",
                             "we email you when it is")


def new_game(on_timeout="wait", drop_after=3, days=1.0):
    game, host = creation.create_game("duel", PLAYERS, {"rounds": 3}, seed=3,
                                     host_email="host@example.org",
                                     pace={"days": days, "on_timeout": on_timeout,
                                           "drop_after": drop_after})
    mailer.send_due()
    return game, host


def ann_link(smtp) -> str:
    return token_of(smtp.inbox.last_link(ANN))


def page(client, token, path=""):
    answer = client.get(f"/turn/{token}{path}")
    text = answer.get_data(as_text=True)
    return answer.status_code, re.sub(r"\s+", " ", text)


def asked_at(game, index=0):
    return Seat.get(Seat.game == game.id, Seat.index == index).asked_at


def no_lies_of_mail(text):
    assert "was emailed" not in text and "emailed to you" not in text
    assert "a few minutes ago" not in text


def test_a_move_made_by_its_player(app, client, smtp):
    game, _ = new_game()
    token = ann_link(smtp)
    payload = client.get(f"/api/turn/{token}").get_json()
    client.post(f"/turn/{token}", data={"seq": str(payload["seq"]),
                                        "action": action_key(payload["actions"][0])})
    status, text = page(client, token)
    assert status == 410
    assert "You made your move with this link on" in text and " UTC." in text
    assert "It is not your turn now: we email you when it is." in text
    assert "Email me a fresh link" not in text


def test_a_default_played_at_the_deadline(app, client, smtp):
    game, _ = new_game(on_timeout="auto")
    token = ann_link(smtp)
    pace.run_pass(asked_at(game) + 1.5 * DAY)
    status, text = page(client, token)
    assert status == 410
    assert "Your deadline passed, so your default move was played for you on" in text
    assert "You made your move" not in text and "This link has been used" not in text


def test_a_default_the_host_chose(app, client, smtp):
    game, _ = new_game(on_timeout="wait")
    token = ann_link(smtp)
    late = asked_at(game) + 1.5 * DAY
    pace.run_pass(late)
    hosting.play_default_once(game.id, 0, now=late)
    status, text = page(client, token)
    assert status == 410 and "The host had your default move played for you on" in text
    assert "Your deadline passed" not in text


def test_a_dropped_seat_is_told_the_truth_and_can_come_back(app, client, smtp):
    game, _ = new_game(on_timeout="auto", drop_after=1)
    token = ann_link(smtp)
    pace.run_pass(asked_at(game) + 1.5 * DAY)
    assert Seat.get(Seat.game == game.id, Seat.index == 0).dropped
    status, text = page(client, token)
    assert status == 410
    assert "Your default move was played for you on" in text
    assert "Your moves are played for you by default now: you missed 1 deadline in a row." in text
    for untrue in UNTRUE_FOR_A_DROPPED_SEAT:
        assert untrue not in text
    assert f'action="/turn/{token}/back"' in text
    assert client.post(f"/turn/{token}/back").status_code == 200
    assert not Seat.get(Seat.game == game.id, Seat.index == 0).dropped


def test_a_handed_over_seat_is_told_the_host_did_it(app, client, smtp):
    game, _ = new_game(on_timeout="wait")
    token = ann_link(smtp)
    late = asked_at(game) + 1.5 * DAY
    pace.run_pass(late)
    hosting.hand_over(game.id, 0, now=late)
    status, text = page(client, token)
    assert status == 410
    assert "Your moves are played for you by default now: the host handed your seat over." in text
    for untrue in UNTRUE_FOR_A_DROPPED_SEAT:
        assert untrue not in text


def test_a_seat_the_computer_plays_after_its_misses_is_told_the_computer_plays(app, client,
                                                                               smtp):
    from pbem.play import computers
    app.config["BOT_ITERATIONS"] = 3
    game, _ = new_game(on_timeout="bot", drop_after=1)
    token = ann_link(smtp)
    pace.run_pass(asked_at(game) + 1.5 * DAY)             # dropped: the computer plays for Ann
    assert Seat.get(Seat.game == game.id, Seat.index == 0).dropped
    computers.run_pass(asked_at(game) + 1.5 * DAY)
    status, text = page(client, token)
    assert status == 410 and "The computer played your move for you on" in text
    assert "The computer plays your moves for you now: you missed 1 deadline in a row." in text
    assert "by default" not in text and "handed your seat over" not in text
    for untrue in UNTRUE_FOR_A_DROPPED_SEAT:
        assert untrue not in text
    status, text = page(client, token + "?lang=hu")
    assert "Mostantól a számítógép lép helyetted: egymás után 1 határidőt lekéstél." in text


def expire_and_age(game):
    Link.update(expires_at=utcnow() - dt.timedelta(seconds=1),
                created_at=utcnow() - dt.timedelta(hours=1)).where(Link.game == game).execute()


def test_replaced_by_the_players_own_request(app, client, smtp):
    game, _ = new_game()
    token = ann_link(smtp)
    expire_and_age(game)
    status, text = page(client, token)
    assert status == 410 and "This link expired on" in text and "Email me a fresh link" in text
    assert client.post(f"/turn/{token}/renew").status_code == 200
    mailer.send_due()
    status, text = page(client, token)
    assert "You asked for a fresh link on" in text and "it was emailed to you." in text
    assert "A newer link was emailed to you on" in text and "Email me a fresh link" not in text
    assert ann_link(smtp) != token


def test_replaced_by_the_hosts_resend(app, client, smtp):
    game, host = new_game()
    token = ann_link(smtp)
    assert client.post(f"/host/{host}/resend/0").status_code == 303
    status, text = page(client, token)
    assert status == 410 and "The host had a fresh link emailed to you on" in text
    assert "You asked for" not in text


def test_replaced_by_play_now_says_nothing_was_emailed_and_offers_a_fresh_link(app, client,
                                                                                smtp):
    game, _ = new_game()
    token = ann_link(smtp)
    home_token = token_of(HOME.findall(smtp.inbox.text(smtp.inbox.to(ANN)[-1]))[-1])
    assert client.post(f"/me/{home_token}/games/{game.id}/play").status_code == 303
    status, text = page(client, token)
    assert status == 410
    assert "You opened this turn from the page of all your games on" in text
    assert "Nothing was emailed." in text
    assert "A newer link was emailed" not in text and "look in your inbox" not in text
    assert f'action="/turn/{token}/renew"' in text                 # no link is on its way
    mails = len(smtp.inbox.to(ANN))
    assert client.post(f"/turn/{token}/renew").status_code == 200
    mailer.send_due()
    assert len(smtp.inbox.to(ANN)) == mails + 1
    assert client.get(f"/turn/{ann_link(smtp)}").status_code == 200


def test_revoked_by_the_host(app, client, smtp):
    game, host = new_game()
    ann = ann_link(smtp)
    assert client.post(f"/host/{host}/revoke/0").status_code == 303
    mailer.send_due()
    status, text = page(client, ann)
    assert status == 410 and "The host revoked this link on" in text
    assert "A new link was emailed to you then." in text
    assert "A newer link was emailed to you on" in text                # and it is live
    assert client.get(f"/turn/{ann_link(smtp)}").status_code == 200


def test_revoked_while_not_to_act_offers_no_link_that_is_not_coming(app, client, smtp):
    game, host = new_game()
    token = ann_link(smtp)
    payload = client.get(f"/api/turn/{token}").get_json()
    client.post(f"/turn/{token}", data={"seq": str(payload["seq"]),
                                        "action": action_key(payload["actions"][0])})
    assert client.post(f"/host/{host}/revoke/0").status_code == 303       # Bob's turn now
    status, text = page(client, token)
    assert "The host revoked this link on" in text
    assert "A new link was emailed to you then." not in text and "a few minutes ago" not in text
    assert "It is not your turn now: we email you when it is." in text
    # and the revoke cut its read-only pages too, though it was spent before
    assert client.get(f"/turn/{token}/done").status_code == 410
    assert client.get(f"/replay/{token}").status_code == 410


def test_an_opted_out_address_is_never_told_a_link_was_emailed(app, client, smtp):
    game, host = new_game()
    token = ann_link(smtp)
    choices.opt_out(ANN)
    Outbox.update(created_at=utcnow() - dt.timedelta(hours=1)).execute()
    assert client.post(f"/host/{host}/resend/0").status_code == 303         # nothing is mailed
    status, text = page(client, token)
    assert "A newer link was made on" in text and "it was not emailed" in text
    assert "this address asked for no more mail, so no link can reach you" in text
    assert "Email me a fresh link" not in text and "A newer link was emailed" not in text


def test_a_digest_reader_is_told_the_digest_brings_the_game(app, client, smtp):
    game, _ = new_game()
    token = ann_link(smtp)
    payload = client.get(f"/api/turn/{token}").get_json()
    client.post(f"/turn/{token}", data={"seq": str(payload["seq"]),
                                        "action": action_key(payload["actions"][0])})
    choices.save_settings(ANN, "en", "digest", 7)
    status, text = page(client, token, "/done")
    assert status == 200
    assert "It is not your turn now: your daily digest lists the game when it is." in text
    assert "we email you when it is" not in text
