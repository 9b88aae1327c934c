"""Answers to replies are bounded: one per reply address an hour and a few per address a day,
never counted against the player's turn mail; a reply address older than its turn link's age
answers nothing; and a reply whose say: line holds a NUL is refused with a clear answer on
every database (no traceback, no row that cannot be sent)."""
from __future__ import annotations

import datetime as dt
import random
from email.utils import make_msgid

from pbem.games import RULES
from pbem.db.models import InboundMail, Link, Message, Outbox, ReplyAddress
from pbem.log import store
from pbem.mail import inbound, mailer
from pbem.play import announce, creation, outbox, replies
from tests.conftest import Inbox, token_of
from tests.fuzz import mails
from tests.mail.test_replies import (PLAYERS, answers, asked, client_reply,  # noqa: F401
                                     email_of, events, newest_turn_mail, plan, replying,
                                     seat_to_act)


def forged(mail, seat, lines):
    """A reply in the seat's name (no authentication asked), each with a Message-ID of its own."""
    return mails.reply(mail["Reply-To"], email_of(seat), lines,
                       message_id=make_msgid(domain="evil.example"))


def new_turn_mail(game, seat):
    with outbox.transaction():
        announce.turn_mail(store.get_game(game.id), store.seats_of(game)[seat], kind="link")


def test_thirty_forged_replies_to_a_spent_address_get_one_answer_and_hold_no_turn_mail(
        asked, smtp, replying):
    game, seat, mail, codes = asked
    new_turn_mail(game, seat)                      # the first mail's address is spent now
    mailer.send_due()
    sent = len(smtp.inbox.to(email_of(seat)))
    replying.config["MAILS_PER_RECIPIENT_PER_DAY"] = sent + 2      # room for two turn mails
    outcomes = [inbound.receive(forged(mail, seat, [codes[0]])) for _ in range(30)]
    assert outcomes[0] == "answered"
    assert set(outcomes[1:]) == {"ignored: this reply address was answered less than an hour ago"}
    assert len(answers(smtp, email_of(seat))) == 1
    assert InboundMail.select().count() == 1
    for _ in range(2):
        new_turn_mail(game, seat)
        mailer.send_due()
    held = Outbox.select().where(Outbox.recipient == email_of(seat), Outbox.sent_at.is_null())
    assert [row.last_error for row in held] == []
    assert len(smtp.inbox.to(email_of(seat))) == sent + 3
    newest = newest_turn_mail(smtp, email_of(seat))
    assert inbound.receive(forged(newest, seat, [codes[0]])) == "played"


def test_an_hour_later_the_same_address_may_answer_again(asked, smtp):
    game, seat, mail, codes = asked
    assert inbound.receive(forged(mail, seat, ["dance"])) == "answered"
    answered = ReplyAddress.select().where(ReplyAddress.answered_at.is_null(False)).get()
    (ReplyAddress.update(answered_at=answered.answered_at - dt.timedelta(minutes=61))
     .where(ReplyAddress.id == answered.id).execute())
    assert inbound.receive(forged(mail, seat, ["dance"])) == "answered"
    assert len(answers(smtp, email_of(seat))) == 2


def test_a_player_gets_at_most_a_few_answers_a_day(asked, smtp):
    game, seat, mail, codes = asked
    outcomes = []
    for _ in range(replies.ANSWERS_PER_DAY + 2):
        outcomes.append(inbound.receive(forged(mail, seat, ["dance"])))
        new_turn_mail(game, seat)
        mailer.send_due()
        mail = newest_turn_mail(smtp, email_of(seat))
    assert outcomes.count("answered") == replies.ANSWERS_PER_DAY
    assert outcomes[-1] == f"ignored: {replies.ANSWERS_PER_DAY} answers to this address in 24 hours"


def test_a_reply_address_past_its_links_age_answers_nothing(asked, smtp):
    game, seat, mail, codes = asked
    new_turn_mail(game, seat)
    old = Link.select().where(Link.spent_at.is_null(False)).order_by(Link.id).first()
    Link.update(expires_at=dt.datetime.utcnow() - dt.timedelta(seconds=1)).where(
        Link.id == old.id).execute()
    outcome = inbound.receive(forged(mail, seat, [codes[0]]))
    assert outcome == "ignored: the reply address is older than its turn link's age"
    assert answers(smtp, email_of(seat)) == [] and InboundMail.select().count() == 0


def test_a_say_line_with_a_nul_is_refused_with_an_answer_and_keeps_nothing(asked, smtp):
    game, seat, mail, codes = asked
    before = events(game)
    assert inbound.receive(forged(mail, seat, ["say: hello\x00there"])) == "answered"
    assert events(game) == before and Message.select().count() == 0
    [answer] = answers(smtp, email_of(seat))
    assert "could not be posted: say: hello\ufffdthere" in Inbox.text(answer)
    assert Outbox.select().where(Outbox.sent_at.is_null()).count() == 0


def test_talk_from_the_page_and_the_api_refuses_a_nul(asked, smtp, replying):
    game, seat, mail, codes = asked
    client = replying.test_client()
    token = token_of(smtp.inbox.last_link(email_of(seat)))
    page = client.post(f"/turn/{token}/messages", data={"text": "hi\x00there"})
    assert page.status_code == 400 and b"Traceback" not in page.data
    api = client.post(f"/api/turn/{token}/messages", json={"text": "hi\x00there"})
    assert api.status_code == 400 and "NUL" in api.get_json()["error"]
    assert Message.select().count() == 0


