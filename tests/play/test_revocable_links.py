"""Every credential can be revoked and lives no longer than it must: home
links carry a generation that "new link" and the host's revoke bump; the revoke spends the
seat's turn links and mails fresh ones; opt-out links are per mail and expire; an old turn
link's read-only pages show what its seat saw then; "I am back" needs the seat's newest link.
Mails go through a real SMTP server; SQLite and, with PBEM_TEST_DATABASE_URL, PostgreSQL."""
from __future__ import annotations

import datetime as dt
import re
import threading

import pytest

from pbem.db.models import Event, HomeKey, Link, Message, OptOut, Outbox, Seat, utcnow
from pbem.log import store
from pbem.mail import mailer
from pbem.play import creation
from pbem.play import optout, pace
from pbem.present import action_key
from tests.conftest import set_link_ages, token_of

ANN, BOB = "ann@example.org", "bob@example.org"
PLAYERS = [{"name": "Ann", "email": ANN}, {"name": "Bob", "email": BOB}]
HOME = re.compile(r"http://pbem\.test/me/[A-Za-z0-9_.\-]+")
OPTOUT = re.compile(r"http://pbem\.test/optout/[A-Za-z0-9_.\-]+")


@pytest.fixture
def hosted(app, smtp):
    """A running duel with a host: (game, host token); its first mails sent."""
    game, host_token = creation.create_game("duel", PLAYERS, seed=2, options={"rounds": 3},
                                           host_email="host@example.org")
    mailer.send_due()
    return game, host_token


def home_tokens(smtp, address=ANN) -> list[str]:
    return [token_of(link) for m in smtp.inbox.to(address)
            for link in HOME.findall(smtp.inbox.text(m))]


def turn_token(smtp, address=ANN) -> str:
    return token_of(smtp.inbox.last_link(address))


def writes() -> tuple:
    """What a refused request must leave as it was."""
    return (Link.select().count(), Event.select().count(), Outbox.select().count(),
            Seat.select().where(Seat.dropped == True).count())  # noqa: E712


def play_first(client, token):
    payload = client.get(f"/api/turn/{token}").get_json()
    return client.post(f"/turn/{token}", data={"seq": str(payload["seq"]),
                                               "action": action_key(payload["actions"][0])})


# -- home links ---------------------------------------------------------------------------------

def test_new_home_link_stops_every_older_one_and_mails_a_fresh_one(hosted, client, smtp):
    game, _ = hosted
    forwarded = home_tokens(smtp)[-1]
    assert client.get(f"/me/{forwarded}").status_code == 200
    assert 'action="/me/' + forwarded + '/new-link"' in client.get(f"/me/{forwarded}").get_data(
        as_text=True)
    answer = client.post(f"/me/{forwarded}/new-link")
    assert answer.status_code == 200
    assert "Every older link" in answer.get_data(as_text=True)
    assert forwarded not in answer.get_data(as_text=True)       # the new one is mailed, not shown
    old = client.get(f"/me/{forwarded}")
    assert old.status_code == 410 and "replaced by a newer one" in old.get_data(as_text=True)
    before = writes()
    refused = client.post(f"/me/{forwarded}/games/{game.id}/play")
    assert refused.status_code == 410 and writes() == before      # nothing written
    for path in (f"/me/{forwarded}/settings", f"/me/{forwarded}/away",
                 f"/me/{forwarded}/games/{game.id}/messages", f"/me/{forwarded}/new-link"):
        assert client.post(path, data={"text": "hi", "days": "3", "language": "hu",
                                       "mail_mode": "each", "digest_hour": "7"}).status_code == 410
    assert client.get(f"/me/{forwarded}/games/{game.id}").status_code == 410
    assert writes() == before
    mailer.send_due()
    fresh = home_tokens(smtp)[-1]
    assert fresh != forwarded
    assert client.get(f"/me/{fresh}").status_code == 200
    played = client.post(f"/me/{fresh}/games/{game.id}/play")
    assert played.status_code == 303 and "/turn/" in played.headers["Location"]


