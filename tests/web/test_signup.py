"""/new is not a mail relay: in production it mails only the host's own address, whose link's
page (GET changes nothing) has the button (POST) that starts the game; sign-ups are limited per
host address and per client address in the database; operators can close /new altogether."""
from __future__ import annotations

import re
import time

import pytest

from pbem.mail import mailer
from pbem.db.models import Game, Outbox, Signup

CONFIRM = re.compile(r"http://pbem\.test(/new/confirm/[A-Za-z0-9_.\-]+)")


def form(host="host@example.org", **extra):
    return {"rules": "duel", "name0": "Ann", "email0": "ann@example.org", "name1": "Bob",
            "email1": "bob@example.org", "host_email": host, **extra}


@pytest.fixture
def production(app_with, smtp):
    """An app that confirms sign-ups by mail, as production does."""
    return app_with(smtp.port, SIGNUP_CONFIRM=True)


def test_new_mails_only_the_host_and_the_confirmed_link_starts_the_game(production, smtp):
    client = production.test_client()
    answer = client.post("/new", data=form())
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/new/sent")
    assert client.get("/new/sent").status_code == 200
    assert Game.select().count() == 0
    assert [(r.recipient, r.kind) for r in Outbox.select()] == [("host@example.org", "confirm")]
    mailer.send_due()
    assert [m["To"] for m in smtp.inbox.messages] == ["host@example.org"]
    path = CONFIRM.search(smtp.inbox.text(smtp.inbox.messages[0])).group(1)

    for _ in range(2):                       # a mail scanner follows the link: nothing happens
        page = client.get(path)
        assert page.status_code == 200 and 'method="post"' in page.get_data(as_text=True)
    assert Game.select().count() == 0 and Outbox.select().count() == 1

    started = client.post(path)
    assert started.status_code == 303 and "/host/" in started.headers["Location"]
    host_page = client.get(started.headers["Location"])
    assert host_page.status_code == 200
    assert "The game is created" in host_page.get_data(as_text=True)
    assert client.get(started.headers["Location"]).status_code == 200   # a reload
    assert Game.select().count() == 1
    mailer.send_due()
    assert {m["To"] for m in smtp.inbox.messages} == {"host@example.org", "ann@example.org",
                                                     "bob@example.org"}
    mails = len(smtp.inbox.messages)
    again = client.post(path)                # a second click starts nothing more
    assert again.status_code == 200 and "started already" in again.get_data(as_text=True)
    mailer.send_due()
    assert Game.select().count() == 1 and len(smtp.inbox.messages) == mails


def test_in_production_the_host_address_is_required(production):
    answer = production.test_client().post("/new", data=form(host=""))
    assert answer.status_code == 400 and "host&#39;s address is missing" in answer.get_data(as_text=True)
    assert Signup.select().count() == 0 and Outbox.select().count() == 0


def test_confirmation_links_are_signed_and_expire(app_with, smtp):
    app = app_with(smtp.port, SIGNUP_CONFIRM=True, SIGNUP_MAX_AGE=1)
    client = app.test_client()
    client.post("/new", data=form())
    mailer.send_due()
    path = CONFIRM.search(smtp.inbox.text(smtp.inbox.messages[0])).group(1)
    assert client.get(path[:-3] + "abc").status_code == 403
    assert client.post(path[:-3] + "abc").status_code == 403
    time.sleep(2.1)
    assert client.get(path).status_code == 410
    assert client.post(path).status_code == 410
    assert Game.select().count() == 0


def test_sign_ups_are_limited_per_host_and_per_client_across_workers(app_with, smtp):
    limits = {"SIGNUP_CONFIRM": True, "GAMES_PER_HOST_PER_DAY": 2, "GAMES_PER_CLIENT_PER_DAY": 3}
    workers = [app_with(smtp.port, **limits).test_client() for _ in range(2)]   # one database
    assert workers[0].post("/new", data=form()).status_code == 303
    assert workers[1].post("/new", data=form()).status_code == 303
    third = workers[0].post("/new", data=form())
    assert third.status_code == 429 and "try again tomorrow" in third.get_data(as_text=True)
    assert workers[1].post("/new", data=form(host="other@example.org")).status_code == 303
    fourth = workers[1].post("/new", data=form(host="third@example.org"))
    assert fourth.status_code == 429 and "your network" in fourth.get_data(as_text=True)
    assert Outbox.select().count() == 3


