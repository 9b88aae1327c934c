"""Check-then-insert under load: 32 parallel talk posts, /me requests and
first vacations, each thread with its own connection (PostgreSQL's READ COMMITTED let 7-8
messages past a limit of 6, up to 5 home mails an interval, and 500s from a UniqueViolation).
And /me does the same work for every address (item 7): the lookup waits for the mail worker."""
from __future__ import annotations

import re
import threading

from pbem.db.models import HomeRequest, Message, Outbox, Vacation, db
from pbem.mail import mailer
from pbem.play import fresh, talk
from pbem.play import creation
from tests.conftest import token_of

PARALLEL = 32
PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]
HOME = re.compile(r"http://pbem\.test/me/[A-Za-z0-9_.\-]+")


def in_parallel(app, work) -> list:
    """`work(i)` in PARALLEL threads released at once, each in its own app context with its
    own database connection; what each returned (or raised)."""
    barrier = threading.Barrier(PARALLEL, timeout=120)
    results = [None] * PARALLEL
    if not db.is_closed():
        db.close()              # back to the pool: its 32 connections are the threads'

    def run(i):
        with app.app_context():
            try:
                db.connect(reuse_if_open=True)
            except Exception as exc:  # noqa: BLE001 - no connection: nobody waits for this one
                barrier.abort()
                results[i] = exc
                return
            try:
                barrier.wait()
                results[i] = work(i)
            except Exception as exc:  # noqa: BLE001 - the test looks at every outcome
                results[i] = exc
            finally:
                if not db.is_closed():
                    db.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(PARALLEL)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    db.connect(reuse_if_open=True)
    return results


def game_with_mail(smtp):
    game, _ = creation.create_game("duel", PLAYERS, seed=3)
    mailer.send_due()
    return game


def test_32_parallel_talk_posts_keep_the_limit(app, smtp):
    game = game_with_mail(smtp)
    token = token_of(smtp.inbox.last_link("ann@example.org"))
    statuses = in_parallel(app, lambda i: app.test_client().post(
        f"/turn/{token}/messages", data={"text": f"message {i}"}).status_code)
    assert sorted(statuses) == [303] * talk.RATE_COUNT + [429] * (PARALLEL - talk.RATE_COUNT)
    assert Message.select().where(Message.game == game.id).count() == talk.RATE_COUNT


def test_32_parallel_first_vacations_make_one(app, smtp):
    game_with_mail(smtp)
    home = token_of(HOME.search(smtp.inbox.text(smtp.inbox.to("ann@example.org")[0])).group(0))
    statuses = in_parallel(app, lambda i: app.test_client().post(
        f"/me/{home}/away", data={"days": "3"}).status_code)
    assert sorted(statuses) == [303] + [400] * (PARALLEL - 1), statuses
    [row] = Vacation.select()
    assert row.used_days == 3


def test_32_parallel_me_requests_mail_one_home_link(app, smtp):
    game_with_mail(smtp)
    before = Outbox.select().where(Outbox.kind == "home").count()
    statuses = in_parallel(app, lambda i: app.test_client().post(
        "/me", data={"email": "ANN@example.org" if i % 2 else "ann@example.org"}).status_code)
    assert statuses == [200] * PARALLEL
    assert HomeRequest.select().count() == 1
    in_parallel(app, lambda i: mailer.send_due())        # every worker at once
    assert Outbox.select().where(Outbox.kind == "home").count() == before + 1
    # and the limiter itself, asked by 32 at once: one mail an interval
    in_parallel(app, lambda i: fresh.home_link("bob@example.org", "en"))
    assert Outbox.select().where(Outbox.kind == "home",
                                 Outbox.recipient == "bob@example.org").count() == 1


def test_me_does_the_same_work_for_every_address(app, smtp):
    """The same statements, in the same order, for a player's address and a stranger's (the
    lookup is the mail worker's); then only the player is mailed."""
    game_with_mail(smtp)
    client = app.test_client()
    seen: list[str] = []
    execute = db.obj.execute_sql if hasattr(db, "obj") else db.execute_sql

    def recording(sql, params=None, *args, **kwargs):
        seen.append(sql)
        return execute(sql, params, *args, **kwargs)

    target = db.obj if hasattr(db, "obj") else db
    statements, answers = {}, {}
    for address in ("ann@example.org", "nobody@example.org"):
        seen.clear()
        target.execute_sql = recording
        try:
            answers[address] = client.post("/me", data={"email": address}).get_data()
        finally:
            del target.execute_sql
        statements[address] = list(seen)
    assert statements["ann@example.org"] == statements["nobody@example.org"]
    assert any("home_request" in sql for sql in statements["ann@example.org"])
    assert not any("seat" in sql.lower() for sql in statements["ann@example.org"])
    assert answers["ann@example.org"] == answers["nobody@example.org"]
    mailer.send_due()
    assert [m["To"] for m in smtp.inbox.messages if ".home." in m["Message-ID"]] == \
        ["ann@example.org"]
    assert HomeRequest.select().count() == 0

