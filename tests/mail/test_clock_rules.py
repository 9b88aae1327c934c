"""The rules of the clock are stated in the invitation and the first turn
mail of a paced game; opting out and back in (item 11): the host hears when a seat that is to
act opts out, and opting back in mails the turn skipped meanwhile. Real SMTP sink."""
from __future__ import annotations

from pbem.db.models import Outbox
from pbem.log import store
from pbem.mail import mailer
from pbem.play import moves as playing
from pbem.play import creation
from pbem.play import optout
from tests.conftest import token_of

ANN, BOB, HOST = "ann@example.org", "bob@example.org", "host@example.org"
PLAYERS = [{"name": "Ann", "email": ANN}, {"name": "Bob", "email": BOB}]


def new_game(pace=None):
    game, _ = creation.create_game("duel", PLAYERS, {"rounds": 3}, seed=3, host_email=HOST,
                                  pace=pace)
    mailer.send_due()
    return game


def texts(smtp, address, words):
    return [smtp.inbox.text(m) for m in smtp.inbox.to(address) if words in smtp.inbox.text(m)]


def test_the_invitation_and_the_first_turn_mail_state_the_rules_of_the_clock(app, smtp):
    new_game({"days": 2, "on_timeout": "auto", "drop_after": 3})
    [invite] = texts(smtp, BOB, "invites you")
    for text in (invite, texts(smtp, ANN, "Make your move here")[0]):
        assert "The rules of the clock:" in text
        assert "2 days per decision (a turn of several actions is one decision)" in text
        assert "your default move (the most passive one) is played for you, for the whole " \
               "turn" in text
        assert "After 3 missed deadlines in a row your moves are played for you" in text


def test_under_wait_the_rules_say_nothing_is_played_and_a_later_turn_mail_says_none(app, smtp):
    game = new_game({"days": 0.5, "on_timeout": "wait", "drop_after": 3})
    [invite] = texts(smtp, ANN, "invites you")
    assert "0.5 days per decision" in invite
    assert "At a missed deadline nothing is played for you: the host is told" in invite
    assert "After 3 missed" not in invite
    rules = store.rules_of(game)
    state = store.state_of(game)
    playing.act(game.id, 0, rules.legal_actions(state, 0)[-1], game.seq)    # Ann's turn ends
    while True:                     # Bob plays until Ann is asked again: her second turn mail
        game = store.get_game(game.id)
        state = store.state_of(game)
        if rules.to_act(state) != [1]:
            break
        playing.act(game.id, 1, rules.legal_actions(state, 1)[-1], game.seq)
    assert rules.to_act(state) == [0]
    mailer.send_due()
    turns = texts(smtp, ANN, "Make your move here")
    assert len(turns) == 2 and "The rules of the clock:" in turns[0]
    assert "The rules of the clock:" not in turns[1]


def test_a_game_without_a_pace_states_no_clock(app, smtp):
    new_game()
    assert all("The rules of the clock" not in smtp.inbox.text(m) for m in smtp.inbox.messages)


def test_the_host_hears_when_a_seat_to_act_opts_out_and_opting_in_mails_the_turn(app, client,
                                                                                  smtp):
    game = new_game({"days": 2, "on_timeout": "wait", "drop_after": 3})
    old_link = smtp.inbox.last_link(ANN)
    bob_token = optout.token(app.config["SECRET_KEY"], BOB)
    assert client.post(f"/optout/{bob_token}").status_code == 200      # Bob is not to act
    ann_token = optout.token(app.config["SECRET_KEY"], ANN)
    assert client.post(f"/optout/{ann_token}").status_code == 200      # Ann is
    assert client.post(f"/optout/{ann_token}").status_code == 200      # twice: one notice
    mailer.send_due()
    notices = [m for m in smtp.inbox.to(HOST) if "stopped all mail" in m["Subject"]]
    assert len(notices) == 1 and "Ann" in notices[0]["Subject"]
    assert "Ann is to move in" in smtp.inbox.text(notices[0])

    assert client.post(f"/optout/{ann_token}/undo").status_code == 200
    mailer.send_due()
    fresh = smtp.inbox.last_link(ANN)
    assert fresh != old_link
    assert client.get(f"/api/turn/{token_of(fresh)}").status_code == 200
    assert client.get(f"/api/turn/{token_of(old_link)}").status_code == 410   # spent by it
    assert client.post(f"/optout/{bob_token}/undo").status_code == 200     # not to act: no mail
    assert not Outbox.select().where(Outbox.recipient == BOB, Outbox.kind == "turn").exists()
    assert len([m for m in smtp.inbox.to(ANN) if "Make your move here" in
                smtp.inbox.text(m)]) == 2
