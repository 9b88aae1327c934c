"""Asking for a fresh link, under the game's lock.

32 parallel renews of one seat against gunicorn (4 workers) send at most one mail and leave
exactly one live link; only the seat's newest link may ask, and a young live link is never
spent."""
from __future__ import annotations

import datetime as dt
import threading

import requests

from pbem.play import creation
from pbem.mail import mailer
from pbem.log import store
from pbem.db.models import Link, Outbox, utcnow
from tests.conftest import free_port, token_of
from tests.support.gunicorn_server import Gunicorn

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]
PARALLEL = 32


def age_links(game, seconds: int, expired: bool = False) -> None:
    """Make the game's links `seconds` old (and expired, if asked), as time would."""
    then = utcnow() - dt.timedelta(seconds=seconds)
    Link.update(created_at=then).where(Link.game == game).execute()
    if expired:
        Link.update(expires_at=then).where(Link.game == game).execute()


def live_links(game, seat: int) -> list[Link]:
    return list(Link.select().where(Link.game == game, Link.seat == seat,
                                    Link.spent_at.is_null()))


def link_mails(game) -> int:
    return Outbox.select().where(Outbox.game == game, Outbox.kind == "link").count()


def started(smtp):
    game, _ = creation.create_game("duel", PLAYERS, seed=3)
    mailer.send_due()
    return game, token_of(smtp.inbox.last_link("ann@example.org"))


def test_parallel_renews_send_one_mail_and_leave_one_live_link(app, smtp, database_url):
    game, token = started(smtp)
    age_links(game, 3600, expired=True)
    env = {"PBEM_DATABASE_URL": database_url, "PBEM_SECRET_KEY": app.config["SECRET_KEY"],
           "PBEM_BASE_URL": "http://pbem.test", "PBEM_MAIL_PORT": str(smtp.port),
           "PBEM_RENEW_INTERVAL": "300"}
    with Gunicorn(free_port(), env, workers=4) as server:
        barrier = threading.Barrier(PARALLEL)
        answers = []

        def renew():
            barrier.wait()
            answer = requests.post(f"{server.url}/turn/{token}/renew", timeout=60)
            answers.append(answer.status_code)

        threads = [threading.Thread(target=renew) for _ in range(PARALLEL)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert sorted(answers)[0] == 200 and answers.count(200) == 1, (answers, server.output[-3000:])
    assert set(answers) <= {200, 410, 429}, answers
    assert "Traceback" not in server.output, server.output
    assert link_mails(game) == 1
    assert len(live_links(game, 0)) == 1


def test_an_older_link_cannot_spend_the_newest(app, client, smtp):
    game, first = started(smtp)
    age_links(game, 3600, expired=True)
    assert client.post(f"/turn/{first}/renew").status_code == 200
    mailer.send_due()
    second = token_of(smtp.inbox.last_link("ann@example.org"))
    assert second != first
    age_links(game, 3600)                      # the renew interval has long passed
    live = live_links(game, 0)
    answer = client.post(f"/turn/{first}/renew")
    assert answer.status_code == 410
    assert "newer link" in answer.get_data(as_text=True)
    assert [link.id for link in live_links(game, 0)] == [link.id for link in live]
    assert link_mails(game) == 1
    assert client.get(f"/api/turn/{second}").status_code == 200
    # the spent first link's page does not offer a renew it would refuse
    assert "Email me a fresh link" not in client.get(f"/turn/{first}").get_data(as_text=True)


def test_a_young_live_link_is_never_spent(app, client, smtp):
    game, token = started(smtp)
    live = live_links(game, 0)
    answer = client.post(f"/turn/{token}/renew")
    assert answer.status_code == 429
    assert [link.id for link in live_links(game, 0)] == [link.id for link in live]
    assert link_mails(game) == 0


def test_the_newest_link_expired_may_ask_again_after_the_interval(app, client, smtp):
    game, token = started(smtp)
    age_links(game, 3600, expired=True)
    page = client.get(f"/turn/{token}").get_data(as_text=True)
    assert "Email me a fresh link" in page
    assert client.post(f"/turn/{token}/renew").status_code == 200
    assert client.post(f"/turn/{token}/renew").status_code == 410     # no longer the newest
    assert link_mails(game) == 1 and len(live_links(game, 0)) == 1
