"""Host powers match docs/game-hosts.md: a default move or a hand-over only for a seat whose
deadline passed, or without a pace after PBEM_HOST_WAIT_DAYS; each host move is its own log line;
every host mail carries the host link; the host's home page lists the games they host; a
hand-over can be undone; a player hears of more time; each choice is confirmed on the page that
follows. Real SMTP sink, controlled clock."""
from __future__ import annotations

import datetime as dt
import html

import pytest

from pbem.db.models import Event, Game, Outbox, Seat
from pbem.log import lines, store
from pbem.mail import mailer
from pbem.play import choices, clock, home, pace
from pbem.play import hosting, vacations
from pbem.play import moves as playing
from pbem.play import creation
from tests.conftest import token_of

DAY = dt.timedelta(days=1)
HOST = "host@example.org"
PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}]


def new_game(on_timeout="wait", days=1.0, drop_after=3):
    pace_ = {"days": days, "on_timeout": on_timeout, "drop_after": drop_after} if days else None
    game, token = creation.create_game("duel", PLAYERS, {"rounds": 3}, seed=3, host_email=HOST,
                                      pace=pace_)
    return game, token


def seat(game, index) -> Seat:
    return Seat.get(Seat.game == game.id, Seat.index == index)


def events(game):
    return list(Event.select().where(Event.game == game.id, Event.seq > 0).order_by(Event.seq))


def written(game):
    """Everything a refused host action must leave as it was."""
    game = Game.get_by_id(game.id)
    return (game.seq, game.head_hash, Outbox.select().count(),
            [(s.dropped, s.handed_over, s.missed, s.late_at, s.deadline)
             for s in game.seats.order_by(Seat.index)])


# -- refusals before the deadline --------------------------------------------------------------

def test_default_and_hand_over_are_refused_before_the_deadline_and_nothing_is_written(app):
    game, _ = new_game("wait", days=2)
    asked = seat(game, 0).asked_at
    before = written(game)
    for action in (hosting.play_default_once, hosting.hand_over):
        with pytest.raises(hosting.TooEarly) as refused:
            action(game.id, 0, now=asked + DAY)
        assert refused.value.paced and refused.value.when == asked + 2 * DAY
        assert "Ann's deadline has not passed" in str(refused.value)
    assert written(game) == before
    hosting.play_default_once(game.id, 0, now=asked + 2 * DAY + dt.timedelta(seconds=1))
    assert len(events(game)) == 1


def test_a_paused_clock_refuses_the_host_too(app):
    game, _ = new_game("wait", days=1)
    asked = seat(game, 0).asked_at
    hosting.pause(game.id, now=asked + dt.timedelta(hours=12))
    with pytest.raises(hosting.TooEarly) as refused:
        hosting.hand_over(game.id, 0, now=asked + 3 * DAY)     # the deadline waits while paused
    assert refused.value.held == "paused"
    hosting.resume(game.id, now=asked + 3 * DAY)
    with pytest.raises(hosting.TooEarly):                      # 12 hours of the day are left
        hosting.hand_over(game.id, 0, now=asked + 3 * DAY + dt.timedelta(hours=11))
    hosting.hand_over(game.id, 0, now=asked + 3 * DAY + dt.timedelta(hours=13))
    assert seat(game, 0).handed_over


def test_without_a_pace_the_host_waits_host_wait_days(app):
    app.config["HOST_WAIT_DAYS"] = 3
    game, _ = new_game(days=None)
    asked = seat(game, 0).asked_at
    before = written(game)
    with pytest.raises(hosting.TooEarly) as refused:
        hosting.play_default_once(game.id, 0, now=asked + 2 * DAY)
    assert not refused.value.paced and refused.value.when == asked + 3 * DAY
    with pytest.raises(hosting.TooEarly):
        hosting.hand_over(game.id, 0, now=asked + 2 * DAY)
    assert written(game) == before
    with pytest.raises(pace.PaceError):
        hosting.extend(game.id, 0, now=asked + 4 * DAY)       # no deadline to move
    hosting.play_default_once(game.id, 0, now=asked + 3 * DAY)
    assert len(events(game)) == 1 and store.verify(store.get_game(game.id)) == []


