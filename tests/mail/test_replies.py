"""Moving by answering the turn mail: reply codes in the API, the Reply-To address of each turn
mail, and replies read from standard input (`pbem mail receive`) and from a real IMAP server
(Dovecot, `pbem mail fetch`)."""
from __future__ import annotations

import grp
import html
import imaplib
import os
import pwd
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path

import pytest

from pbem.db.models import Event, InboundMail, Message, Outbox, ReplyAddress
from pbem.games.codes import codes_of, normal
from pbem.log import store
from pbem.mail import inbound, mailer, reply_text
from pbem.play import creation
from pbem.play import outbox, reply_address
from tests.conftest import PG_URL, Inbox, a_move, free_port, token_of

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]
REPLY = "turns@pbem.test"
REPLY_TO = re.compile(r"^turns\+([a-z0-9]{26})@pbem\.test$")


@pytest.fixture
def replying(app_with, smtp):
    """An app whose turn mails carry a reply address."""
    return app_with(smtp.port, REPLY_ADDRESS=REPLY)


# a test of how a reply gets in (bytes, size, IMAP, the pipe) rather than what it writes: SQLite
# alone; what a reply writes is tested on both databases
ON_SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def seat_to_act(game) -> int:
    game = store.get_game(game.id)
    return store.rules_of(game).to_act(store.state_of(game))[0]


def email_of(seat: int) -> str:
    return PLAYERS[seat]["email"]


def turn_mails(smtp, address):
    return [m for m in smtp.inbox.to(address) if m["Reply-To"]]


def newest_turn_mail(smtp, address):
    with smtp.inbox.lock:
        messages = list(smtp.inbox.messages)
    return next(m for m in reversed(messages) if m["To"] == address and m["Reply-To"])


def client_reply(original, lines, sender=None, html_only=False, message_id=None, **headers):
    """A reply as a mail client writes it: the new lines on top, the original quoted under
    "On ... wrote:", a signature, an HTML alternative, In-Reply-To and References."""
    reply = EmailMessage()
    reply["From"] = sender or f"Ann Player <{original['To']}>"
    reply["To"] = original["Reply-To"]
    reply["Subject"] = "Re: " + original["Subject"]
    reply["Date"] = formatdate()
    reply["Message-ID"] = message_id or make_msgid(domain="example.org")
    reply["In-Reply-To"] = original["Message-ID"]
    reply["References"] = original["Message-ID"]
    for name, value in headers.items():
        reply[name.replace("_", "-")] = value
    quoted = "\n".join("> " + line for line in Inbox.text(original).splitlines())
    text = ("\n".join(lines) + f"\n\nOn {original['Date']}, pbem <pbem@pbem.test> wrote:\n"
            + quoted + "\n\n-- \nAnn\nSent from my phone\n")
    body = ("<html><body><div>" + "<br>".join(html.escape(line) for line in lines)
            + "</div><div><br></div><div class=\"gmail_quote\"><div>On "
            + html.escape(str(original["Date"])) + " pbem wrote:</div><blockquote>"
            + original.get_body(preferencelist=("html",)).get_content()
            + "</blockquote></div></body></html>")
    if html_only:
        reply.set_content(body, subtype="html")
    else:
        reply.set_content(text)
        reply.add_alternative(body, subtype="html")
    return reply


def events(game) -> int:
    return Event.select().where(Event.game == game.id).count()


# -- codes in the API --------------------------------------------------------------------------------

def test_the_api_names_a_reply_code_for_every_action(client, smtp):
    creation.create_game("tigris", PLAYERS, seed=5)
    mailer.send_due()
    link = next(smtp.inbox.last_link(p["email"]) for p in PLAYERS
                if smtp.inbox.last_link(p["email"]))
    body = client.get(f"/api/turn/{token_of(link)}").get_json()
    assert len(body["codes"]) == len(body["actions"]) > 100
    assert len({normal(c) for c in body["codes"]}) == len(body["codes"])
    tile = next(i for i, a in enumerate(body["actions"]) if a["type"] == "place_tile")
    assert body["codes"][tile].startswith(body["actions"][tile]["colour"] + " ")
    answer = client.post(f"/api/turn/{token_of(link)}",
                         json={"seq": body["seq"], "action": body["actions"][tile]}).get_json()
    assert len(answer["codes"]) == len(answer["actions"])


