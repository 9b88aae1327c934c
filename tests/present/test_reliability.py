"""How reliably each player answers, on the host page and the home page: the median time from
a decision's first link to the player's own move, and the deadlines that passed, over their
recent games; the computer's seats have none."""
from __future__ import annotations

import datetime as dt

from pbem.db.models import Link, utcnow
from pbem.log import store
from pbem.mail import mailer
from pbem.play import creation, pace
from pbem.play.keys import keys
from pbem.present import reliability
from tests.conftest import token_of

ANN = {"name": "Ann", "email": "Ann@Example.org"}
BOB = {"name": "Bob", "email": "bob@example.org"}


def play_whole_turn(client, game, seat, token):
    while seat in store.rules_of(game).to_act(store.state_of(store.get_game(game.id))):
        turn = client.get(f"/api/turn/{token}").get_json()
        answer = client.post(f"/api/turn/{token}",
                             json={"seq": turn["seq"], "action": turn["actions"][0]})
        assert answer.status_code == 200, answer.get_json()


def test_the_host_and_home_pages_say_how_each_player_answers(app, client, smtp):
    game, host = creation.create_game("assyria", [ANN, BOB], seed=5,
                                      pace={"days": 1.0, "on_timeout": "auto"})
    mailer.send_due()
    rules = store.rules_of(game)
    first = rules.to_act(store.state_of(game))[0]
    address = store.seats_of(game)[first].email         # as stored: its domain lowercased
    # the first seat answers three hours after its turn mail
    Link.update(created_at=utcnow() - dt.timedelta(hours=3)).where(
        Link.game == game.id, Link.seat == first).execute()
    play_whole_turn(client, game, first, token_of(smtp.inbox.last_link(address)))
    # the other misses its deadline: its default move is played
    other = 1 - first
    assert rules.to_act(store.state_of(store.get_game(game.id))) == [other]
    assert pace.run_pass(utcnow() + dt.timedelta(days=2))["timeouts"] == 1
    found = reliability.answers_of([ANN["email"], BOB["email"], "nobody@example.org"])
    mover, misser = (found[p["email"].lower()] for p in ([ANN, BOB][first], [ANN, BOB][other]))
    assert mover.answered == 1 and mover.missed == 0 and mover.games == 1
    assert dt.timedelta(hours=2, minutes=59) < mover.median < dt.timedelta(hours=3, minutes=5)
    assert misser.missed == 1 and misser.median is None
    assert "nobody@example.org" not in found
    host_page = client.get(f"/host/{host}").get_data(as_text=True)
    assert "answers in 3 hours (median)" in host_page and "1 missed deadline" in host_page
    home = keys().home_link(ANN["email"])
    home_page = client.get(f"/me/{home.rsplit('/', 1)[-1]}").get_data(as_text=True)
    assert "How the players answer" in home_page
    assert "<strong>Ann</strong>" in home_page and "<strong>Bob</strong>" in home_page


def test_the_computer_has_no_answers_and_an_empty_list_costs_nothing(app):
    game, _ = creation.create_game("tigris", [ANN, {"computer": 1}], seed=5)
    assert reliability.answers_of([]) == {} and reliability.at_the_table([]) == []
    table = reliability.at_the_table(list(game.seats))
    assert [name for name, _answers in table] == ["Ann"]
