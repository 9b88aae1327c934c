"""Small truths of the weeks: `players back` and `mail send` print true, readable
figures; "What your move did" lists every action of the turn; the home page counts the other
players' messages; host-page mail rows say which mail each is; the card game's holdings lines
read well when no leader is left in the supply; every time is written one way, in the
reader's language."""
from __future__ import annotations

import datetime as dt
import json
import re

from flask_babel import force_locale

from pbem.db.models import Seat
from pbem.log import store
from pbem.mail import context, mailer
from pbem.play import clock, links, talk
from pbem.play import vacations
from pbem.play import home as home_link
from pbem.play import creation
from pbem.present import presenter_for
from pbem.present import seat as seat_view
from pbem.present.times import when

ANN, BOB = "ann@example.org", "bob@example.org"
PLAYERS = [{"name": "Ann", "email": ANN}, {"name": "Bob", "email": BOB}]


def test_players_back_prints_a_rounded_number_of_days(app):
    runner = app.test_cli_runner()
    assert runner.invoke(args=["players", "away", ANN, "3"]).exit_code == 0
    out = runner.invoke(args=["players", "back", ANN])
    assert out.exit_code == 0, out.output
    assert "vacation ended; 30 vacation days left" in out.output, out.output
    assert not re.search(r"\d\.\d{2,}", out.output)
    assert vacations.days_text(26.9987) == "27" and vacations.days_text(2.54) == "2.5"


def test_mail_send_counts_the_seats_dropped(app, smtp):
    game, _ = creation.create_game("duel", PLAYERS, {"rounds": 3}, seed=3,
                                  pace={"days": 1, "on_timeout": "auto", "drop_after": 1})
    ann = Seat.get(Seat.game == game.id, Seat.index == 0)
    later = ann.deadline + dt.timedelta(minutes=1)
    out = app.test_cli_runner().invoke(args=["mail", "send", "--now", later.isoformat()])
    assert out.exit_code == 0, out.output
    assert "1 timeout moves" in out.output and "1 dropped" in out.output, out.output


def card_game():
    game, _ = creation.create_game("tigris_cards", PLAYERS, seed=3)
    return game, store.state_of(game)["active"]


def test_what_your_move_did_lists_every_action_of_the_turn(app, client):
    game, start = card_game()
    token = links.issue(app.config["SECRET_KEY"], game, start, 3600)
    for _ in range(2):                          # both actions of the turn: pass, pass
        seq = store.get_game(game.id).seq
        answer = client.post(f"/turn/{token}", data={"seq": str(seq),
                                                     "action": json.dumps({"type": "pass"})})
        assert answer.status_code == 303
    assert "/done?done=" in answer.headers["Location"]
    page = client.get(answer.headers["Location"]).get_data(as_text=True)
    done = page.split('class="done"')[1].split("</ul>")[0]
    assert done.count("passed an action") == 2, done


def test_the_home_page_counts_only_the_others_messages(app):
    game, _ = creation.create_game("duel", PLAYERS, {"rounds": 3}, seed=3)
    talk.post(game.id, 0, "good luck")
    entries = {s.index: seat_view.home_entry(s) for s in Seat.select().where(Seat.game == game.id)}
    assert entries[0]["messages"] == 0 and entries[1]["messages"] == 1
    talk.post(game.id, 1, "thanks")
    entries = {s.index: seat_view.home_entry(s) for s in Seat.select().where(Seat.game == game.id)}
    assert entries[0]["messages"] == 1 and entries[1]["messages"] == 1


def test_host_page_mail_rows_say_which_mail_each_is(app, client, smtp):
    creation.create_game("duel", PLAYERS, {"rounds": 3}, seed=3, host_email="host@example.org")
    mailer.send_due()
    body = smtp.inbox.text(smtp.inbox.to("host@example.org")[0])
    page = client.get("/host/" + body.split("/host/")[1].split()[0]).get_data(as_text=True)
    mail = page.split(">Mail<")[1].split("</table>")[0]
    cells = re.findall(r"<tr[^>]*><td>[^<]*</td><td>([^<]*)</td>", mail)
    assert {"Invitation", "Turn mail", "Host link"} <= set(cells), cells


def test_the_card_games_holdings_lines_without_leaders_in_the_supply(app):
    game, start = card_game()
    rules = store.rules_of(game)
    view = rules.view(store.state_of(game), start)
    view["supply"][start] = []                  # every leader on the table
    presenter = presenter_for("tigris_cards")
    with app.test_request_context():
        lines = context.holdings_lines(presenter, view=view, seat=start,
                                       names=store.names_of(game))
    assert "Your leaders: none in your supply" in lines, lines
    assert "You still hold your catastrophe card." in lines
    assert not any("–" in line or "· catastrophe" in line for line in lines), lines


def test_one_time_format_in_the_readers_language_on_pages_and_in_mails(app, client, smtp):
    game, _ = creation.create_game("duel", PLAYERS, {"rounds": 3}, seed=3,
                                  pace={"days": 2, "on_timeout": "wait", "drop_after": 3})
    Seat.update(language="hu").where(Seat.game == game.id, Seat.index == 1).execute()
    mailer.send_due()
    deadline = clock.clock_of(game, Seat.get(Seat.game == game.id, Seat.index == 0)).deadline
    with app.test_request_context("/?lang=en"):
        english = when(deadline)
        home = client.get("/me/" + home_link.issue(app.config["SECRET_KEY"], ANN)).get_data(
            as_text=True)
    assert re.fullmatch(r"[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M", english), english
    mail = smtp.inbox.text(next(m for m in smtp.inbox.to(ANN)
                                if "Please move by" in smtp.inbox.text(m)))
    assert f"Please move by {english} (UTC)." in mail
    assert english in home and not re.search(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}", home)
    with app.test_request_context("/"), force_locale("hu"):
        magyar = when(deadline)
    assert re.fullmatch(r"\d{4}\. [a-zé]+\.? \d{1,2}\. \d{1,2}:\d{2}", magyar), magyar