def test_the_next_turn_mail_says_which_of_your_moves_were_played(replying, smtp):
    """A played answer is confirmed by the seat's next turn mail, in the log's words, before
    what the others did."""
    game, _ = creation.create_game("tigris", PLAYERS, seed=5)
    mailer.send_due()
    rng = random.Random(3)
    rules = store.rules_of(game)
    first = seat_to_act(game)
    for seat in (first, 1 - first):             # each answers one whole turn by mail
        state = store.state_of(store.get_game(game.id))
        lines = plan(rules, state, seat, rng)
        mail = newest_turn_mail(smtp, email_of(seat))
        assert inbound.receive(client_reply(mail, lines).as_bytes()) == "played"
        mailer.send_due()
    text = Inbox.text(newest_turn_mail(smtp, email_of(first)))
    assert "Your moves were played:" in text
    yours = text.split("Your moves were played:")[1].split("Since your last turn:")
    assert len(yours) == 2, text                # the own moves come first, then the others'
    own_lines = [line for line in yours[0].splitlines() if line.startswith("- ")]
    assert len(own_lines) == 2                   # a Tigris turn: two actions
    others = [line for line in yours[1].split("\n\n")[0].splitlines() if line.startswith("- ")]
    assert others and not set(own_lines) & set(others)
    html_part = newest_turn_mail(smtp, email_of(first)).get_body(
        preferencelist=("html",)).get_content()
    assert 'class="yours"' in html_part


def confirmations(smtp, address):
    mailer.send_due()
    return [m for m in smtp.inbox.to(address) if "Your answer was played:" in Inbox.text(m)]


def test_a_played_answer_is_confirmed_where_no_mail_follows_at_once(replying, smtp):
    """One action of a Tigris turn by mail: a confirmation that says the turn goes on, with the
    turn mail's reply address (answering it plays on); the rest of the turn: a confirmation
    naming who is asked now. Neither counts against the daily quota."""
    game, _ = creation.create_game("tigris", PLAYERS, seed=5)
    mailer.send_due()
    replying.config["MAILS_PER_RECIPIENT_PER_DAY"] = 1
    rules = store.rules_of(game)
    seat = seat_to_act(game)
    mail = newest_turn_mail(smtp, email_of(seat))
    first = plan(rules, store.state_of(store.get_game(game.id)), seat, random.Random(1), most=1)
    assert inbound.receive(client_reply(mail, first).as_bytes()) == "played"
    [goes_on] = confirmations(smtp, email_of(seat))
    assert goes_on["Reply-To"] == mail["Reply-To"]
    text = Inbox.text(goes_on)
    assert f"Hello {PLAYERS[seat]['name']}," in text and "Your turn goes on." in text
    assert "codes now" in text               # all of them, or their shapes with examples
    state = store.state_of(store.get_game(game.id))
    rest = plan(rules, state, seat, random.Random(2))
    assert inbound.receive(client_reply(goes_on, rest).as_bytes()) == "played"
    later = confirmations(smtp, email_of(seat))
    if seat in rules.to_act(store.state_of(store.get_game(game.id))):
        return                            # a conflict asks the seat again: its turn mail says it
    assert len(later) == 2
    assert f"Waiting for: {PLAYERS[1 - seat]['name']}." in Inbox.text(later[1])
    assert later[1]["Reply-To"] is None   # the turn is over: answering it would play nothing
    held = Outbox.select().where(Outbox.sent_at.is_null(), Outbox.recipient == email_of(seat))
    assert [row.kind for row in held] == []       # at the quota of one mail, both went out


def test_against_the_computer_alone_the_next_turn_mail_is_the_confirmation(replying, smtp):
    # the first seed whose opening seat is the person's (the start player is drawn)
    tigris = RULES["tigris"]
    seed = next(s for s in range(50) if tigris.to_act(tigris.setup(2, s))[0] == 0)
    game, _ = creation.create_game("tigris", [PLAYERS[0], {"computer": 1}], seed=seed)
    mailer.send_due()
    assert seat_to_act(game) == 0
    mail = newest_turn_mail(smtp, email_of(0))
    rules = store.rules_of(game)
    lines = plan(rules, store.state_of(store.get_game(game.id)), 0, random.Random(1))
    assert inbound.receive(client_reply(mail, lines).as_bytes()) == "played"
    assert not Outbox.select().where(Outbox.kind == replies.PLAYED_KIND).exists()


def test_an_answer_of_table_talk_alone_is_not_confirmed(replying, smtp):
    game, _ = creation.create_game("tigris", PLAYERS, seed=5)
    mailer.send_due()
    seat = seat_to_act(game)
    mail = newest_turn_mail(smtp, email_of(seat))
    assert inbound.receive(client_reply(mail, ["say: good luck"]).as_bytes()) == "played"
    assert Message.select().count() == 1
    assert not Outbox.select().where(Outbox.kind == replies.PLAYED_KIND).exists()


def test_the_confirmation_speaks_the_players_language(replying, smtp):
    players = [dict(PLAYERS[0], language="hu"), dict(PLAYERS[1], language="hu")]
    game, _ = creation.create_game("tigris", players, seed=5)
    mailer.send_due()
    seat = seat_to_act(game)
    mail = newest_turn_mail(smtp, email_of(seat))
    rules = store.rules_of(game)
    first = plan(rules, store.state_of(store.get_game(game.id)), seat, random.Random(1), most=1)
    assert inbound.receive(client_reply(mail, first).as_bytes()) == "played"
    mailer.send_due()
    [confirmed] = [m for m in smtp.inbox.to(email_of(seat))
                   if "A válaszod lépései megtörténtek:" in Inbox.text(m)]
    assert "A köröd folytatódik." in Inbox.text(confirmed)
    assert "Your answer" not in Inbox.text(confirmed)