# -- the reply address -------------------------------------------------------------------------------

def test_without_the_setting_turn_mail_has_no_reply_to_but_says_it_is_automatic(app, smtp):
    creation.create_game("tigris", PLAYERS, seed=5)
    mailer.send_due()
    assert smtp.inbox.messages
    for message in smtp.inbox.messages:
        assert message["Reply-To"] is None
        assert message["Auto-Submitted"] == "auto-generated"
        assert "answer this mail" not in Inbox.text(message)
    assert ReplyAddress.select().count() == 0


def test_each_turn_mail_has_its_own_reply_address_and_only_its_hash_is_kept(replying, smtp):
    game, _ = creation.create_game("assyria", PLAYERS, seed=2)
    mailer.send_due()
    seat = seat_to_act(game)
    [mail] = turn_mails(smtp, email_of(seat))
    assert mail["Auto-Submitted"] == "auto-generated"
    reply_id = REPLY_TO.match(mail["Reply-To"]).group(1)
    assert len(reply_id) * 5 >= 96
    text = Inbox.text(mail)
    assert "answer this mail" in text and "Your codes now:" in text     # few: all listed
    assert reply_id not in text
    kept = [row.id_hash for row in ReplyAddress.select()]
    assert reply_address.hash_id(reply_id) in kept and reply_id not in kept
    for row in Outbox.select():
        assert reply_id not in (row.body_text + row.body_html + str(row.context))


def test_hundreds_of_codes_are_shown_by_their_pattern_with_examples(replying, smtp):
    game, _ = creation.create_game("tigris", PLAYERS, seed=5)
    mailer.send_due()
    [mail] = turn_mails(smtp, email_of(seat_to_act(game)))
    text = Inbox.text(mail)
    assert "Your codes now:" not in text
    found = re.search(r"You have (\d+) codes now, such as: (.*)", text)
    assert int(found.group(1)) > 300
    examples = found.group(2).split(" | ")
    assert "pass" in examples and any(re.fullmatch(r"red [A-P]\d+", e) for e in examples)


# -- playing by reply --------------------------------------------------------------------------------

def test_a_reply_from_a_mail_client_plays_a_whole_turn_and_says_something(replying, smtp):
    game, _ = creation.create_game("tigris", PLAYERS, seed=5)
    mailer.send_due()
    seat = seat_to_act(game)
    [mail] = turn_mails(smtp, email_of(seat))
    rules = store.rules_of(game)
    state = store.state_of(store.get_game(game.id))
    planned = []
    for _ in range(2):               # a Tigris turn: two actions, each legal after the one before
        actions = [a for a in rules.legal_actions(state, seat) if a["type"] == "place_tile"]
        codes = codes_of(rules, rules.view(state, seat), rules.legal_actions(state, seat))
        action = actions[0]
        planned.append(codes[rules.legal_actions(state, seat).index(action)])
        state = rules.apply(state, seat, action)
    lines = [planned[0].upper(), "say: hello table", "  " + planned[1].replace(" ", "   ")]
    before = events(game)
    assert inbound.receive(client_reply(mail, lines).as_bytes()) == "played"
    game = store.get_game(game.id)
    assert events(game) >= before + 2
    assert seat not in store.rules_of(game).to_act(store.state_of(game))
    assert [m.text for m in Message.select()] == ["hello table"]
    assert store.state_of(game) == store.state_of(game) and game.seq >= 2


