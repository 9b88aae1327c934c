"""The mail fuzzer: hostile raw mails to the reply address, each through `pbem mail receive` (a
process of its own, as an MTA's pipe runs it). `python -m tests.fuzz --mail N`.

A game is made and its turn mails queued (their reply addresses live, and some spent by newer
mails); then N mails, each one of: a hostile shape of tests/fuzz/mails.py at a random size up
to PBEM_MAX_MAIL_SIZE, a From: in a player's name that only a lenient parser reads as theirs,
a forged Authentication-Results, or one of those with random bytes changed. None is the
player's: the report counts tracebacks and exit codes other than 0, rows written (events,
messages, replies handled, answers) and answers queued, and must find none.
"""
from __future__ import annotations

import collections
import os
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

from tests.fuzz import ROOT, mails

AUTHSERV = "mx.pbem.fuzz"
REPLY_ADDRESS = "turns@pbem.fuzz"
STRANGER = "turns+" + "q" * 26 + "@pbem.fuzz"
SIZES = (1_000, 16_000, 64_000, 300_000, 1024 * 1024 - 4096)


@dataclass
class MailReport:
    mails: int = 0
    tracebacks: int = 0
    bad_exits: int = 0
    writes: int = 0                    # mails after which any row was written
    answers: int = 0                   # answers queued to a forged reply
    outcomes: collections.Counter = field(default_factory=collections.Counter)
    failures: list = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.tracebacks or self.bad_exits or self.writes or self.answers)

    def lines(self) -> list[str]:
        shown = [f"mails received: {self.mails}", f"tracebacks: {self.tracebacks}",
                 f"exit codes other than 0: {self.bad_exits}",
                 f"mails that wrote a row: {self.writes}",
                 f"answers to forged mails: {self.answers}",
                 "outcomes: " + ", ".join(f"{word}: {n}" for word, n in
                                          self.outcomes.most_common())]
        return shown + self.failures[:12]


@dataclass
class Target:
    live: list[str]                    # reply addresses of the newest turn mails
    spent: list[str]                   # reply addresses of older ones
    players: list[str]                 # the seats' addresses

    def address(self, rng: random.Random) -> str:
        return rng.choice(self.live + self.spent + [STRANGER])


def pick(rng: random.Random, target: Target) -> tuple[str, bytes, bool]:
    """(kind, raw mail, whether it goes to the server that trusts AUTHSERV)."""
    victim, to = rng.choice(target.players), target.address(rng)
    roll = rng.random()
    if roll < 0.35:
        shape = rng.choice(sorted(mails.SHAPES))
        return shape, mails.shaped(shape, rng.choice(SIZES), to, victim), True
    if roll < 0.6:
        sender = rng.choice(mails.forged_from(victim))
        return "forged From", mails.reply(to, sender, ["pass"]), False
    if roll < 0.85:
        headers = rng.choice(mails.forged_authentication(victim, AUTHSERV))
        return "forged Authentication-Results", mails.reply(to, victim, ["pass"],
                                                            authentication=headers), True
    sender = rng.choice(mails.forged_from(victim) + [victim])
    raw = bytearray(mails.reply(to, sender, ["pass", "say: hi\x00"]))
    for _ in range(rng.randrange(1, 12)):
        raw[rng.randrange(len(raw))] = rng.choice(b"\x00\r\n:;<>@=?\"()\\ \xff")
    return "changed bytes", bytes(raw), True


def _rows() -> tuple:
    from pbem.db.models import Event, InboundMail, Message, Outbox, ReplyAddress
    return (Event.select().count(), Message.select().count(), InboundMail.select().count(),
            Outbox.select().count(),
            ReplyAddress.select().where(ReplyAddress.answered_at.is_null(False)).count())


def _target(rng: random.Random) -> Target:
    """A game whose first turn mails are replaced by newer ones: live and spent addresses."""
    from pbem.db.models import Outbox
    from pbem.log import store
    from pbem.play import announce, outbox, reply_address
    from pbem.play import creation
    players = [{"name": "Ann", "email": "ann@fuzz.example.org"},
               {"name": "Bob", "email": "bob@fuzz.example.org"}]
    game, _ = creation.create_game("assyria", players, seed=rng.randrange(2**32))
    first = [row.id for row in Outbox.select(Outbox.id)]
    game = store.get_game(game.id)
    seat = store.rules_of(game).to_act(store.state_of(game))[0]
    with outbox.transaction():
        announce.turn_mail(game, store.seats_of(game)[seat], kind="link")
    addresses = {row.id: reply_address.reply_to((row.context or {}).get("token") or "")
                 for row in Outbox.select() if row.template == "turn"}
    spent = [a for i, a in addresses.items() if i in first and a]
    live = [a for i, a in addresses.items() if i not in first and a]
    return Target(live=live, spent=spent, players=[p["email"] for p in players])


def run_mail(count: int, database_url: str | None = None, seed: int = 0,
             say=print) -> MailReport:
    """`count` hostile mails through `pbem mail receive` on a fresh database (SQLite in a
    temporary folder unless `database_url` names a PostgreSQL one, whose tables are dropped)."""
    from tests.conftest import SMTPServer, reset_postgresql
    from tests.fuzz import _close, _open, settings

    rng, report = random.Random(seed), MailReport()
    with tempfile.TemporaryDirectory(prefix="pbem-fuzz-mail-") as folder:
        if database_url is None:
            database_url = f"sqlite:///{folder}/fuzz.db"
        else:
            reset_postgresql(database_url)
        smtp = SMTPServer().start()
        try:
            config = {**settings(database_url, smtp.port), "REPLY_ADDRESS": REPLY_ADDRESS}
            app = _open(config)
            with app.app_context():
                target = _target(rng)
                base = {f"PBEM_{key}": str(value) for key, value in config.items()}
                trusting = {**base, "PBEM_REPLY_TRUSTED_AUTHSERV": AUTHSERV}
                step = max(count // 10, 1)
                for number in range(count):
                    kind, raw, trusted = pick(rng, target)
                    before = _rows()
                    done = receive(trusting if trusted else base, raw)
                    _tally(report, kind, done, before, _rows())
                    if (number + 1) % step == 0:
                        say(f"  {number + 1} mails, {report.tracebacks} tracebacks, "
                            f"{report.writes} writes")
            _close()
        finally:
            smtp.stop()
    return report


def receive(env: dict, raw: bytes) -> subprocess.CompletedProcess:
    """`pbem mail receive` with `raw` on its standard input, as an MTA's pipe runs it."""
    full = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    full.update(env)
    return subprocess.run([sys.executable, "-m", "pbem.ops.cli", "mail", "receive"], cwd=ROOT,
                          env=full, input=raw, capture_output=True, timeout=600)


def _tally(report: MailReport, kind: str, done, before: tuple, after: tuple) -> None:
    report.mails += 1
    output = (done.stdout + done.stderr).decode("utf-8", "replace")
    outcome = done.stdout.decode("utf-8", "replace").strip().partition(" (")[0][:60]
    report.outcomes[outcome or f"exit {done.returncode}"] += 1
    if "Traceback" in output:
        report.tracebacks += 1
        report.failures.append(f"{kind}: a traceback: {output[-600:]}")
    elif done.returncode != 0:
        report.bad_exits += 1
        report.failures.append(f"{kind}: exit {done.returncode}: {output[-300:]}")
    if after != before:
        report.writes += 1
        report.failures.append(f"{kind}: rows {before} -> {after} ({outcome})")
    if after[3] > before[3]:
        report.answers += after[3] - before[3]
