"""A digest that keeps the pace: it lists each game's deadline (the one in
force, as the API reports it); a turn or reminder whose deadline would pass before the next
digest is mailed at once, the others ride in the digest; switching back to one mail per turn
mails the games waiting. Real SMTP sink; the pace pass is run at chosen moments."""
from __future__ import annotations

import datetime as dt

from flask_babel import force_locale

from pbem.db.models import Outbox, PlayerSettings, Seat, utcnow
from pbem.mail import mailer
from pbem.play import announce, clock, home, pace
from pbem.play import creation
from tests.conftest import token_of

ANN, BOB = "ann@example.org", "bob@example.org"
DAY = dt.timedelta(days=1)


def ann_on_the_digest(hour: int, last_on=None) -> None:
    PlayerSettings.create(email=ANN, mail_mode="digest", digest_hour=hour, last_digest_on=last_on,
                          created_at=utcnow())


def game_for_ann(days: float, seed: int = 1):
    """A duel with a pace in which Ann (seat 0) is asked first."""
    game, _ = creation.create_game("duel", [{"name": "Ann", "email": ANN},
                                           {"name": "Bob", "email": BOB}], seed=seed,
                                  pace={"days": days, "on_timeout": "wait", "drop_after": 3})
    ann = Seat.get(Seat.game == game.id, Seat.index == 0)
    assert ann.asked_at is not None
    return game, ann


def mails(kind, recipient=ANN):
    return list(Outbox.select().where(Outbox.kind == kind, Outbox.recipient == recipient))


def medium(app, moment) -> str:
    with force_locale("en"):
        return app.jinja_env.filters["datetimeformat"](moment, "medium")


def test_the_digest_lists_each_deadline_as_the_api_reports_it(app, client, smtp):
    ann_on_the_digest(hour=0)
    game, ann = game_for_ann(days=3)
    slow, _ = game_for_ann(days=5, seed=2)
    assert mails("turn") == []                       # both deadlines are after the next digest
    later = utcnow() + DAY                           # her hour (0) has come that day
    assert pace.run_pass(later)["digests"] == 1
    mailer.send_due()
    [digest] = [m for m in smtp.inbox.to(ANN) if "wait for you" in m["Subject"]]
    text = smtp.inbox.text(digest)
    for link in smtp.inbox.links_for(ANN):
        answer = client.get(f"/api/turn/{token_of(link)}").get_json()
        deadline = dt.datetime.fromisoformat(answer["deadlines"]["0"].rstrip("Z"))
        assert f"Please move by {medium(app, deadline)} (UTC)." in text, text
    assert text.count("Please move by") == 2
    assert "is mailed to you at once" in text                       # the rule, in the mail


def test_a_turn_whose_deadline_comes_before_the_next_digest_is_mailed_at_once(app, smtp):
    now = utcnow()
    ann_on_the_digest(hour=(now.hour + 12) % 24, last_on=now.date())   # 12 to 36 hours away
    quick, _ = game_for_ann(days=0.25)                                 # 6 hours
    slow, _ = game_for_ann(days=3, seed=2)
    assert [m.game_id for m in mails("turn")] == [quick.id]
    mailer.send_due()
    assert len(smtp.inbox.links_for(ANN)) == 1


def test_a_reminder_rides_in_the_digest_unless_the_deadline_comes_first(app, smtp):
    game, ann = game_for_ann(days=3)                 # mailed per turn when it began
    mailer.send_due()
    first = len(smtp.inbox.links_for(ANN))
    at = ann.remind_at + dt.timedelta(minutes=5)
    ann_on_the_digest(hour=at.hour)                  # the digest goes out in this very pass
    counts = pace.run_pass(at)
    assert counts["reminders"] == 1 and counts["digests"] == 1
    assert mails("reminder") == [] and Seat.get_by_id(ann.id).reminded_at is not None
    mailer.send_due()
    [message] = [m for m in smtp.inbox.to(ANN) if "wait for your move" in smtp.inbox.text(m)]
    assert len(smtp.inbox.links_for(ANN)) == first + 1   # the digest's, no reminder of its own
    assert "Reminder:" in smtp.inbox.text(message) and "Please move by" in smtp.inbox.text(message)

    # another game: today's digest went out already, the next one is after the deadline
    other, ann_again = game_for_ann(days=3, seed=2)
    at = ann_again.remind_at + dt.timedelta(minutes=5)
    PlayerSettings.update(digest_hour=at.hour, last_digest_on=at.date()).execute()
    pace.run_pass(at)
    assert [m.game_id for m in mails("reminder")] == [other.id]


def test_switching_back_to_a_mail_per_turn_mails_the_waiting_games(app, client, smtp):
    ann_on_the_digest(hour=7)
    first, _ = game_for_ann(days=3)
    second, _ = game_for_ann(days=3, seed=2)
    mailer.send_due()
    assert smtp.inbox.links_for(ANN) == []
    token = home.issue(app.config["SECRET_KEY"], ANN)
    answer = client.post(f"/me/{token}/settings",
                         data={"language": "en", "mail_mode": "each", "digest_hour": "7"})
    assert answer.status_code == 303
    mailer.send_due()
    links = smtp.inbox.links_for(ANN)
    assert {client.get(f"/api/turn/{token_of(link)}").get_json()["game"] for link in links} \
        == {first.id, second.id}
    # saving the same choice again mails nothing more
    client.post(f"/me/{token}/settings",
                data={"language": "en", "mail_mode": "each", "digest_hour": "7"})
    assert len(mails("turn")) == 2
    assert announce.mailed_now(first, Seat.get(Seat.game == first.id, Seat.index == 0),
                               utcnow()) is True
    assert clock.clock_of(first, Seat.get(Seat.game == first.id, Seat.index == 0)) is not None