def test_an_html_only_reply_is_read_through_its_text(replying, smtp):
    game, _ = creation.create_game("assyria", PLAYERS, seed=2)
    mailer.send_due()
    seat = seat_to_act(game)
    [mail] = turn_mails(smtp, email_of(seat))
    code = re.search(r"Your codes now: ([^|\n]+)", Inbox.text(mail)).group(1).strip()
    before = events(game)
    assert inbound.receive(client_reply(mail, [code], html_only=True).as_bytes()) == "played"
    assert events(game) > before


def plain_reply(to, sender, lines):
    """A short text reply (the whole-game tests: what matters is each reply's codes)."""
    reply = EmailMessage()
    reply["From"], reply["To"], reply["Subject"] = sender, to, "Re: [pbem]"
    reply["Message-ID"] = make_msgid(domain="example.org")
    reply.set_content("\n".join(lines) + "\n\nOn Tuesday pbem wrote:\n> Your turn\n")
    return reply.as_bytes()


def plan(rules, state, seat, rng, most=6):
    """Random legal codes for `seat`, each legal after the ones before, while the engine keeps
    the seat on (as the server will: its forced moves are played for it)."""
    lines = []
    while seat in rules.to_act(state) and len(lines) < most:
        actions = rules.legal_actions(state, seat)
        picks = [a for a in actions if a["type"] not in ("pass", "standing")]
        index = actions.index(a_move(rules, picks or actions, rng))
        lines.append(codes_of(rules, rules.view(state, seat), actions)[index])
        state = rules.apply(state, seat, actions[index])
    return lines


def play_by_replies(app, game, rng, max_replies):
    """Answer the newest turn mail of whoever is asked with random legal codes until the game
    is over. The mails are not rendered (the fast way): each reply goes to the Reply-To the
    mailer gives the newest turn mail's row."""
    app.extensions[outbox.RENDERER] = lambda ids: None
    rules = store.rules_of(game)
    for answered in range(max_replies):
        game = store.get_game(game.id)
        state = store.state_of(game)
        if rules.result(state) is not None:
            return game, answered
        seat = rules.to_act(state)[0]
        row = (Outbox.select().where(Outbox.game == game.id, Outbox.seat == seat,
                                     Outbox.template == "turn")
               .order_by(Outbox.id.desc()).first())
        lines = plan(rules, state, seat, rng)
        outcome = inbound.receive(plain_reply(mailer._reply_to(row), email_of(seat), lines))
        assert outcome == "played", (lines, outcome)
    raise AssertionError(f"the game is not over after {max_replies} replies")


# each game on SQLite; one on PostgreSQL too (where configured): a reply writes alike in every game
WHOLE_GAMES = [("sqlite", "assyria", 1), ("sqlite", "tigris", 1), ("sqlite", "tigris_cards", 36)] \
    + [("postgresql", "tigris", 1)] * bool(PG_URL)


@pytest.mark.slow
@pytest.mark.parametrize("database_url,name,seed", WHOLE_GAMES, indirect=["database_url"])
def test_whole_games_are_played_by_replies_alone(replying, name, seed):
    game, _ = creation.create_game(name, PLAYERS, seed=seed)
    game, answered = play_by_replies(replying, game, random.Random(seed), 2000)
    assert store.rules_of(game).result(store.state_of(game)) is not None
    assert answered > 20
    assert InboundMail.select().count() == answered
    assert store.verify(game) == []


# -- refusals ------------------------------------------------------------------------------------------

@pytest.fixture
def asked(replying, smtp):
    """An Assyria game (few codes: the mail lists them) and the turn mail of the seat asked."""
    game, _ = creation.create_game("assyria", PLAYERS, seed=2)
    mailer.send_due()
    seat = seat_to_act(game)
    mail = newest_turn_mail(smtp, email_of(seat))
    codes = [c.strip() for c in
             re.search(r"Your codes now: (.*)", Inbox.text(mail)).group(1).split(" | ")]
    return game, seat, mail, codes


def answers(smtp, address):
    mailer.send_due()
    return [m for m in smtp.inbox.to(address) if "Nothing of your answer was played"
            in Inbox.text(m)]


