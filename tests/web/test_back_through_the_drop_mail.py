""""I am back" through the drop mail: the mail telling a player their moves are played for
them carries a link, and that link (like every link sent after it) brings them back even when
the seat was asked again and sent newer links since; a link from before the drop does not,
unless it is the seat's newest."""
from __future__ import annotations

import datetime as dt

import pytest

from pbem.db.models import Event, Seat
from pbem.log import store
from pbem.play import computers
from pbem.play import hosting
from pbem.play import moves as playing
from pbem.play import creation
from tests.conftest import LINK, token_of, on_sqlite

database_url = on_sqlite     # which links bring a seat back, not storage: SQLite alone

MINUTE = dt.timedelta(minutes=1)
ANN, BOB = "ann@example.org", "bob@example.org"
PLAYERS = [{"name": "Ann", "email": ANN}, {"name": "Bob", "email": BOB}]


def new_game(on_timeout: str):
    game, _ = creation.create_game("duel", PLAYERS, {"rounds": 20}, seed=3,
                                  host_email="host@example.org",
                                  pace={"days": 1.0, "on_timeout": on_timeout, "drop_after": 1})
    return game


def ann(game) -> Seat:
    return Seat.get(Seat.game == game.id, Seat.index == 0)


def asked(game) -> list[int]:
    game = store.get_game(game.id)
    return store.rules_of(game).to_act(store.state_of(game))


def send_mail(app, now: dt.datetime | None = None) -> None:
    args = ["mail", "send"] + (["--now", now.isoformat()] if now else [])
    out = app.test_cli_runner().invoke(args=args)
    assert out.exit_code == 0, out.output


def bob_plays_until_ann_is_asked(game) -> None:
    while asked(game) == [1]:
        game = store.get_game(game.id)
        rules, state = store.rules_of(game), store.state_of(game)
        playing.act(game.id, 1, rules.legal_actions(state, 1)[-1], game.seq)
    assert asked(game) == [0]


def asked_again_under_a_pause(app, game) -> None:
    """While the host pauses the game Ann is asked (and mailed a newer link); when it
    resumes, her default is played at once."""
    hosting.pause(game.id)
    bob_plays_until_ann_is_asked(game)
    send_mail(app)
    hosting.resume(game.id)
    assert asked(game) == [1]


def asked_again_while_the_computer_plays_for_her(app, game) -> None:
    """Under --on-timeout bot Ann is mailed her turns (the computer then plays them)."""
    computers.run_pass()
    bob_plays_until_ann_is_asked(game)
    send_mail(app)
    computers.run_pass()
    assert asked(game) == [1]


WAYS = {"auto": asked_again_under_a_pause, "bot": asked_again_while_the_computer_plays_for_her}


@pytest.mark.parametrize("on_timeout", WAYS)
def test_the_drop_mails_link_brings_the_player_back_after_newer_links(app, client, smtp,
                                                                      on_timeout):
    game = new_game(on_timeout)
    send_mail(app)
    before_drop = smtp.inbox.last_link(ANN)                 # her first turn's link
    send_mail(app, ann(game).deadline + MINUTE)             # she misses it: dropped
    assert ann(game).dropped
    [drop_mail] = [m for m in smtp.inbox.to(ANN)
                   if "from now on" in smtp.inbox.text(m) and "I am back" in smtp.inbox.text(m)]
    found = LINK.findall(smtp.inbox.text(drop_mail))
    assert found, smtp.inbox.text(drop_mail)                # the drop mail carries a link
    drop_link = found[0]

    WAYS[on_timeout](app, game)
    newer = smtp.inbox.last_link(ANN)
    assert newer not in (drop_link, before_drop)            # a newer link was mailed since
    assert Event.select().where(Event.game == game.id, Event.seat == 0,
                                Event.seq > 2).exists()     # and her move was played for her

    # an old mail from before the drop does not take the seat back
    old = client.post(f"/turn/{token_of(before_drop)}/back")
    assert old.status_code == 410
    assert ann(game).dropped

    # the drop mail's link does: its page offers it, and it works
    page = client.get(f"/turn/{token_of(drop_link)}")
    assert 'id="back-form"' in page.get_data(as_text=True)
    back = client.post(f"/turn/{token_of(drop_link)}/back")
    assert back.status_code == 200, back.get_data(as_text=True)
    assert "Welcome back" in back.get_data(as_text=True)
    seat = ann(game)
    assert not seat.dropped and not seat.stand_in and seat.missed == 0


def test_a_revoke_stops_the_drop_mails_link_too(app, client, smtp):
    from pbem.play import fresh
    game = new_game("auto")
    send_mail(app, ann(game).deadline + MINUTE)             # Ann is dropped
    [drop_link] = [link for m in smtp.inbox.to(ANN) if "I am back" in smtp.inbox.text(m)
                   for link in LINK.findall(smtp.inbox.text(m))]
    fresh.revoke(store.get_game(game.id), 0)                # the host stops all her links
    assert client.post(f"/turn/{token_of(drop_link)}/back").status_code == 410
    assert ann(game).dropped
