"""Answers as real mail clients write them: a two-move answer from each common client, in its
plain-text form and its HTML-only form, plays both moves of a Tigris turn.

The shapes are those the clients write (their quote headers, the HTML around each line, the
footers phones add under the move, format=flowed): Outlook desktop and web, Apple Mail on
iPhone and Mac, Gmail web and app, Thunderbird, K-9 and FairEmail, mutt. A line holding two
moves, a footer in Hungarian, and a flowed `say:` line longer than a line are here too.
"""
from __future__ import annotations

from email.message import EmailMessage
from email.utils import formatdate, make_msgid
import html

import pytest

from pbem.db.models import Event, Message
from pbem.games.codes import codes_of
from pbem.log import store
from pbem.mail import inbound, mailer, reply_text
from pbem.play import creation
from tests.conftest import Inbox, on_sqlite
from tests.mail.test_replies import PLAYERS, email_of, replying, seat_to_act, turn_mails  # noqa: F401

# how clients write answers, not storage (tests/mail/test_replies.py runs on both): SQLite alone
database_url = on_sqlite

DATE = "Thu, 3 Dec 2026 10:00:00 +0000"


def quoted(original) -> list[str]:
    return Inbox.text(original).splitlines()[:6]


# -- the clients: (plain text, HTML) of an answer with `lines` above the quoted original --------

def outlook_desktop(lines, original):
    plain = ("\r\n".join(lines) + "\r\n\r\nFrom: pbem <pbem@pbem.test>\r\nSent: Thursday, "
             "December 3, 2026 10:00 AM\r\nTo: Ann <ann@example.org>\r\nSubject: "
             + original["Subject"] + "\r\n\r\n" + "\r\n".join(quoted(original)))
    markup = ("<html><body lang=EN-US><div class=WordSection1>"
              + "".join(f"<p class=MsoNormal>{html.escape(line)}<o:p></o:p></p>" for line in lines)
              + "<p class=MsoNormal><o:p>&nbsp;</o:p></p><div style='border:none;border-top:"
              "solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm'><p class=MsoNormal><b>From:</b> "
              "pbem &lt;pbem@pbem.test&gt;<br><b>Sent:</b> Thursday<br><b>Subject:</b> turn</p>"
              "</div><p class=MsoNormal>" + "<br>".join(map(html.escape, quoted(original)))
              + "</p></div></body></html>")
    return plain, markup


def outlook_web(lines, original):
    plain = ("\r\n".join(lines) + "\r\n\r\n________________________________\r\nFrom: pbem "
             "<pbem@pbem.test>\r\nSent: Thursday\r\n\r\n" + "\r\n".join(quoted(original)))
    markup = ("<html><body><div dir=\"ltr\">"
              + "".join(f'<div style="font-family: Aptos">{html.escape(line)}</div>'
                        for line in lines)
              + '</div><div id="appendonsend"></div><hr style="display:inline-block;width:98%">'
              '<div id="divRplyFwdMsg" dir="ltr"><b>From:</b> pbem</div><div>'
              + "<br>".join(map(html.escape, quoted(original))) + "</div></body></html>")
    return plain, markup


def apple_iphone(lines, original):
    plain = ("\n".join(lines) + "\nSent from my iPhone\n\n> On 3 Dec 2026, at 10:00, pbem "
             "<pbem@pbem.test> wrote:\n> \n" + "\n".join("> " + q for q in quoted(original)))
    markup = ('<html><head></head><body dir="auto">'
              + "".join(f'<div dir="ltr">{html.escape(line)}</div>' for line in lines)
              + '<div dir="ltr">Sent from my iPhone</div><div dir="ltr"><br>'
              '<blockquote type="cite">On 3 Dec 2026, at 10:00, pbem wrote:<br><br></blockquote>'
              '</div><blockquote type="cite"><div dir="ltr">'
              + "<br>".join(map(html.escape, quoted(original))) + "</div></blockquote></body></html>")
    return plain, markup