def nothing_written(game, before):
    return events(game) == before and Message.select().count() == 0


def test_a_reply_from_another_address_plays_nothing_and_tells_the_seats_own_address(asked,
                                                                                    smtp):
    game, seat, mail, codes = asked
    before = events(game)
    reply = client_reply(mail, [codes[0]], sender="Ann at work <ann.work@example.net>")
    assert inbound.receive(reply.as_bytes()) == "answered"
    again = client_reply(mail, [codes[0]], sender="Ann at work <ann.work@example.net>")
    assert inbound.receive(again.as_bytes()).startswith("ignored")     # one note an hour
    mailer.send_due()
    assert nothing_written(game, before)
    assert smtp.inbox.to("ann.work@example.net") == []          # never to the stranger
    [note] = answers(smtp, email_of(seat))
    text = " ".join(Inbox.text(note).split())
    assert "came from ann.work@example.net" in text and f"Only answers from {email_of(seat)}" in text


def test_the_sender_address_matches_whatever_its_case(asked, smtp):
    game, seat, mail, codes = asked
    sender = f"Player <{email_of(seat).upper()}>"
    assert inbound.receive(client_reply(mail, [codes[0]], sender=sender).as_bytes()) == "played"


@pytest.mark.parametrize("lines,what", [
    (["dance the tango"], "This line of your answer was not understood: dance the tango"),
    (["start 9,9"], "This move is not possible now: start 9,9"),
    ([0, 1], "Your turn was over before this line of your answer: {1}")])
def test_an_unknown_or_illegal_code_writes_nothing_and_is_answered_once(asked, smtp, lines, what):
    game, seat, mail, codes = asked
    before = events(game)
    lines = [codes[line] if isinstance(line, int) else line for line in lines]
    reply = client_reply(mail, lines)          # a first code that is fine is not played either
    assert inbound.receive(reply.as_bytes()) == "answered"
    assert inbound.receive(reply.as_bytes()) == "duplicate"
    assert nothing_written(game, before)
    [answer] = answers(smtp, email_of(seat))
    text = Inbox.text(answer)
    assert what.format(*codes) in text and "Your codes now:" in text and codes[0] in text
    # the mail's link still works: answering the refusal plays as answering the turn mail
    assert answer["Auto-Submitted"] == "auto-generated" and answer["Reply-To"] == mail["Reply-To"]


def test_a_reply_to_a_spent_mail_is_answered_that_the_move_was_made(asked, smtp):
    game, seat, mail, codes = asked
    assert inbound.receive(client_reply(mail, [codes[0]]).as_bytes()) == "played"
    before = events(game)
    again = client_reply(mail, [codes[1]])          # the same mail, answered a second time
    assert inbound.receive(again.as_bytes()) == "answered"
    assert events(game) == before
    [answer] = answers(smtp, email_of(seat))
    assert ("a newer one has been sent" in Inbox.text(answer)
            or "the move was already made" in Inbox.text(answer))


def test_a_reply_to_an_older_mail_says_a_newer_one_was_sent(asked, smtp, replying):
    game, seat, mail, codes = asked
    from pbem.play import announce
    with outbox.transaction():
        announce.turn_mail(store.get_game(game.id), store.seats_of(game)[seat], kind="link")
    before = events(game)
    assert inbound.receive(client_reply(mail, [codes[0]]).as_bytes()) == "answered"
    assert events(game) == before
    [answer] = answers(smtp, email_of(seat))
    assert "a newer one has been sent" in Inbox.text(answer)
    newest = newest_turn_mail(smtp, email_of(seat))
    assert newest["Reply-To"] != mail["Reply-To"]
    assert inbound.receive(client_reply(newest, [codes[0]]).as_bytes()) == "played"


def test_the_same_message_id_is_applied_once(asked, smtp):
    game, seat, mail, codes = asked
    reply = client_reply(mail, [codes[0]])
    assert inbound.receive(reply.as_bytes()) == "played"
    after = events(game)
    assert inbound.receive(reply.as_bytes()) == "duplicate"
    assert events(game) == after and answers(smtp, email_of(seat)) == []