def test_the_default_setting_is_seven_days():
    from pbem import config
    assert config.DEFAULTS["HOST_WAIT_DAYS"] == 7
    assert config.from_environment({"PBEM_HOST_WAIT_DAYS": "2"})["HOST_WAIT_DAYS"] == 2


# -- log lines ----------------------------------------------------------------------------------

def test_each_host_move_is_its_own_log_line(app, client, smtp):
    game, token = new_game("wait", days=1)
    asked = seat(game, 0).asked_at
    late = asked + DAY + dt.timedelta(minutes=1)
    pace.run_pass(late)
    hosting.play_default_once(game.id, 0, now=late)
    first = events(game)[0]
    assert first.seat == 0 and first.timeout
    assert first.summary.endswith("(played by the host for {p0})"), first.summary
    hungarian = lines.text(game, first, "hu")        # nobody at this table reads Hungarian
    assert first.summaries == {} and "{p0}" in hungarian and hungarian != first.summary
    page = client.get(f"/games/{game.id}?lang=en").get_data(as_text=True)
    page = html.unescape(page)
    assert "(played by the host for Ann)" in page and "(played at the deadline)" not in page

    bob = seat(game, 1)                     # Bob, now asked, misses his deadline: handed over
    pace.run_pass(bob.deadline + dt.timedelta(minutes=1))
    hosting.hand_over(game.id, 1, now=bob.deadline + dt.timedelta(minutes=1))
    marked = [e.summary for e in events(game) if e.seat == 1 and e.timeout]
    assert marked and all(line.endswith("(played by default: the host handed {p1}'s moves "
                                        "over)") for line in marked), marked
    assert not any("(played at the deadline)" in e.summary for e in events(game))
    assert store.verify(store.get_game(game.id)) == []


def test_a_seat_dropped_after_misses_says_so_not_the_deadline(app):
    game, _ = new_game("auto", days=1, drop_after=1)
    pace.run_pass(seat(game, 0).deadline + dt.timedelta(seconds=1))
    assert seat(game, 0).dropped and not seat(game, 0).handed_over
    first = events(game)[0]
    assert first.summary.endswith("(played at the deadline)")       # the miss itself
    later = [e for e in events(game)[1:] if e.seat == 0 and e.timeout]
    for event in later:                                              # at once, as asked
        assert event.summary.endswith("(played by default for an absent player)")


def test_the_markers_survive_export_and_import(app):
    from pbem.play import records
    game, _ = new_game("wait", days=1)
    late = seat(game, 0).asked_at + DAY + dt.timedelta(minutes=1)
    hosting.play_default_once(game.id, 0, now=late)
    game = store.get_game(game.id)
    copy = records.import_game(records.export_game(game))
    assert [e.summaries for e in events(copy)] == [e.summaries for e in events(game)]
    assert store.verify(copy) == []


# -- the host's way back ------------------------------------------------------------------------

def host_links(text: str) -> list[str]:
    return [part.split()[0].rstrip(").,") for part in text.split("/host/")[1:]]


def test_every_host_mail_carries_the_live_host_link(app, client, smtp):
    game, token = new_game("auto", days=1, drop_after=1)
    pace.run_pass(seat(game, 0).deadline + dt.timedelta(seconds=1))     # Ann dropped at once
    mailer.send_due()
    to_host = smtp.inbox.to(HOST)
    subjects = [m["Subject"] for m in to_host]
    assert len(to_host) == 2 and "Ann now plays by default moves" in subjects[1], subjects
    for message in to_host:
        found = set(host_links(smtp.inbox.text(message)))
        assert len(found) == 1, message["Subject"]
        assert client.get(f"/host/{found.pop()}").status_code == 200, message["Subject"]
    # no mail row keeps a host token: each is rendered with the game's live host link
    assert all("host_token" not in (row.context or {}) for row in Outbox.select())
    # issued anew, the old links stop, and the next host mail carries the new one
    from pbem.play import hosting
    hosting.reissue_host_link(store.get_game(game.id), mail=True)
    mailer.send_due()
    (fresh,) = set(host_links(smtp.inbox.text(smtp.inbox.to(HOST)[-1])))
    assert client.get(f"/host/{token}").status_code == 403
    assert client.get(f"/host/{fresh}").status_code == 200


