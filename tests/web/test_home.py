"""The player's home: asked for at /me (the same answer for every address), mailed in every
mail's footer, listing every game of the address; play now, settings, the daily digest."""
from __future__ import annotations

import datetime as dt
import re

from pbem.play import creation
from pbem.play import home, pace
from pbem.play import vacations
from pbem.mail import mailer
from pbem.play import digest
from pbem.log import store
from pbem.db.models import Link, Outbox, PlayerSettings, Seat
from tests.conftest import LINK, token_of

HOME = re.compile(r"http://pbem\.test/me/[A-Za-z0-9_.\-]+")
ANN, BOB, CY = "ann@example.org", "bob@example.org", "cy@example.org"


def games_for_ann():
    """Three running games of Ann's: her turn in two, not in the third."""
    first, _ = creation.create_game("duel", [{"name": "Ann", "email": ANN},
                                          {"name": "Bob", "email": BOB}], seed=1)
    second, _ = creation.create_game("duel", [{"name": "Ann", "email": "Ann@Example.org"},
                                           {"name": "Cy", "email": CY}], seed=2)
    third, _ = creation.create_game("duel", [{"name": "Bob", "email": BOB},
                                          {"name": "Ann", "email": ANN}], seed=3)
    return first, second, third


def home_token(smtp, address=ANN):
    links = [link for m in smtp.inbox.to(address) for link in HOME.findall(smtp.inbox.text(m))]
    assert links, "no home link in the mail"
    return token_of(links[-1])


def test_every_mail_carries_the_home_link_and_it_lists_every_game(client, smtp):
    first, second, third = games_for_ann()
    mailer.send_due()
    for message in smtp.inbox.messages:
        assert HOME.search(smtp.inbox.text(message)), message["Subject"]
        assert "/me/" in message.get_body(preferencelist=("html",)).get_content()
    page = client.get(f"/me/{home_token(smtp)}").get_data(as_text=True)
    waiting = page[page.index('id="waiting"'):page.index('id="running"')]
    assert f'data-game="{first.id}"' in waiting and f'data-game="{second.id}"' in waiting
    assert f'data-game="{third.id}"' in page[page.index('id="running"'):]
    assert "Bob" in page and "Your move." in page


def test_me_answers_alike_for_every_address_and_mails_only_players(client, smtp):
    games_for_ann()
    mailer.send_due()
    before = Outbox.select().count()
    known = client.post("/me", data={"email": ANN})
    unknown = client.post("/me", data={"email": "nobody@example.org"})
    assert known.status_code == unknown.status_code == 200
    assert known.get_data() == unknown.get_data()
    assert Outbox.select().count() == before             # the mail worker looks them up
    mailer.send_due()
    assert Outbox.select().count() == before + 1
    again = client.post("/me", data={"email": ANN})       # asked again at once: no second mail
    mailer.send_due()
    assert again.status_code == 200 and Outbox.select().count() == before + 1
    for bad in ("", "not an address", "a@b", "x" * 300 + "@example.org", "a\r\nb@example.org"):
        assert client.post("/me", data={"email": bad}).status_code == 400
    assert Outbox.select().count() == before + 1
    assert client.get("/me").status_code == 200
    assert '<input type="email" name="email"' in client.get("/me").get_data(as_text=True)


def test_forged_home_links_are_refused(client, smtp):
    games_for_ann()
    mailer.send_due()
    token = home_token(smtp)
    assert client.get(f"/me/{token[:-2]}xx").status_code == 403
    other = home.issue("another-secret-key-of-enough-length!!", ANN)
    assert client.get(f"/me/{other}").status_code == 403
    assert client.post(f"/me/{token}x/settings", data={"language": "hu"}).status_code == 403


def test_play_now_opens_the_turn_and_spends_the_mailed_link(client, smtp):
    first, second, third = games_for_ann()
    mailer.send_due()
    second_mail = [m for m in smtp.inbox.messages if m["To"].lower() == ANN
                   and f"{second.title}" in smtp.inbox.text(m) and "/turn/" in smtp.inbox.text(m)]
    mailed = token_of(LINK.findall(smtp.inbox.text(second_mail[-1]))[-1])   # her link in game 2
    assert client.get(f"/api/turn/{mailed}").status_code == 200
    token = home_token(smtp)
    answer = client.post(f"/me/{token}/games/{second.id}/play")
    assert answer.status_code == 303 and "/turn/" in answer.headers["Location"]
    fresh = answer.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/turn/{fresh}").get_json()["game"] == second.id
    assert client.get(f"/api/turn/{mailed}").status_code == 410     # spent by the fresh one
    # not Ann's turn in the third game: no link, back to her view of it
    assert client.post(f"/me/{token}/games/{third.id}/play").headers["Location"].endswith(
        f"/me/{token}/games/{third.id}")
    # a game she does not play is not found
    stranger, _ = creation.create_game("duel", [{"name": "Bob", "email": BOB},
                                             {"name": "Cy", "email": CY}], seed=4)
    assert client.post(f"/me/{token}/games/{stranger.id}/play").status_code == 404
    assert client.get(f"/me/{token}/games/{stranger.id}").status_code == 404
    assert Link.select().where(Link.game == stranger, Link.seat == 0, Link.spent_at.is_null()).count() == 1


