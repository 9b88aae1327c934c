"""Every kind of mail pbem sends, made through the real use cases and delivered to a real SMTP
server: the mail tests score them (SpamAssassin), read their headers as a mail client does and
show them on a phone. `every_kind(client)` needs an app context whose app confirms sign-ups
(SIGNUP_CONFIRM=True) and whose clock the pace pass can run ahead of."""
from __future__ import annotations

import datetime as dt
import random
import re
import shutil
import subprocess
import tempfile
import mailbox
from email import policy
from email.message import EmailMessage
from pathlib import Path

from pbem.db.models import Seat
from pbem.log import store
from pbem.mail import kinds, mailer
from pbem.play import digest, fresh, pace, talk
from pbem.play import moves as playing
from pbem.play import creation

KINDS = {"confirm", "host", "invite", "turn", "link", "reminder", "host-dropped", "dropped",
         "over", "home", "digest"}
# every template (kinds.TEMPLATES) is one of these kinds at least once
TEMPLATES = {"confirm", "host", "invite", "turn", "host_notice", "dropped", "over", "home",
             "digest"}
CONFIRM = re.compile(r"/new/confirm/[A-Za-z0-9_.\-]+")


def people(tag: str, count: int = 2) -> list[dict]:
    names = ["Ann", "Bob", "Cecília", "Dénes"]
    return [{"name": names[i], "email": f"{tag}-{names[i][:3].lower()}@example.org",
             "language": "hu" if i == 2 else "en"} for i in range(count)]


def _play(game, moves: int, rng: random.Random, say: str = ""):
    rules = store.rules_of(game)
    said: dict[int, int] = {}       # within talk's rate limit (a random seed's game may give a
    for _ in range(moves):          # seat more moves than it allows messages)
        game = store.get_game(game.id)
        state = store.state_of(game)
        waiting = rules.to_act(state)
        if not waiting or game.status != "running":
            break
        seat = rng.choice(waiting)
        if say and said.get(seat, 0) < talk.RATE_COUNT:
            talk.post(game.id, seat, say)
            said[seat] = said.get(seat, 0) + 1
        playing.act(game.id, seat, rng.choice(rules.legal_actions(state, seat)), game.seq)
    return store.get_game(game.id)


def every_kind(client, smtp) -> list[EmailMessage]:
    """Make and deliver at least one mail of each kind in KINDS; the messages as received."""
    form = {"rules": "tigris", "name0": "Ann", "email0": "t-ann@example.org", "name1": "Bob",
            "email1": "t-bob@example.org", "host_email": "host@example.org"}
    assert client.post("/new", data=form).status_code == 303
    mailer.send_due()
    confirm = CONFIRM.search(smtp.inbox.text(smtp.inbox.messages[-1])).group(0)
    assert client.post(confirm).status_code == 303          # host, invitations, first turn
    tigris = store.get_game(max(s.game_id for s in Seat.select()))
    _play(tigris, 12, random.Random(1), say="Szia! Jó játékot – good luck.")
    for rules_name, moves in (("tigris_cards", 8), ("assyria", 12)):
        game, _ = creation.create_game(rules_name, people(rules_name, 3 if rules_name == "assyria"
                                                         else 2), seed=4)
        _play(game, moves, random.Random(rules_name))
    over, _ = creation.create_game("duel", people("over"), seed=3, host_email="host@example.org")
    _play(over, 60, random.Random(3), say="gg")
    paced, _ = creation.create_game("duel", people("paced"), {"rounds": 3}, seed=3,
                                   host_email="host@example.org",
                                   pace={"days": 1.0, "on_timeout": "auto", "drop_after": 1})
    waiting = Seat.select().where(Seat.game == paced.id, Seat.deadline.is_null(False)).get()
    pace.run_pass(waiting.deadline - dt.timedelta(hours=2))              # a reminder
    pace.run_pass(waiting.deadline + dt.timedelta(minutes=1))            # dropped; host told
    game = store.get_game(tigris.id)
    rules = store.rules_of(game)
    fresh.resend(game.id, rules.to_act(store.state_of(game))[0])         # a fresh link
    asked = next(s for s in Seat.select().where(Seat.game == game.id)
                 if s.index in rules.to_act(store.state_of(game)))
    assert client.post("/me", data={"email": asked.email}).status_code == 200   # home link
    with playing.outbox.transaction():
        digest.send_digest(asked.email)
    counts = mailer.send_due()
    assert not counts["failed"] and not counts["retry"], counts
    messages = list(smtp.inbox.messages)
    assert KINDS <= {kind_of(m) for m in messages}, {kind_of(m) for m in messages}
    assert TEMPLATES <= set(kinds.TEMPLATES)
    return messages


def kind_of(message) -> str:
    """A mail's kind, from its Message-ID (<pbem.game.kind.random@host>, or a thread root
    <pbem.game.seatN|host.time@host> for invitations and the host's first mail)."""
    part = message["Message-ID"].strip("<>").split(".")[2]
    return "invite" if part.startswith("seat") else part


def as_received(message) -> bytes:
    """A received message's bytes, its header lines as they came (not refolded)."""
    return message.as_bytes(policy=policy.SMTP.clone(refold_source="none"))


# -- SpamAssassin -------------------------------------------------------------------------------------

SPAMASSASSIN = shutil.which("spamassassin")
# sub-rules of SpamAssassin's own set, made visible (each a meta rule with a tiny score): the
# board picture's one-letter cells (HTML_SINGLET_MANY is muted in quoted-printable mail, its
# __HTML_SINGLET_MANY part is not) and text too small to read
SHOWN_RULES = {"PBEM_HTML_SINGLET_MANY": "__HTML_SINGLET_MANY", "PBEM_TINY_FONT": "__AC_TINY_FONT",
               "PBEM_FONT_INVIS": "__FONT_INVIS"}
STATUS = re.compile(rb"^X-Spam-Status: \w+, score=(-?[\d.]+) required=[\d.]+ tests=(.*?)"
                    rb" autolearn", re.M | re.S)


def spam_scores(messages) -> list[tuple[float, list[str]]]:
    """(score, rules hit) for each message, from one `spamassassin -L -t --mbox` run: local
    tests only, no network, no user state (a throwaway home)."""
    options = []
    for name, rule in SHOWN_RULES.items():
        options += ["--cf", f"meta {name} {rule}", "--cf", f"score {name} 0.001"]
    with tempfile.TemporaryDirectory() as home:
        box = mailbox.mbox(Path(home) / "mail.mbox")
        for message in messages:
            box.add(as_received(message))
        box.flush()
        data = (Path(home) / "mail.mbox").read_bytes()
        done = subprocess.run([SPAMASSASSIN, "-L", "-t", "--mbox",
                               "-p", str(Path(home) / "user_prefs"), *options],
                              input=data, capture_output=True, timeout=600,
                              env={"HOME": home, "PATH": "/usr/bin:/bin"})
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")[-2000:]
    found = STATUS.findall(done.stdout)
    assert len(found) == len(messages), done.stdout[-3000:]
    return [(float(score), re.sub(rb"\s+", b"", tests).decode().split(",")) for score, tests
            in found]