@pytest.mark.parametrize("headers", [
    {"Auto-Submitted": "auto-replied"}, {"Precedence": "bulk"}, {"Precedence": "junk"},
    {"Return-Path": "<>"}, {"X-Autoreply": "yes"}])
def test_auto_replies_are_ignored_and_never_answered(asked, smtp, headers):
    game, seat, mail, codes = asked
    before = events(game)
    reply = client_reply(mail, ["I am out of the office until Monday."], **headers)
    assert inbound.receive(reply.as_bytes()).startswith("ignored")
    assert nothing_written(game, before) and answers(smtp, email_of(seat)) == []
    assert InboundMail.select().count() == 0


def test_a_bounce_from_the_mailer_daemon_is_ignored(asked, smtp):
    game, seat, mail, codes = asked
    before = events(game)
    bounce = client_reply(mail, ["Delivery failed"], sender="MAILER-DAEMON@example.org")
    assert inbound.receive(bounce.as_bytes(), envelope_sender="").startswith("ignored")
    assert inbound.receive(client_reply(mail, [codes[0]]).as_bytes(),
                           envelope_sender="").startswith("ignored")      # empty envelope
    assert nothing_written(game, before) and answers(smtp, email_of(seat)) == []


def test_a_trusted_authserv_must_vouch_for_the_senders_domain(asked, smtp, replying):
    game, seat, mail, codes = asked
    replying.config["REPLY_TRUSTED_AUTHSERV"] = "mx.pbem.test"
    before = events(game)
    forged = client_reply(mail, [codes[0]], Authentication_Results=(
        "mx.pbem.test; dkim=pass header.d=evil.example; spf=fail smtp.mailfrom=example.org"))
    assert inbound.receive(forged.as_bytes()) == "ignored: the sender is not authenticated"
    elsewhere = client_reply(mail, [codes[0]], Authentication_Results=(
        "mx.other.test; dkim=pass header.d=example.org"))
    assert inbound.receive(elsewhere.as_bytes()) == "ignored: the sender is not authenticated"
    assert events(game) == before
    signed = client_reply(mail, [codes[0]], Authentication_Results=(
        "mx.pbem.test 1; dkim=pass header.d=example.org header.s=one"))
    assert inbound.receive(signed.as_bytes()) == "played"


def test_reply_lines_stop_at_the_quote_the_signature_and_the_first_empty_line():
    text = ("\n  red   F7 \nsay: good luck\n\nSent from my phone\n> quoted\n")
    assert reply_text.reply_lines(text) == ["red F7", "say: good luck"]
    assert reply_text.reply_lines("pass\nOn Tue, 1 Dec 2026, pbem <\npbem@x> wrote:\n> x") == ["pass"]
    assert reply_text.reply_lines("pass\n-- \nAnn") == ["pass"]
    assert reply_text.reply_lines("pass\n-----Original Message-----\nFrom: pbem") == ["pass"]
    assert reply_text.reply_lines("pass\n2026. dec. 1. 14:00 pbem ezt írta:\n> x") == ["pass"]
    assert reply_text.reply_lines("> only a quote") == []
    assert reply_text.html_text("<p>red F7</p><p>pass</p><blockquote>king A1</blockquote>"
                             ).split() == ["red", "F7", "pass"]


# -- pbem mail receive: a subprocess, as an MTA's pipe runs it -------------------------------------------

def pbem_command() -> list[str]:
    script = Path(sys.executable).with_name("pbem")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pbem.ops.cli"]