def test_a_second_new_link_within_the_interval_changes_nothing(hosted, client, smtp):
    first = home_tokens(smtp)[-1]
    client.post(f"/me/{first}/new-link")
    mailer.send_due()
    second = home_tokens(smtp)[-1]
    mails = Outbox.select().count()
    assert client.post(f"/me/{second}/new-link").status_code == 200     # within the interval
    assert Outbox.select().count() == mails
    assert client.get(f"/me/{second}").status_code == 200              # still the one that works


def test_parallel_new_links_bump_once_and_mail_once(hosted, app, smtp, database_url):
    token = home_tokens(smtp)[-1]
    mails = Outbox.select().where(Outbox.kind == "home").count()
    answers, barrier = [], threading.Barrier(8)

    def press():
        with app.app_context():
            client = app.test_client()
            barrier.wait()
            answers.append(client.post(f"/me/{token}/new-link").status_code)

    threads = [threading.Thread(target=press) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers.count(200) + answers.count(410) == 8 and 200 in answers
    assert HomeKey.get(HomeKey.email == ANN).generation == 1
    assert Outbox.select().where(Outbox.kind == "home").count() == mails + 1


def test_each_mail_carries_a_home_link_of_the_current_generation(hosted, client, smtp):
    game, host_token = hosted
    old = home_tokens(smtp)[-1]
    client.post(f"/host/{host_token}/revoke/0")
    mailer.send_due()
    newest = home_tokens(smtp)[-1]
    assert client.get(f"/me/{old}").status_code == 410
    assert client.get(f"/me/{newest}").status_code == 200
    # the next mail (Bob's, then Ann's next turn) carries a working one again
    play_first(client, turn_token(smtp))
    mailer.send_due()
    play_first(client, turn_token(smtp, BOB))
    mailer.send_due()
    assert client.get(f"/me/{home_tokens(smtp)[-1]}").status_code == 200


def test_home_links_live_thirty_days(app):
    assert app.config["HOME_LINK_MAX_AGE"] == 30 * 24 * 3600


# -- the host's revoke --------------------------------------------------------------------------

def test_revoke_stops_a_forwarded_mail_and_mails_fresh_links(hosted, client, smtp):
    game, host_token = hosted
    turn, home_link = turn_token(smtp), home_tokens(smtp)[-1]       # a forwarded mail's links
    mails_before = len(smtp.inbox.to(ANN))
    assert client.post(f"/host/{host_token}/revoke/0").status_code == 303
    before = writes()
    page = client.get(f"/turn/{turn}")
    text = page.get_data(as_text=True)
    assert page.status_code == 410 and "The host revoked this link on" in text
    assert "A new link was emailed to you then." in text
    assert client.get(f"/me/{home_link}").status_code == 410
    assert client.post(f"/me/{home_link}/games/{game.id}/play").status_code == 410
    assert client.post(f"/api/turn/{turn}", json={"seq": game.seq, "action": {"type": "yield"}}
                       ).status_code == 410
    assert client.get(f"/replay/{turn}").status_code == 410
    assert client.get(f"/turn/{turn}/done").status_code == 410
    assert writes() == before                                       # nothing written
    mailer.send_due()
    assert len(smtp.inbox.to(ANN)) == mails_before + 1              # one mail: link + home link
    new_turn, new_home = turn_token(smtp), home_tokens(smtp)[-1]
    assert new_turn != turn and new_home != home_link
    assert client.get(f"/turn/{new_turn}").status_code == 200
    assert client.get(f"/me/{new_home}").status_code == 200
    assert play_first(client, new_turn).status_code == 303


def test_revoke_of_a_seat_not_to_act_mails_the_new_home_link(hosted, client, smtp):
    game, host_token = hosted
    bob_home = home_tokens(smtp, BOB)[-1]
    count = len(smtp.inbox.to(BOB))
    client.post(f"/host/{host_token}/revoke/1")                     # Bob waits for Ann
    mailer.send_due()
    assert len(smtp.inbox.to(BOB)) == count + 1
    assert client.get(f"/me/{bob_home}").status_code == 410
    assert client.get(f"/me/{home_tokens(smtp, BOB)[-1]}").status_code == 200


# -- opt-out links --------------------------------------------------------------------------------

def test_opt_out_links_are_per_mail_and_expire(hosted, app, client, smtp):
    links_of_ann = [OPTOUT.search(smtp.inbox.text(m)).group(0) for m in smtp.inbox.to(ANN)]
    assert len(set(links_of_ann)) == len(links_of_ann) >= 2         # one per mail
    for message in smtp.inbox.to(ANN):                               # RFC 8058: the same link
        assert message["List-Unsubscribe"].strip()[1:-1] == OPTOUT.search(
            smtp.inbox.text(message)).group(0)
    path = links_of_ann[-1].replace("http://pbem.test", "")
    set_link_ages(app, optout_link_max_age=0)                           # every link is too old now
    assert client.get(path).status_code == 410
    assert client.post(path).status_code == 410
    assert OptOut.select().count() == 0                             # nothing written
    set_link_ages(app, optout_link_max_age=3600)
    one_click = client.post(path, data={"List-Unsubscribe": "One-Click"})
    assert one_click.status_code == 200 and optout.is_opted_out(ANN)
    old_form = "/optout/" + __import__("itsdangerous").URLSafeSerializer(
        app.config["SECRET_KEY"], salt="pbem.opt-out.v1").dumps(BOB)
    assert client.post(old_form).status_code == 404 and not optout.is_opted_out(BOB)


# -- read-only pages of an older link -------------------------------------------------------------

def test_an_old_links_page_shows_what_the_seat_saw_then(hosted, client, smtp):
    game, _ = hosted
    ann_first = turn_token(smtp)
    play_first(client, ann_first)                                  # Ann attacks: 2 cards left
    then = store.state_of(store.get_game(game.id))["hands"][0]
    mailer.send_due()
    play_first(client, turn_token(smtp, BOB))                      # Bob answers: Ann draws
    now = store.state_of(store.get_game(game.id))["hands"][0]
    assert len(then) == 2 and len(now) == 3
    # while it is her newest link, its page is where the game stands for her
    current = client.get(f"/turn/{ann_first}/done").get_data(as_text=True)
    assert f"<dt>hand</dt><dd>{now}</dd>" in current and 'id="frozen"' not in current
    mailer.send_due()
    play_first(client, turn_token(smtp, BOB))                      # Bob attacks: Ann is
    mailer.send_due()                                              # sent a newer link
    assert turn_token(smtp) != ann_first
    assert store.state_of(store.get_game(game.id))["hands"][0] == now
    page = client.get(f"/turn/{ann_first}/done")
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "as it stood at move 1" in text and "the game is now at move 3" in text
    assert f"<dt>hand</dt><dd>{then}</dd>" in text                 # what she saw then
    assert f"<dt>hand</dt><dd>{now}</dd>" not in text              # not what she holds now
    home_page = client.get(f"/me/{home_tokens(smtp)[-1]}/games/{game.id}").get_data(as_text=True)
    assert f"<dt>hand</dt><dd>{now}</dd>" in home_page            # her own home page shows it
    # the old link's replay stops at the move it was spent at
    replay = client.get(f"/replay/{ann_first}?step=2").get_data(as_text=True)
    assert f"<dd>{then}</dd>" in replay and f"<dd>{now}</dd>" not in replay
    answer = Event.get(Event.game == game, Event.seq == 2).summary
    answer = answer.replace("{p0}", "Ann").replace("{p1}", "Bob")
    assert answer not in replay and "Ann attacked Bob" in replay


# -- I am back ----------------------------------------------------------------------------------

def test_back_needs_the_seats_newest_link(hosted, app, client, smtp):
    game, host_token = hosted
    old = turn_token(smtp)
    client.post(f"/host/{host_token}/revoke/0")                    # old is revoked now
    mailer.send_due()
    newest = turn_token(smtp)
    Seat.update(dropped=True, missed=3).where(Seat.game == game, Seat.index == 0).execute()
    before = writes()
    assert client.post(f"/turn/{old}/back").status_code == 410     # revoked
    assert writes() == before
    set_link_ages(app, link_max_age=-1)
    assert client.post(f"/turn/{newest}/back").status_code == 410  # expired
    assert writes() == before
    set_link_ages(app, link_max_age=3600)
    assert client.post(f"/turn/{newest}/back").status_code == 200
    assert not Seat.get(Seat.game == game, Seat.index == 0).dropped


def test_back_through_a_replaced_link_is_refused(hosted, client, smtp):
    game, host_token = hosted
    old = turn_token(smtp)
    client.post(f"/host/{host_token}/resend/0")
    Seat.update(dropped=True, missed=3).where(Seat.game == game, Seat.index == 0).execute()
    assert client.post(f"/turn/{old}/back").status_code == 410
    assert Seat.get(Seat.game == game, Seat.index == 0).dropped


def test_renew_through_an_old_link_does_not_bring_a_dropped_seat_back(hosted, client, smtp):
    game, host_token = hosted
    old = turn_token(smtp)
    client.post(f"/host/{host_token}/revoke/0")
    Seat.update(dropped=True, missed=3).where(Seat.game == game, Seat.index == 0).execute()
    client.post(f"/turn/{old}/renew")
    assert Seat.get(Seat.game == game, Seat.index == 0).dropped


def test_the_calendar_feed_outlives_the_home_page_but_not_a_new_link(hosted, app, client, smtp):
    token = home_tokens(smtp)[-1]
    set_link_ages(app, home_link_max_age=-1)            # the home page's link is too old now
    assert client.get(f"/me/{token}").status_code == 410
    assert client.get(f"/me/{token}/calendar.ics").status_code == 200
    set_link_ages(app, home_link_max_age=30 * 24 * 3600)
    client.post(f"/me/{token}/new-link")
    assert client.get(f"/me/{token}/calendar.ics").status_code == 410


def test_only_the_seats_newest_link_may_post_table_talk(hosted, client, smtp):
    game, host_token = hosted
    old = turn_token(smtp)
    client.post(f"/host/{host_token}/resend/0")                    # a newer link is mailed
    mailer.send_due()
    newest = turn_token(smtp)
    before = Message.select().count()
    assert client.post(f"/turn/{old}/messages", data={"text": "forged"}).status_code == 410
    assert client.post(f"/api/turn/{old}/messages", json={"text": "forged"}).status_code == 410
    assert Message.select().count() == before
    assert 'action="/turn/' + old + '/messages"' not in client.get(
        f"/replay/{old}").get_data(as_text=True)
    assert client.post(f"/api/turn/{newest}/messages", json={"text": "hi"}).status_code == 201
    client.post(f"/host/{host_token}/revoke/0")
    assert client.post(f"/api/turn/{newest}/messages", json={"text": "x"}).status_code == 410


def test_the_host_may_revoke_a_waiting_seat_and_its_old_pages_stop(hosted, client, smtp):
    game, host_token = hosted
    bob_home = home_tokens(smtp, BOB)[-1]
    page = client.get(f"/host/{host_token}").get_data(as_text=True)
    assert f'action="/host/{host_token}/revoke/1"' in page          # Bob has no live link
    client.post(f"/host/{host_token}/revoke/1")
    assert client.get(f"/me/{bob_home}").status_code == 410