def apple_mac(lines, original):
    plain = ("\n".join(lines) + "\n\n> On 3 Dec 2026, at 10:00, pbem <pbem@pbem.test> wrote:\n"
             "> \n" + "\n".join("> " + q for q in quoted(original)))
    markup = ("<html><body>" + "".join(f"<div>{html.escape(line)}</div>" for line in lines)
              + '<div><br></div><div><br><blockquote type="cite"><div>On 3 Dec 2026, at 10:00, '
              "pbem &lt;pbem@pbem.test&gt; wrote:</div><br><div>"
              + "<br>".join(map(html.escape, quoted(original)))
              + "</div></blockquote></div></body></html>")
    return plain, markup


def gmail_web(lines, original):
    plain = ("\n".join(lines) + f"\n\nOn {DATE[:-6]} pbem <pbem@pbem.test> wrote:\n\n"
             + "\n".join("> " + q for q in quoted(original)))
    markup = ('<div dir="ltr">' + "".join(f"<div>{html.escape(line)}</div>" for line in lines)
              + '</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On '
              + DATE + ' pbem &lt;<a href="mailto:pbem@pbem.test">pbem@pbem.test</a>&gt; wrote:'
              '<br></div><blockquote class="gmail_quote">'
              + "<br>".join(map(html.escape, quoted(original))) + "</blockquote></div>")
    return plain, markup


def gmail_app(lines, original):
    plain = ("\n".join(lines) + "\n\nOn Thu, 3 Dec 2026, 10:00 pbem, <\npbem@pbem.test> wrote:\n\n"
             + "\n".join("> " + q for q in quoted(original)))
    first, *rest = lines
    markup = ('<div dir="auto">' + html.escape(first)
              + "".join(f'<div dir="auto">{html.escape(line)}</div>' for line in rest)
              + '</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Thu, '
              '3 Dec 2026, 10:00 pbem wrote:<br></div><blockquote class="gmail_quote">'
              + "<br>".join(map(html.escape, quoted(original))) + "</blockquote></div>")
    return plain, markup


def thunderbird(lines, original):
    plain = ("\r\n".join(lines) + "\r\n\r\nOn 03/12/2026 10:00, pbem wrote:\r\n"
             + "\r\n".join("> " + q for q in quoted(original)))
    markup = ("<html><body><p>" + "<br>\n".join(map(html.escape, lines))
              + '<br></p><div class="moz-cite-prefix">On 03/12/2026 10:00, pbem wrote:<br></div>'
              '<blockquote type="cite">' + "<br>".join(map(html.escape, quoted(original)))
              + "</blockquote></body></html>")
    return plain, markup


def k9(lines, original):
    plain = ("\n".join(lines) + "\n\nOn December 3, 2026 10:00:00 AM UTC, pbem <pbem@pbem.test> "
             "wrote:\n" + "\n".join(">" + q for q in quoted(original))
             + "\n\n-- \nSent from my Android device with K-9 Mail. Please excuse my brevity.")
    markup = ("<html><body>" + "<br>".join(map(html.escape, lines))
              + '<br><br><div class="gmail_quote">On December 3, 2026 pbem wrote:<blockquote '
              'class="gmail_quote">' + "<br>".join(map(html.escape, quoted(original)))
              + "</blockquote></div></body></html>")
    return plain, markup


def fairemail(lines, original):
    plain = ("\n".join(lines) + "\n\nDec 3, 2026 10:00:00 pbem <pbem@pbem.test>:\n\n"
             + "\n".join("> " + q for q in quoted(original)))
    markup = ("<!DOCTYPE html><html><body>" + "".join(f"<div>{html.escape(line)}</div>"
                                                      for line in lines)
              + '<br><p>Dec 3, 2026 10:00:00 pbem:</p><blockquote style="margin:0">'
              + "<br>".join(map(html.escape, quoted(original))) + "</blockquote></body></html>")
    return plain, markup


def mutt(lines, original):
    plain = ("\n".join(lines) + "\n\nOn Thu, Dec 03, 2026 at 10:00:00AM +0000, pbem wrote:\n"
             + "\n".join("> " + q for q in quoted(original)) + "\n\n-- \nAnn\n")
    return plain, None


CLIENTS = [outlook_desktop, outlook_web, apple_iphone, apple_mac, gmail_web, gmail_app,
           thunderbird, k9, fairemail, mutt]
SHAPES = [(client, form) for client in CLIENTS for form in ("text", "html")
          if not (client is mutt and form == "html")]