def test_a_late_notice_under_wait_carries_the_host_link(app, client, smtp):
    game, _ = new_game("wait", days=1)
    pace.run_pass(seat(game, 0).deadline + dt.timedelta(seconds=1))
    mailer.send_due()
    late = [m for m in smtp.inbox.to(HOST) if "missed a deadline" in m["Subject"]]
    assert len(late) == 1
    text = smtp.inbox.text(late[0])
    assert "the link in the mail that made you the host" not in text
    (token,) = set(host_links(text))
    assert "Give more time" in client.get(f"/host/{token}").get_data(as_text=True)


def home_token(smtp, address):
    text = smtp.inbox.text(smtp.inbox.to(address)[-1])
    return text.split("/me/")[1].split()[0]


def test_the_hosts_home_lists_the_games_they_host_and_mails_the_host_link(app, client, smtp):
    app.config["RENEW_INTERVAL"] = 300
    game, _ = new_game("wait", days=1)
    other, _ = creation.create_game("duel", PLAYERS, {"rounds": 3}, seed=4,
                                   host_email="someone@example.org")
    assert home.has_games(HOST)                 # a host who plays nothing gets a home link
    pace.run_pass(seat(game, 0).deadline + dt.timedelta(seconds=1))
    mailer.send_due()
    me = home_token(smtp, HOST)
    page = client.get(f"/me/{me}?lang=en").get_data(as_text=True)
    assert "Games you host" in page and f'data-game="{game.id}"' in page
    assert f'data-game="{other.id}"' not in page
    assert "late, you choose what happens: Ann" in page
    assert "/host/" not in page                 # a forwarded home link opens no host page
    mailed = len(smtp.inbox.to(HOST))
    answer = client.post(f"/me/{me}/hosted/{game.id}/link")
    assert answer.status_code == 303
    follow = client.get(answer.headers["Location"] + "&lang=en").get_data(as_text=True)
    assert "was emailed to you" in follow
    mailer.send_due()
    assert len(smtp.inbox.to(HOST)) == mailed + 1
    (token,) = set(host_links(smtp.inbox.text(smtp.inbox.to(HOST)[-1])))
    assert client.get(f"/host/{token}").status_code == 200
    again = client.post(f"/me/{me}/hosted/{game.id}/link?lang=en")
    assert again.status_code == 429 and "a few minutes ago" in again.get_data(as_text=True)
    assert client.post(f"/me/{me}/hosted/{other.id}/link").status_code == 404
    assert client.post(f"/me/{me}/hosted/99999/link").status_code == 404
    mailer.send_due()
    assert len(smtp.inbox.to(HOST)) == mailed + 1


# -- the host page: states, undo, confirmations, more time ---------------------------------------

def make_late(game, index):
    """The seat's deadline passed a minute ago (pages use the real clock), and the pass saw it."""
    now = clock.utcnow()
    Seat.update(asked_at=now - 2 * DAY, remind_at=now - DAY, deadline=now - dt.timedelta(
        minutes=1)).where(Seat.game == game.id, Seat.index == index).execute()
    pace.run_pass(now)


def host_token_of(smtp):
    mailer.send_due()
    (token,) = set(host_links(smtp.inbox.text(smtp.inbox.to(HOST)[0])))
    return token


def test_give_more_time_mails_the_player_and_the_page_confirms(app, client, smtp):
    game, _ = new_game("wait", days=2)
    token = host_token_of(smtp)
    make_late(game, 0)
    answer = client.post(f"/host/{token}/pace/extend/0")
    assert answer.status_code == 303 and "done=extended" in answer.headers["Location"]
    page = client.get(answer.headers["Location"] + "&lang=en").get_data(as_text=True)
    assert "Ann has more time: the new deadline is" in page and "Ann was told by email." in page
    mailer.send_due()
    told = [m for m in smtp.inbox.to("ann@example.org")
            if "gave you more time" in smtp.inbox.text(m)]
    assert len(told) == 1
    deadline = clock.clock_of(store.get_game(game.id), seat(game, 0)).deadline
    from pbem.present.times import when
    with app.test_request_context("/?lang=en"):
        assert when(deadline) in smtp.inbox.text(told[0])


def test_refusals_on_the_host_page_say_why(app, client, smtp):
    game, _ = new_game("wait", days=2)
    token = host_token_of(smtp)
    before = written(game)
    for what in ("default", "handover"):
        answer = client.post(f"/host/{token}/pace/{what}/0?lang=en")
        assert answer.status_code == 409
        assert "Ann's deadline has not passed: this can be done from" in \
            html.unescape(answer.get_data(as_text=True))
    assert written(game) == before
    page = client.get(f"/host/{token}?lang=en").get_data(as_text=True)
    assert "Play the default move once" not in page
    assert "You may play their default move or hand their moves over from" in page