def environment(app, smtp_port, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update(PBEM_ENV="development", PBEM_DATABASE_URL=app.config["DATABASE_URL"],
               PBEM_SECRET_KEY=app.config["SECRET_KEY"], PBEM_BASE_URL="http://pbem.test",
               PBEM_MAIL_SERVER="127.0.0.1", PBEM_MAIL_PORT=str(smtp_port),
               PBEM_MAIL_TIMEOUT="5", PBEM_REPLY_ADDRESS=REPLY)
    env.update({f"PBEM_{k}": str(v) for k, v in extra.items()})
    return env


def pbem(app, smtp, args, stdin=b"", **extra):
    return subprocess.run(pbem_command() + args, input=stdin, capture_output=True,
                          env=environment(app, smtp.port, **extra), timeout=120)


def test_mail_receive_plays_a_reply_piped_in_and_exits_0(asked, smtp, replying):
    game, seat, mail, codes = asked
    before = events(game)
    reply = client_reply(mail, [codes[0]]).as_bytes()
    done = pbem(replying, smtp, ["mail", "receive", "--recipient", mail["Reply-To"],
                                 "--sender", email_of(seat)], reply)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().strip() == "played"
    assert events(game) > before
    again = pbem(replying, smtp, ["mail", "receive"], reply)
    assert again.returncode == 0 and again.stdout.decode().strip() == "duplicate"


@ON_SQLITE   # reading bytes: refused before storage
@pytest.mark.parametrize("raw", [b"", b"\x00\xff garbage \r\n\r\n\r\n", b"From: \r\nTo: <<<\r\n\r\n",
                                 b"Content-Type: multipart/mixed; boundary=\r\n\r\n--\r\n"])
def test_mail_receive_of_malformed_mail_exits_0_without_a_traceback_or_a_write(asked, smtp,
                                                                               replying, raw):
    game, seat, mail, codes = asked
    before = events(game)
    done = pbem(replying, smtp, ["mail", "receive"], raw)
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr + done.stdout
    assert done.stdout.decode().startswith("ignored")
    assert nothing_written(game, before) and InboundMail.select().count() == 0


@ON_SQLITE   # refused by size, before storage
def test_mail_receive_refuses_a_huge_message_cleanly(asked, smtp, replying):
    game, seat, mail, codes = asked
    before = events(game)
    reply = client_reply(mail, [codes[0]])
    reply.add_attachment(b"x" * 300_000, maintype="application", subtype="octet-stream")
    done = pbem(replying, smtp, ["mail", "receive"], reply.as_bytes(), MAX_MAIL_SIZE=100_000)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().startswith("refused: larger than PBEM_MAX_MAIL_SIZE")
    assert b"Traceback" not in done.stderr and nothing_written(game, before)


def test_mail_receive_exits_75_when_the_database_is_unreachable(asked, smtp, replying, tmp_path):
    game, seat, mail, codes = asked
    before = events(game)
    reply = client_reply(mail, [codes[0]]).as_bytes()
    done = pbem(replying, smtp, ["mail", "receive"], reply,
                DATABASE_URL=f"sqlite:///{tmp_path}/no/such/folder/pbem.db")
    assert done.returncode == 75, (done.stdout, done.stderr)
    assert b"Traceback" not in done.stderr and b"deliver it again" in done.stderr
    assert events(game) == before


# -- pbem mail fetch: a real IMAP server (Dovecot) ------------------------------------------------------

DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if os.path.exists("/usr/sbin/dovecot")
                                      else None)


class Mailbox:
    """A Dovecot of the test's own: IMAP on a free port, one user with a plaintext password."""

    def __init__(self, host, port, user, password):
        self.host, self.port, self.user, self.password = host, port, user, password

    def settings(self, **extra) -> dict:
        return dict(IMAP_HOST=self.host, IMAP_PORT=self.port, IMAP_USER=self.user,
                    IMAP_PASSWORD=self.password, IMAP_TLS="false", **extra)

    def imap(self):
        connection = imaplib.IMAP4(self.host, self.port, timeout=10)
        connection.login(self.user, self.password)
        return connection

    def deliver(self, raw: bytes, folder="INBOX") -> None:
        connection = self.imap()
        try:
            assert connection.append(folder, None, None, raw)[0] == "OK"
        finally:
            connection.logout()

    def count(self, folder="INBOX", criteria="ALL") -> int:
        connection = self.imap()
        try:
            connection.select(folder)
            status, data = connection.uid("SEARCH", None, criteria)
            return len(data[0].split())
        finally:
            connection.logout()


