"""A time zone chosen on the home page: saved when the IANA name is known, refused
(400, nothing saved) otherwise; mails to that address then write each moment in the zone too,
next to UTC; an address without a zone gets its mails as before. Real SMTP sink; SQLite and
PostgreSQL."""
from __future__ import annotations

import datetime as dt
import zoneinfo

from flask_babel import force_locale

from pbem.db.models import PlayerSettings, Seat, utcnow
from pbem.mail import mailer
from pbem.play import creation
from tests.web.test_home import home_token

ANN, BOB = "ann@example.org", "bob@example.org"


def paced_game(first: dict, second: dict, seed: int = 1):
    """A duel with a pace of 3 days: `first` (seat 0) is asked at once, with a deadline."""
    game, _ = creation.create_game("duel", [first, second], seed=seed,
                                  pace={"days": 3, "on_timeout": "wait", "drop_after": 3})
    seat = Seat.get(Seat.game == game.id, Seat.index == 0)
    assert seat.deadline is not None
    return game, seat


def written(app, moment, language="en") -> str:
    with force_locale(language):
        return app.jinja_env.filters["datetimeformat"](moment)


def there(moment: dt.datetime, zone: str) -> dt.datetime:
    return (moment.replace(tzinfo=dt.timezone.utc).astimezone(zoneinfo.ZoneInfo(zone))
            .replace(tzinfo=None))


def test_a_zone_is_saved_and_a_bad_one_is_refused(client, smtp):
    paced_game({"name": "Ann", "email": ANN}, {"name": "Bob", "email": BOB})
    mailer.send_due()
    token = home_token(smtp)
    page = client.get(f"/me/{token}").get_data(as_text=True)
    assert 'name="time_zone"' in page and 'value=""' in page and "data-from-browser" in page
    assert "/static/home.js" in page and "<script>" not in page      # the CSP allows no inline
    assert client.get("/static/home.js").status_code == 200

    form = {"language": "en", "mail_mode": "digest", "digest_hour": "6"}
    for bad in ("Mars/Olympus_Mons", "../../../etc/passwd", "/usr/share/zoneinfo/UTC",
                "Europe/" + "x" * 60, "x" * 10_000, "europe/budapest", "Europe/Budapest\x00"):
        answer = client.post(f"/me/{token}/settings", data={**form, "time_zone": bad})
        assert answer.status_code == 400, bad
        assert "There is no time zone called" in answer.get_data(as_text=True)
    assert PlayerSettings.select().count() == 0                       # nothing saved

    answer = client.post(f"/me/{token}/settings", data={**form, "mail_mode": "each",
                                                         "time_zone": "Europe/Budapest"})
    assert answer.status_code == 303
    saved = PlayerSettings.get(PlayerSettings.email == ANN)
    assert (saved.time_zone, saved.mail_mode) == ("Europe/Budapest", "each")
    page = client.get(f"/me/{token}").get_data(as_text=True)
    assert 'value="Europe/Budapest"' in page and "data-from-browser" not in page

    answer = client.post(f"/me/{token}/settings", data={**form, "time_zone": "Asia/Tokyo/x"})
    assert answer.status_code == 400
    saved = PlayerSettings.get(PlayerSettings.email == ANN)
    assert (saved.time_zone, saved.mail_mode) == ("Europe/Budapest", "each")   # as it was

    # a form without the field keeps the zone; an empty field chooses none
    assert client.post(f"/me/{token}/settings", data=form).status_code == 303
    assert PlayerSettings.get(PlayerSettings.email == ANN).time_zone == "Europe/Budapest"
    assert client.post(f"/me/{token}/settings",
                       data={**form, "time_zone": ""}).status_code == 303
    assert PlayerSettings.get(PlayerSettings.email == ANN).time_zone == ""


def test_a_turn_mail_shows_the_deadline_in_the_readers_zone_next_to_utc(app, smtp):
    zone = "America/New_York"
    PlayerSettings.create(email=ANN, time_zone=zone, created_at=utcnow())
    _, ann = paced_game({"name": "Ann", "email": "Ann@Example.org"}, {"name": "Bob", "email": BOB})
    _, bob = paced_game({"name": "Bob", "email": BOB}, {"name": "Ann", "email": ANN}, seed=2)
    mailer.send_due()

    [to_ann] = [m for m in smtp.inbox.to("Ann@example.org") if "Please move by" in smtp.inbox.text(m)]
    text = smtp.inbox.text(to_ann)
    utc, local = written(app, ann.deadline), written(app, there(ann.deadline, zone))
    assert utc != local
    assert f"Please move by {utc} (UTC). In your time zone ({zone}): {local}." in text, text
    assert f"In your time zone ({zone}): {local}." in to_ann.get_body(("html",)).get_content()

    [to_bob] = [m for m in smtp.inbox.to(BOB) if "Please move by" in smtp.inbox.text(m)]
    text = smtp.inbox.text(to_bob)
    assert (f"Please move by {written(app, bob.deadline)} (UTC). A reminder comes when three "
            "quarters of the time have passed.") in text, text
    assert "time zone" not in text and "America/" not in text


def test_the_local_time_reads_in_hungarian(app, smtp):
    zone = "Asia/Tokyo"
    PlayerSettings.create(email=BOB, time_zone=zone, created_at=utcnow())
    _, bob = paced_game({"name": "Bob", "email": BOB, "language": "hu"},
                        {"name": "Ann", "email": ANN})
    mailer.send_due()
    [to_bob] = [m for m in smtp.inbox.to(BOB) if "lépj eddig" in smtp.inbox.text(m)]
    text = smtp.inbox.text(to_bob)
    utc, local = written(app, bob.deadline, "hu"), written(app, there(bob.deadline, zone), "hu")
    assert f"Kérjük, lépj eddig: {utc} (UTC). A te időzónádban ({zone}): {local}." in text, text


def test_the_turn_and_host_pages_write_the_deadline_in_their_readers_zone(app, client, smtp):
    """The turn page is its seat's: the deadline is also written in the zone that seat's address
    chose; the host page in the host's. A reader without a zone reads UTC alone, and nobody
    reads another player's zone."""
    from tests.conftest import token_of
    zone, host_zone = "Asia/Tokyo", "America/Los_Angeles"
    PlayerSettings.create(email=ANN, time_zone=zone, created_at=utcnow())
    PlayerSettings.create(email="host@example.org", time_zone=host_zone, created_at=utcnow())
    game, host_token = creation.create_game(
        "duel", [{"name": "Ann", "email": ANN}, {"name": "Bob", "email": BOB}], seed=1,
        host_email="host@example.org", pace={"days": 3, "on_timeout": "wait", "drop_after": 3})
    deadline = Seat.get(Seat.game == game.id, Seat.index == 0).deadline
    mailer.send_due()
    utc = written(app, deadline)

    ann_page = client.get(f"/turn/{token_of(smtp.inbox.last_link(ANN))}").get_data(as_text=True)
    assert f"Deadline: {utc} (UTC). In your time zone ({zone}): " \
           f"{written(app, there(deadline, zone))}." in ann_page, ann_page
    public = client.get(f"/games/{game.id}").get_data(as_text=True)     # a reader with no zone
    assert f"Deadline: {utc} (UTC)." in public and "In your time zone" not in public
    assert zone not in public

    host_page = client.get(f"/host/{host_token}").get_data(as_text=True)
    assert f"Deadline: {utc} (UTC). In your time zone ({host_zone}): " \
           f"{written(app, there(deadline, host_zone))}." in host_page, host_page
    assert zone not in host_page
