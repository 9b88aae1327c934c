"""A game nobody plays stops cleanly: whichever seat drops last, and whether its drop comes
from the pace pass before a move or inside one (its own missed deadline), the game pauses at
once, its host is mailed through the outbox, and no runaway of default moves answering default
moves is started; `pbem games resume` brings the players back without replaying anything, and
the seat asked is mailed a link that plays."""
from __future__ import annotations

import datetime as dt

import pytest

from pbem.db.models import Event, Game, Outbox, Seat
from pbem.log import store
from pbem.play import moves as playing
from pbem.play import creation
from pbem.play import hosting
from tests.conftest import token_of

MINUTE = dt.timedelta(minutes=1)
PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}]
HOST = "host@example.org"
# under default moves alone this duel would go on for 400,000 moves: far past any bound
ENDLESS = {"rounds": 200_000}


def endless_game() -> Game:
    game, _ = creation.create_game("duel", PLAYERS, ENDLESS, seed=3, host_email=HOST,
                                  pace={"days": 1.0, "on_timeout": "auto", "drop_after": 1})
    return game


def seat(game, index) -> Seat:
    return Seat.get(Seat.game == game.id, Seat.index == index)


def asked(game) -> list[int]:
    game = store.get_game(game.id)
    return store.rules_of(game).to_act(store.state_of(game))


def plays_until_asked(game, player: int, other: int) -> None:
    """`player` answers whatever it is asked (its last listed action) until `other` is asked."""
    while asked(game) == [player]:
        game = store.get_game(game.id)
        state = store.state_of(game)
        rules = store.rules_of(game)
        playing.act(game.id, player, rules.legal_actions(state, player)[-1], game.seq)
    assert asked(game) == [other]


def send_mail(app, now: dt.datetime) -> str:
    """`pbem mail send --now`: the pace pass at `now`, then the mail it queued."""
    out = app.test_cli_runner().invoke(args=["mail", "send", "--now", now.isoformat()])
    assert out.exit_code == 0, out.output
    return out.output


def miss_deadline(app, game, index: int) -> str:
    return send_mail(app, seat(game, index).deadline + MINUTE)


def ann_drops(app, game) -> None:
    miss_deadline(app, game, 0)             # Ann is dropped; her default asks Bob
    assert seat(game, 0).dropped and asked(game) == [1]


def bob_drops(app, game) -> None:
    plays_until_asked(game, 0, 1)           # Ann plays; Bob is asked and misses
    miss_deadline(app, game, 1)
    assert seat(game, 1).dropped and not seat(game, 0).dropped
    if asked(game) != [0]:
        plays_until_asked(game, 0, 0)


def bob_misses(app, game) -> str:
    return miss_deadline(app, game, 1)      # his drop comes inside his default move


def ann_misses(app, game) -> str:
    return miss_deadline(app, game, 0)      # her drop comes inside her default move


def host_hands_bob_over(app, game) -> str:
    late = seat(game, 1).deadline + MINUTE
    hosting.hand_over(game.id, 1, now=late)
    return send_mail(app, late)


# (the first drop, the last one)
ORDERS = {"ann then bob": (ann_drops, bob_misses), "bob then ann": (bob_drops, ann_misses),
          "ann, then the host hands bob over": (ann_drops, host_hands_bob_over)}


def last_outbox_id() -> int:
    row = Outbox.select(Outbox.id).order_by(Outbox.id.desc()).first()
    return row.id if row else 0


@pytest.mark.parametrize("order", ORDERS)
def test_a_game_whose_last_seat_drops_pauses_and_its_host_is_mailed(app, smtp, order):
    first_drop, last_drop = ORDERS[order]
    game = endless_game()
    first_drop(app, game)
    before = last_outbox_id()
    output = last_drop(app, game)
    assert "could not be settled" not in output
    game = Game.get_by_id(game.id)
    assert game.paused_at is not None and game.status == "running"
    assert game.pace_error == ""
    assert all(s.dropped for s in game.seats)
    # a handful of moves, not a runaway: after the last drop only its missed turn was played
    assert game.seq < 12, game.seq
    [notice] = [m for m in smtp.inbox.to(HOST) if "nobody is playing" in m["Subject"]]
    assert "resume it on your host page" in smtp.inbox.text(notice)
    assert Outbox.select().where(Outbox.kind == "host-nobody").count() == 1
    # a game paused for want of players asks nobody anything: no turn mail since the last drop
    assert not Outbox.select().where(Outbox.kind == "turn", Outbox.id > before).exists()
    seq = game.seq
    send_mail(app, game.paused_at + dt.timedelta(days=10))      # nothing runs meanwhile
    assert Game.get_by_id(game.id).seq == seq
    assert Outbox.select().where(Outbox.kind == "host-nobody").count() == 1


def test_resume_brings_the_players_back_without_replaying_anything(app, client, smtp):
    game = endless_game()
    ann_drops(app, game)
    bob_misses(app, game)
    paused = Game.get_by_id(game.id)
    assert paused.paused_at is not None
    out = app.test_cli_runner().invoke(args=["games", "resume", str(game.id)])
    assert out.exit_code == 0 and f"game {game.id} resumed" in out.output, out.output
    game = Game.get_by_id(game.id)
    assert game.paused_at is None and game.pace_error == ""
    assert not any(s.dropped or s.missed for s in game.seats)
    assert game.seq == paused.seq               # nothing was played by the resume
    [waiting] = asked(game)
    assert seat(game, waiting).deadline > game.resumed_at
    # the seat asked is mailed a fresh link, and it plays
    send_mail(app, game.resumed_at + MINUTE)
    who = PLAYERS[waiting]["email"]
    link = smtp.inbox.last_link(who)
    turn = client.get(f"/api/turn/{token_of(link)}")
    assert turn.status_code == 200, turn.json
    answer = client.post(f"/api/turn/{token_of(link)}",
                         json={"seq": game.seq, "action": turn.json["actions"][-1]})
    assert answer.status_code == 200, answer.json
    assert not Event.select().where(Event.game == game.id, Event.seq > game.seq + 1,
                                    Event.timeout == True).exists()  # noqa: E712
