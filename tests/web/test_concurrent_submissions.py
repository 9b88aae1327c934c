"""32 parallel submissions of one link against gunicorn with 4 workers: the database decides."""
from __future__ import annotations

import threading

import requests

from pbem.play import creation
from pbem.mail import mailer
from pbem.log import store
from pbem.db.models import Event
from tests.conftest import free_port, token_of
from tests.support.gunicorn_server import Gunicorn

SUBMISSIONS = 32


def test_parallel_submissions_of_one_link_make_exactly_one_event(app, smtp, database_url):
    game, _ = creation.create_game("duel", [{"name": "Ann", "email": "ann@example.org"},
                                         {"name": "Bob", "email": "bob@example.org"}], seed=3)
    mailer.send_due()
    token = token_of(smtp.inbox.last_link("ann@example.org"))
    env = {"PBEM_DATABASE_URL": database_url, "PBEM_SECRET_KEY": app.config["SECRET_KEY"],
           "PBEM_BASE_URL": "http://pbem.test", "PBEM_MAIL_PORT": str(smtp.port)}
    with Gunicorn(free_port(), env, workers=4) as server:
        page = requests.get(f"{server.url}/api/turn/{token}", timeout=60).json()
        body = {"seq": page["seq"], "action": page["actions"][0]}
        barrier = threading.Barrier(SUBMISSIONS)
        answers = []

        def submit():
            barrier.wait()
            answer = requests.post(f"{server.url}/api/turn/{token}", json=body, timeout=60)
            answers.append((answer.status_code, answer.text))

        threads = [threading.Thread(target=submit) for _ in range(SUBMISSIONS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    statuses = sorted(status for status, _ in answers)
    assert statuses == [200] + [409] * (SUBMISSIONS - 1), answers
    assert all("already played" in text for status, text in answers if status == 409)
    assert "locked" not in server.output and "Traceback" not in server.output
    assert Event.select().where(Event.game == game, Event.seq > 0,
                                Event.automatic == False).count() == 1  # noqa: E712
