"""/new answers the same whether or not
an address opted out, and the first mail to an address that never played here has a fixed
subject and names the host's address. Real SMTP sink; SQLite and PostgreSQL."""
from __future__ import annotations

import re

import pytest

from pbem.db.models import Game, Outbox
from pbem.mail import mailer
from pbem.play import creation
from pbem.play import choices
from pbem.present import action_key
from tests.conftest import token_of

CONFIRM = re.compile(r"http://pbem\.test(/new/confirm/[A-Za-z0-9_.\-]+)")


def form(host, **extra):
    return {"rules": "duel", "title": "Free money inside!!!", "name0": "Ann",
            "email0": "ann@example.org", "name1": "Bob", "email1": "bob@example.org",
            "host_email": host, **extra}


@pytest.fixture
def production(app_with, smtp):
    return app_with(smtp.port, SIGNUP_CONFIRM=True)


def test_new_answers_the_same_for_an_opted_out_address(production, smtp):
    client = production.test_client()
    plain = client.post("/new", data=form("host@example.org"))
    choices.opt_out("Bob@Example.org")
    choices.opt_out("quiet-host@example.org")
    for host in ("other@example.org", "quiet-host@example.org"):
        answer = client.post("/new", data=form(host))
        assert (answer.status_code, answer.headers["Location"]) == \
            (plain.status_code, plain.headers["Location"])
        assert client.get(answer.headers["Location"]).get_data() == \
            client.get(plain.headers["Location"]).get_data()
    mailer.send_due()
    # the opted-out host was sent nothing; the others their confirmation
    assert sorted(m["To"] for m in smtp.inbox.messages) == ["host@example.org",
                                                             "other@example.org"]
    # once confirmed, the game starts and the opted-out player is simply sent nothing
    path = CONFIRM.search(smtp.inbox.text(smtp.inbox.to("other@example.org")[0])).group(1)
    assert client.post(path).status_code == 303
    mailer.send_due()
    assert smtp.inbox.to("bob@example.org") == [] and smtp.inbox.to("ann@example.org")
    assert Game.select().count() == 1


def test_the_first_mail_to_a_new_address_has_a_fixed_subject_and_the_hosts_address(
        app, client, smtp):
    game, _ = creation.create_game("duel", [{"name": "Ann", "email": "ann@example.org"},
                                           {"name": "Bob", "email": "bob@example.org"}],
                                  seed=2, title="Free money inside!!!",
                                  host_email="host@example.org")
    mailer.send_due()
    for address in ("ann@example.org", "bob@example.org"):
        invite = smtp.inbox.to(address)[0]
        assert invite["Subject"] == "[pbem] An invitation to play Duel (test game) by email"
        assert "Free money" not in invite["Subject"]
        assert smtp.inbox.headline(invite).startswith(
            "host@example.org invites you to play Duel (test game) by email.")
        assert "host@example.org" in invite.get_body(preferencelist=("html",)).get_content()
    # Ann plays a move of her own: her next invitation names the game as its host wrote it
    token = token_of(smtp.inbox.last_link("ann@example.org"))
    payload = client.get(f"/api/turn/{token}").get_json()
    client.post(f"/turn/{token}", data={"seq": str(payload["seq"]),
                                        "action": action_key(payload["actions"][0])})
    creation.create_game("duel", [{"name": "Ann", "email": "ann@example.org"},
                                 {"name": "Cy", "email": "cy@example.org"}],
                        seed=3, title="Friday game", host_email="host@example.org")
    mailer.send_due()
    ann_second = [m for m in smtp.inbox.to("ann@example.org") if "Friday game" in m["Subject"]]
    assert ann_second and "Friday game" in ann_second[0]["Subject"]
    cy = smtp.inbox.to("cy@example.org")[0]
    assert cy["Subject"] == "[pbem] An invitation to play Duel (test game) by email"
    assert Outbox.select().where(Outbox.kind == "invite").count() == 4