def test_the_client_address_comes_from_the_proxy_only_when_configured(app_with, smtp):
    limits = {"SIGNUP_CONFIRM": True, "GAMES_PER_CLIENT_PER_DAY": 1}
    direct = app_with(smtp.port, **limits).test_client()
    assert direct.post("/new", data=form("a@example.org"),
                       headers={"X-Forwarded-For": "192.0.2.1"}).status_code == 303
    forged = direct.post("/new", data=form("b@example.org"), headers={"X-Forwarded-For": "192.0.2.2"})
    assert forged.status_code == 429          # a forged header does not make a new client
    behind_nginx = app_with(smtp.port, PROXIES=1, **limits).test_client()
    assert behind_nginx.post("/new", data=form("c@example.org"),
                             headers={"X-Forwarded-For": "192.0.2.3"}).status_code == 303
    assert behind_nginx.post("/new", data=form("d@example.org"),
                             headers={"X-Forwarded-For": "192.0.2.3"}).status_code == 429


def test_operators_can_close_new(app_with, smtp):
    client = app_with(smtp.port, OPEN_SIGNUP=False).test_client()
    page = client.get("/new")
    assert "pbem games create" in page.get_data(as_text=True) and 'name="name0"' not in \
        page.get_data(as_text=True)
    assert client.post("/new", data=form()).status_code == 403
    assert Game.select().count() == 0 and Outbox.select().count() == 0


def test_development_keeps_the_one_step_form_and_a_reload_starts_nothing(client, smtp):
    answer = client.post("/new", data=form())
    location = answer.headers["Location"]
    assert answer.status_code == 303 and "/host/" in location and "created=1" in location
    for _ in range(2):
        assert "The game is created" in client.get(location).get_data(as_text=True)
    assert Game.select().count() == 1
    assert mailer.send_due()["sent"] == 4


def test_confirmation_is_on_in_production_and_off_in_development(database_url, monkeypatch):
    from pbem.app import create_app
    monkeypatch.delenv("PBEM_SIGNUP_CONFIRM", raising=False)
    base = {"DATABASE_URL": database_url, "SECRET_KEY": "Zq8wR2xk3Vn9LpT4sY6bHc1JmG5fD7aE0uW-_QiXoP"}
    assert create_app({**base, "ENV": "production"}).config["SIGNUP_CONFIRM"] is True
    assert create_app({**base, "ENV": "development"}).config["SIGNUP_CONFIRM"] is False
    monkeypatch.setenv("PBEM_SIGNUP_CONFIRM", "false")
    assert create_app({**base, "ENV": "production"}).config["SIGNUP_CONFIRM"] is False


def test_the_form_names_each_seat_and_says_what_to_fill_when_seats_are_empty(client, smtp):
    page = client.get("/new").get_data(as_text=True)
    assert all(f"<legend>Seat {n}" in page for n in (1, 2, 3, 4))
    empty = client.post("/new", data={"rules": "tigris", "host_email": ""})
    assert empty.status_code == 400
    assert "Every seat is empty" in empty.get_data(as_text=True)
    one = client.post("/new", data={"rules": "tigris", "name0": "Ann",
                                    "email0": "ann@example.org"})
    assert one.status_code == 400
    text = one.get_data(as_text=True)
    assert "takes at least 2 players: fill 1 more seat" in text and "computer" in text
    magyar = client.post("/new?lang=hu", data={"rules": "tigris"}).get_data(as_text=True)
    assert "Minden hely üres" in magyar
    computers_only = client.post("/new?lang=en", data={"rules": "tigris", "seat0": "bot1",
                                                       "seat1": "bot2"})
    assert "does not play alone" in computers_only.get_data(as_text=True)
    assert Game.select().count() == 0 and mailer.send_due()["sent"] == 0