def test_hand_over_shows_on_the_page_and_can_be_undone(app, client, smtp):
    game, _ = new_game("wait", days=1)
    token = host_token_of(smtp)
    make_late(game, 0)
    answer = client.post(f"/host/{token}/pace/handover/0")
    assert answer.status_code == 303
    page = client.get(answer.headers["Location"] + "&lang=en").get_data(as_text=True)
    assert "From now on Ann's default moves are played for them" in html.unescape(page)
    assert "handed over: default moves are played for them" in page
    assert "Undo the hand-over" in page
    mailer.send_due()
    assert any("has handed your moves over" in smtp.inbox.text(m)
               for m in smtp.inbox.to("ann@example.org"))
    answer = client.post(f"/host/{token}/pace/undo/0")
    assert answer.status_code == 303
    page = client.get(answer.headers["Location"] + "&lang=en").get_data(as_text=True)
    assert "Ann plays their own moves again. Ann was told by email." in page
    assert not seat(game, 0).dropped and not seat(game, 0).handed_over
    assert "Undo the hand-over" not in page
    assert client.post(f"/host/{token}/pace/undo/0").status_code == 409    # nothing to undo
    mailer.send_due()
    assert "given your seat back" in smtp.inbox.text(smtp.inbox.to("ann@example.org")[-1])


def test_undo_while_the_seat_is_asked_starts_its_clock_and_mails_its_turn(app, smtp):
    game, _ = new_game("wait", days=1)
    late = seat(game, 0).deadline + dt.timedelta(seconds=1)
    hosting.hand_over(game.id, 0, now=late)            # Ann's default is played: Bob is asked
    hosting.pause(game.id, now=late)                   # no default moves while paused
    game = store.get_game(game.id)
    rules = store.rules_of(game)
    while 0 not in rules.to_act(store.state_of(game)):      # Bob blocks, then attacks Ann
        state = store.state_of(game)
        playing.act(game.id, 1, rules.legal_actions(state, 1)[0], game.seq)
        game = store.get_game(game.id)
    assert 0 in rules.to_act(store.state_of(game)) and seat(game, 0).handed_over
    mailer.send_due()
    count = len(smtp.inbox.to("ann@example.org"))
    hosting.undo_hand_over(game.id, 0, now=late + DAY)
    assert seat(game, 0).asked_at == late + DAY and not seat(game, 0).dropped
    mailer.send_due()
    ann = smtp.inbox.to("ann@example.org")
    assert len(ann) == count + 1 and "/turn/" in smtp.inbox.text(ann[-1])


def test_the_host_page_marks_dropped_away_and_opted_out_seats(app, client, smtp):
    game, _ = new_game("auto", days=1, drop_after=1)
    token = host_token_of(smtp)
    make_late(game, 0)
    vacations.go_away("bob@example.org", 5)
    choices.opt_out("bob@example.org")
    page = client.get(f"/host/{token}?lang=en").get_data(as_text=True)
    assert "dropped after 1 missed deadline: default moves are played for them" in page
    assert "away until" in page and "opted out of all mail" in page


def test_the_hosts_home_says_what_needs_them_in_both_languages(app, client, smtp):
    game, _ = new_game("auto", days=1, drop_after=1)
    quiet, _ = new_game("wait", days=3)
    pace.run_pass(seat(game, 0).deadline + dt.timedelta(seconds=1))     # Ann dropped
    hosting.pause(game.id)
    mailer.send_due()
    me = home_token(smtp, HOST)
    page = client.get(f"/me/{me}?lang=en").get_data(as_text=True)
    entry = page.split(f'data-game="{game.id}"')[1].split("</li>")[0]
    assert "default moves played for: Ann" in entry and "paused" in entry
    other = page.split(f'data-game="{quiet.id}"')[1].split("</li>")[0]
    assert "Nothing needs you now." in other
    hu = client.get(f"/me/{me}?lang=hu").get_data(as_text=True)
    assert "Játékok, amelyeknek a házigazdája vagy" in hu and "szünetel" in hu