def test_her_own_hand_where_it_is_not_her_turn(client, smtp):
    first, second, third = games_for_ann()
    mailer.send_due()
    page = client.get(f"/me/{home_token(smtp)}/games/{third.id}").get_data(as_text=True)
    hand = store.rules_of(third).view(store.state_of(third), 1)["hand"]
    assert "Waiting for:" in page and all(str(card) in page for card in hand)
    bob_hand = store.state_of(third)["hands"][0]
    assert f"'hand': {bob_hand}" not in page and f'"hand": {bob_hand}' not in page


def test_settings_are_validated_and_saved(client, smtp):
    games_for_ann()
    mailer.send_due()
    token = home_token(smtp)
    for bad in ({"language": "xx", "mail_mode": "each", "digest_hour": "7"},
                {"language": "hu", "mail_mode": "often", "digest_hour": "7"},
                {"language": "hu", "mail_mode": "digest", "digest_hour": "24"},
                {"language": "hu", "mail_mode": "digest", "digest_hour": "٣"}):
        assert client.post(f"/me/{token}/settings", data=bad).status_code == 400
    assert PlayerSettings.select().count() == 0
    answer = client.post(f"/me/{token}/settings",
                         data={"language": "hu", "mail_mode": "digest", "digest_hour": "6"})
    assert answer.status_code == 303
    saved = PlayerSettings.get(PlayerSettings.email == ANN)
    assert (saved.mail_mode, saved.digest_hour) == ("digest", 6)
    assert {s.language for s in Seat.select().where(Seat.email.in_([ANN, "Ann@Example.org"]))} == {"hu"}


def test_the_digest_lists_every_waiting_game_once_a_day(client, smtp):
    PlayerSettings.create(email=ANN, mail_mode="digest", digest_hour=6)
    first, second, third = games_for_ann()
    mailer.send_due()
    assert not Outbox.select().where(Outbox.recipient.in_([ANN, "Ann@example.org"]),
                                     Outbox.kind == "turn").exists()      # no turn mails
    assert smtp.inbox.links_for(ANN) == []
    day = dt.datetime(2030, 5, 1, 5, 59)
    assert pace.run_pass(day)["digests"] == 0                 # before her hour
    assert pace.run_pass(day.replace(hour=6, minute=1))["digests"] == 1
    assert pace.run_pass(day.replace(hour=9))["digests"] == 0  # once a day
    mailer.send_due()
    [mail] = [m for m in smtp.inbox.to(ANN) if "wait for you" in m["Subject"]]
    text = smtp.inbox.text(mail)
    tokens = [token_of(link) for link in smtp.inbox.links_for(ANN)]
    assert len(tokens) == 2
    assert {client.get(f"/api/turn/{t}").get_json()["game"] for t in tokens} == {first.id, second.id}
    assert third.title in text or "Bob" in text
    assert digest.digest_pass(day + dt.timedelta(days=1, hours=1)) == 1   # the next day again


def test_vacation_from_the_home_page(client, smtp):
    games_for_ann()
    mailer.send_due()
    token = home_token(smtp)
    for bad in ("", "0", "-1", "1.5", "x", "٣", "400", "31"):
        assert client.post(f"/me/{token}/away", data={"days": bad}).status_code == 400, bad
    assert vacations.vacation(ANN)["away_until"] is None
    assert client.post(f"/me/{token}/away", data={"days": "5"}).status_code == 303
    assert vacations.vacation(ANN)["away_until"] is not None and vacations.vacation(ANN)["left"] == 25
    page = client.get(f"/me/{token}").get_data(as_text=True)
    assert "You are away until" in page
    assert client.post(f"/me/{token}/back").status_code == 303
    assert vacations.vacation(ANN)["away_until"] is None and vacations.vacation(ANN)["left"] > 29
    assert "Stop all mail to this address" in client.get(f"/me/{token}").get_data(as_text=True)