@pytest.fixture
def dovecot():
    if DOVECOT is None or not os.path.exists("/usr/lib/dovecot/imap"):   # a missing tool
        # fails, never skips (dovecot-core alone has no IMAP: dovecot-imapd brings it)
        pytest.fail("dovecot is not installed: apt-get install dovecot-imapd (.ci/run installs it)")
    root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    root.chmod(0o755)                      # the login process (another user) reaches its sockets
    port = free_port()
    if os.geteuid() == 0:                  # Dovecot runs its parts as unprivileged users
        internal, login, mail_user = "dovecot", "dovenull", "dovecot"
    else:
        internal = login = mail_user = pwd.getpwuid(os.geteuid()).pw_name
    for folder in ("mail", "home"):
        (root / folder).mkdir()
        shutil.chown(root / folder, mail_user, grp.getgrgid(pwd.getpwnam(mail_user).pw_gid).gr_name)
    (root / "passwd").write_text("turns:{PLAIN}imap-secret\n")
    (root / "dovecot.conf").write_text(f"""
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = {internal}
default_login_user = {login}
first_valid_uid = 1
first_valid_gid = 1
mail_location = maildir:{root}/mail/%u
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={mail_user} gid={pwd.getpwnam(mail_user).pw_gid} home={root}/home/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
""")
    server = subprocess.Popen([DOVECOT, "-F", "-c", str(root / "dovecot.conf")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    box = Mailbox("127.0.0.1", port, "turns", "imap-secret")
    try:
        for _ in range(200):                    # until it answers (not a timing assertion)
            if server.poll() is not None:
                raise RuntimeError(f"dovecot stopped: {server.stderr.read().decode()}")
            try:
                box.imap().logout()
                break
            except (OSError, imaplib.IMAP4.error):
                time.sleep(0.05)
        connection = box.imap()
        connection.create("Done")
        connection.logout()
        yield box
    finally:
        server.terminate()
        server.wait(timeout=20)
        shutil.rmtree(root, ignore_errors=True)


def test_mail_fetch_reads_the_imap_mailbox_once_and_moves_what_it_handled(asked, smtp, replying,
                                                                          dovecot):
    game, seat, mail, codes = asked
    before = events(game)
    dovecot.deliver(client_reply(mail, [codes[0]]).as_bytes())
    dovecot.deliver(client_reply(mail, ["Out of office"], Auto_Submitted="auto-replied")
                    .as_bytes())
    done = pbem(replying, smtp, ["mail", "fetch"], **dovecot.settings(IMAP_DONE_FOLDER="Done"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().strip() == "1 ignored, 1 played"
    assert events(game) > before
    assert dovecot.count("INBOX") == 0
    assert dovecot.count("Done", "FLAGGED") == 2
    played = events(game)
    again = pbem(replying, smtp, ["mail", "fetch"], **dovecot.settings(IMAP_DONE_FOLDER="Done"))
    assert again.returncode == 0 and again.stdout.decode().strip() == "no replies"
    assert events(game) == played


@ON_SQLITE   # IMAP's part; fetch runs on both
def test_the_mail_worker_reads_the_mailbox_and_deletes_without_a_done_folder(asked, smtp,
                                                                             replying, dovecot):
    game, seat, mail, codes = asked
    for key, value in dovecot.settings().items():
        replying.config[key] = value if key != "IMAP_TLS" else False
    before = events(game)
    dovecot.deliver(client_reply(mail, [codes[0]]).as_bytes())
    mailer._last_poll[0] = 0.0
    mailer.worker(once=True)
    assert events(game) > before
    assert dovecot.count("INBOX") == 0 and dovecot.count("Done") == 0


@ON_SQLITE   # settings and IMAP, not storage
def test_pbem_check_says_whether_replies_are_on_and_reachable(app, smtp, dovecot):
    from pbem.ops import check
    off = inbound.reply_findings({}, check.Finding)
    assert [f.level for f in off] == ["note"] and "off" in off[0].text
    settings = {"REPLY_ADDRESS": REPLY, **dovecot.settings(IMAP_FOLDER="INBOX")}
    settings["IMAP_TLS"] = False
    on = inbound.reply_findings(settings, check.Finding)
    assert [f.level for f in on] == ["ok", "ok"], on
    wrong = inbound.reply_findings({**settings, "IMAP_PASSWORD": "nope"}, check.Finding)
    assert wrong[-1].level == "problem" and "refuses" in wrong[-1].text
    gone = inbound.reply_findings({**settings, "IMAP_PORT": free_port()}, check.Finding)
    assert gone[-1].level == "problem" and "cannot be reached" in gone[-1].text
    plus = inbound.reply_findings({"REPLY_ADDRESS": "turns+x@pbem.test"}, check.Finding)
    assert plus[0].level == "problem"
    long = inbound.reply_findings({"REPLY_ADDRESS": "t" * 40 + "@pbem.test"}, check.Finding)
    assert long[0].level == "problem" and "64" in long[0].text


@ON_SQLITE   # the pipe's part; receive runs on both
def test_the_postfix_pipe_of_the_deploy_guide_runs_as_written(asked, smtp, replying):
    import shlex
    game, seat, mail, codes = asked
    guide = (Path(__file__).resolve().parents[2] / "deploy" / "README.md").read_text()
    argv = shlex.split(re.search(r"argv=(/usr/local/bin/pbem mail receive.*)", guide).group(1))
    assert argv[0] == "/usr/local/bin/pbem"
    values = {"${recipient}": mail["Reply-To"], "${sender}": email_of(seat)}
    argv = pbem_command() + [values.get(arg, arg) for arg in argv[1:]]
    before = events(game)
    done = subprocess.run(argv, input=client_reply(mail, [codes[0]]).as_bytes(),
                          capture_output=True, env=environment(replying, smtp.port), timeout=120)
    assert done.returncode == 0 and done.stdout.decode().strip() == "played", done.stderr
    assert events(game) > before
    bounce = subprocess.run(argv[:-1] + ["MAILER-DAEMON"], capture_output=True, timeout=120,
                            input=client_reply(mail, ["Undeliverable"]).as_bytes(),
                            env=environment(replying, smtp.port))
    assert bounce.returncode == 0 and bounce.stdout.decode().startswith("ignored")


def test_a_reminder_has_a_reply_address_of_its_own_that_replaces_the_turn_mails(replying, smtp):
    import datetime as dt
    from pbem.db.models import Seat
    from pbem.play import pace
    game, _ = creation.create_game("assyria", PLAYERS, seed=2,
                                  pace={"days": 1.0, "on_timeout": "wait", "drop_after": 3})
    mailer.send_due()
    seat = seat_to_act(game)
    turn = newest_turn_mail(smtp, email_of(seat))
    waiting = Seat.get(Seat.game == game.id, Seat.index == seat)
    pace.run_pass(waiting.deadline - dt.timedelta(hours=2))
    mailer.send_due()
    reminder = newest_turn_mail(smtp, email_of(seat))
    assert Inbox.headline(reminder).startswith("Reminder")
    assert REPLY_TO.match(reminder["Reply-To"]) and reminder["Reply-To"] != turn["Reply-To"]
    code = re.search(r"Your codes now: ([^|\n]+)", Inbox.text(reminder)).group(1).strip()
    assert inbound.receive(client_reply(turn, [code]).as_bytes()) == "answered"
    assert inbound.receive(client_reply(reminder, [code]).as_bytes()) == "played"


def test_the_html_part_says_how_to_answer_too(asked):
    game, seat, mail, codes = asked
    part = mail.get_body(preferencelist=("html",)).get_content()
    assert "answer this mail" in part and html.escape(codes[0]) in part
