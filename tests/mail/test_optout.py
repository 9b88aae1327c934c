"""Every mail carries a way to stop mail from this server (a signed link in the footer and the
List-Unsubscribe headers of RFC 8058); an opted-out address is sent nothing more. Mail to one
address is capped per day, and a host resends a link no more often than the renew interval."""
from __future__ import annotations

import datetime as dt
import re

from pbem.play import moves as playing
from pbem.play import creation
from pbem.mail import mailer
from pbem.log import store
from pbem.db.models import Outbox, OptOut, utcnow

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]
OPTOUT = re.compile(r"http://pbem\.test/optout/[A-Za-z0-9_.\-]+")


def test_every_mail_carries_the_opt_out_link_and_headers_through_smtp(app, smtp):
    creation.create_game("duel", PLAYERS, seed=3, host_email="host@example.org")
    assert mailer.send_due()["sent"] == 4
    for message in smtp.inbox.messages:
        header = message["List-Unsubscribe"].strip()
        assert re.fullmatch(r"<http://pbem\.test/optout/[A-Za-z0-9_.\-]+>", header), header
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        link = header[1:-1]
        assert link in smtp.inbox.text(message)
        html = message.get_body(preferencelist=("html",)).get_content()
        assert f'href="{link}"' in html
    ann = {m["List-Unsubscribe"] for m in smtp.inbox.to("ann@example.org")}
    bob = {m["List-Unsubscribe"] for m in smtp.inbox.to("bob@example.org")}
    # each mail its own link (the same in its body and its header), each address its own
    assert len(ann) == len(smtp.inbox.to("ann@example.org")) == 2 and not ann & bob


def test_opting_out_in_one_click_stops_every_mail_to_that_address(app, client, smtp):
    game, host_token = creation.create_game("duel", PLAYERS, seed=3)
    mailer.send_due()
    link = smtp.inbox.to("bob@example.org")[0]["List-Unsubscribe"].strip()[1:-1]
    path = link.replace("http://pbem.test", "")
    page = client.get(path)                        # scanners follow links: GET only asks
    assert page.status_code == 200 and "<form method=\"post\"" in page.get_data(as_text=True)
    assert OptOut.select().count() == 0
    playing.act(game.id, 0, store.rules_of(game).legal_actions(store.state_of(game), 0)[-1],
                 store.get_game(game.id).seq)     # queues a turn mail to Bob, before he opts out
    queued = Outbox.select().where(Outbox.recipient == "bob@example.org",
                                   Outbox.sent_at.is_null()).count()
    answer = client.post(path, data={"List-Unsubscribe": "One-Click"})   # RFC 8058, no token
    assert answer.status_code == 200 and OptOut.get().email == "bob@example.org"
    assert client.post(path).status_code == 200   # twice changes nothing
    before = len(smtp.inbox.to("bob@example.org"))
    mailer.send_due()
    assert len(smtp.inbox.to("bob@example.org")) == before
    skipped = Outbox.select().where(Outbox.recipient == "bob@example.org",
                                    Outbox.sent_at.is_null())
    assert queued >= 1 and all(r.failed_at and "opted out" in r.last_error for r in skipped)
    _play_until_bob_would_be_mailed(game)
    assert Outbox.select().where(Outbox.recipient == "bob@example.org",
                                 Outbox.created_at > OptOut.get().created_at).count() == 0
    mailer.send_due()
    assert len(smtp.inbox.to("bob@example.org")) == before
    page = client.get(f"/host/{host_token}").get_data(as_text=True)
    assert "opted out of all mail" in page


def _play_until_bob_would_be_mailed(game, moves=6):
    rules = store.rules_of(game)
    for _ in range(moves):
        game = store.get_game(game.id)
        state = store.state_of(game)
        if not rules.to_act(state):
            return
        seat = rules.to_act(state)[0]
        playing.act(game.id, seat, rules.legal_actions(state, seat)[-1], game.seq)


def test_an_opt_out_can_be_undone_from_its_own_page(app, client, smtp):
    game, _host = creation.create_game("duel", PLAYERS, seed=3)
    mailer.send_due()
    link = smtp.inbox.to("bob@example.org")[0]["List-Unsubscribe"].strip()[1:-1]
    path = link.replace("http://pbem.test", "")
    done = client.post(path).get_data(as_text=True)
    assert OptOut.select().count() == 1
    assert f'action="{path}/undo"' in done                 # a mistaken tap is not for good
    assert client.get(f"{path}/undo").status_code == 405      # scanners GET: nothing changes
    assert client.post("/optout/Ym9i.forged/undo").status_code == 404
    assert OptOut.select().count() == 1
    back = client.post(f"{path}/undo")
    assert back.status_code == 200 and "is on again" in back.get_data(as_text=True)
    assert OptOut.select().count() == 0
    before = len(smtp.inbox.to("bob@example.org"))
    _play_until_bob_would_be_mailed(game)
    mailer.send_due()
    assert len(smtp.inbox.to("bob@example.org")) > before        # mail flows again


def test_a_forged_opt_out_link_is_refused(client):
    assert client.get("/optout/bob@example.org").status_code == 404
    assert client.post("/optout/Ym9i.forged").status_code == 404
    assert OptOut.select().count() == 0


def test_mail_to_one_address_waits_beyond_its_daily_quota(app_with, smtp):
    app_with(smtp.port, MAILS_PER_RECIPIENT_PER_DAY=2)
    for _ in range(2):
        creation.create_game("duel", PLAYERS, seed=3)   # Ann: an invitation and a turn; Bob: one
    assert mailer.send_due() == {"sent": 4, "retry": 0, "failed": 0}
    assert len(smtp.inbox.to("ann@example.org")) == 2
    held = list(Outbox.select().where(Outbox.sent_at.is_null()))
    assert len(held) == 2 and all(r.failed_at is None and "held" in r.last_error for r in held)
    assert all(r.next_try_at > utcnow() + dt.timedelta(hours=23) for r in held)
    assert mailer.send_due(now=utcnow() + dt.timedelta(days=1, minutes=1))["sent"] == 2
    assert len(smtp.inbox.to("ann@example.org")) == 4 and len(smtp.inbox.messages) == 6


def test_a_host_resends_no_more_often_than_the_renew_interval(app, client, smtp):
    game, host_token = creation.create_game("duel", PLAYERS, seed=3)
    seat = store.rules_of(game).to_act(store.state_of(game))[0]
    assert client.post(f"/host/{host_token}/resend/{seat}").status_code == 303
    again = client.post(f"/host/{host_token}/resend/{seat}")
    assert again.status_code == 429 and "try again in 5 minutes" in again.get_data(as_text=True)
    assert Outbox.select().where(Outbox.kind == "link").count() == 1