def answer(original, lines, client, form, flowed=False) -> bytes:
    plain, markup = client(lines, original)
    reply = EmailMessage()
    reply["From"] = f"Ann Player <{original['To']}>"
    reply["To"] = original["Reply-To"]
    reply["Subject"] = "Re: " + original["Subject"]
    reply["Date"] = formatdate()
    reply["Message-ID"] = make_msgid(domain="example.org")
    if form == "html":
        reply.set_content(markup, subtype="html")
    else:
        reply.set_content(plain)
        if flowed:
            reply.set_param("format", "flowed")
        if markup is not None:
            reply.add_alternative(markup, subtype="html")
    return reply.as_bytes()


@pytest.fixture
def turn(replying, smtp):
    """A Tigris game, the turn mail of the seat to act and the codes of a whole turn (two
    tile placements, the second legal after the first)."""
    game, _ = creation.create_game("tigris", PLAYERS, seed=5)
    mailer.send_due()
    seat = seat_to_act(game)
    [mail] = turn_mails(smtp, email_of(seat))
    rules = store.rules_of(game)
    state = store.state_of(store.get_game(game.id))
    planned = []
    for _ in range(2):
        actions = rules.legal_actions(state, seat)
        index = next(i for i, a in enumerate(actions) if a["type"] == "place_tile")
        planned.append(codes_of(rules, rules.view(state, seat), actions)[index])
        state = rules.apply(state, seat, actions[index])
    return game, seat, mail, planned


def moves_of(game) -> int:
    return Event.select().where(Event.game == game.id, Event.seat.is_null(False)).count()


@pytest.mark.parametrize("client,form", SHAPES, ids=[f"{c.__name__}-{f}" for c, f in SHAPES])
def test_a_two_move_answer_plays_both_moves(turn, client, form):
    game, seat, mail, planned = turn
    raw = answer(mail, planned, client, form)
    assert inbound.parse(raw).lines == planned
    before = moves_of(game)
    assert inbound.receive(raw) == "played"
    game = store.get_game(game.id)
    assert moves_of(game) == before + 2
    assert seat not in store.rules_of(game).to_act(store.state_of(game))


def test_a_long_say_line_sent_flowed_is_one_line(turn):
    game, seat, mail, planned = turn
    said = ("say: good luck to everyone at this table, and may the best dynasty win the "
            "game in the end")
    wrapped = [said[:70] + " ", said[70:]]              # Thunderbird's soft break at 72
    raw = answer(mail, [planned[0], *wrapped, planned[1]], thunderbird, "text", flowed=True)
    assert inbound.receive(raw) == "played"
    assert [m.text for m in Message.select()] == [said[len("say: "):]]


@pytest.mark.parametrize("footer", ["Sent from my iPhone", "Get Outlook for iOS",
                                    "Sent from my Galaxy", "Az iPhone-omról küldve",
                                    "Samsung Galaxy okostelefonról küldve"])
def test_a_phone_footer_right_under_the_moves_is_not_read(footer):
    assert reply_text.reply_lines(f"red F7\nblue G8\n{footer}\n\n> the turn mail") == \
        ["red F7", "blue G8"]


def test_two_moves_on_one_line_are_refused_whole_with_that_reason(turn, smtp):
    game, seat, mail, planned = turn
    before = moves_of(game)
    raw = answer(mail, [f"{planned[0]} {planned[1]}"], mutt, "text")
    assert inbound.receive(raw) == "answered"
    assert moves_of(store.get_game(game.id)) == before
    mailer.send_due()
    [refusal] = [m for m in smtp.inbox.to(email_of(seat)) if "Nothing of your answer" in
                 Inbox.text(m)]
    assert "holds more than one move" in Inbox.text(refusal)
    assert refusal["Reply-To"] == mail["Reply-To"]           # answering it plays as well


def test_words_under_a_move_are_not_a_turn_that_is_over(turn, smtp):
    game, seat, mail, planned = turn
    raw = answer(mail, [planned[0], "thanks for the game"], mutt, "text")
    assert inbound.receive(raw) == "answered"
    mailer.send_due()
    [refusal] = [m for m in smtp.inbox.to(email_of(seat)) if "Nothing of your answer" in
                 Inbox.text(m)]
    assert "was not understood: thanks for the game" in Inbox.text(refusal)
    assert "turn was over" not in Inbox.text(refusal)
