"""The fuzzer: random and hostile requests at a real gunicorn, then the log and the mail checked.

`python -m tests.fuzz --requests 10000` (or `make fuzz N=10000`): games of each of the three
games are created, gunicorn serves the real app (production settings) on loopback, and
`requests` hostile requests (tests/fuzz/hostile.py) go at it, one at a time, mixed with legal
moves so games advance and links get spent. Afterwards `pbem mail send` delivers the outbox to
a real SMTP sink and `pbem games verify --all` replays every game. The report counts requests,
5xx answers, requests answered after more than SLOW seconds, events written by refused (4xx)
requests and mails that could not be sent.
"""
from __future__ import annotations

import collections
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

from tests.fuzz import hostile

ROOT = Path(__file__).resolve().parents[2]
BASE_URL = "http://pbem.fuzz"
TURN = re.compile(re.escape(BASE_URL) + r"/turn/([A-Za-z0-9_.\-]+)")
HOST = re.compile(re.escape(BASE_URL) + r"/host/([A-Za-z0-9_.\-]+)")
GAMES = [("tigris", 2), ("tigris", 4), ("tigris_cards", 2), ("tigris_cards", 3),
         ("assyria", 2), ("assyria", 4)]
SHOWN_FAILURES = 12
MAX_SPAM = 1.0             # SpamAssassin's score of any mail sent
SLOW = 1.0                 # seconds: no request may take longer


@dataclass
class Report:
    requests: int = 0
    server_errors: int = 0
    connection_errors: int = 0
    slow: collections.Counter = field(default_factory=collections.Counter)  # kind -> requests
    refused_writes: int = 0            # events written by requests answered 4xx/5xx
    records_refused: int = 0           # crafted records (tests/fuzz/crafted.py) refused
    records_imported: int = 0          # ... and imported (faithfully: they verify)
    record_crashes: int = 0            # ... that raised anything but ValueError, or broke
    mails_queued: int = 0
    mails_stuck: int = 0
    spam_scored: int = 0               # mails scored by spamassassin (one of each kind)
    spam_highest: tuple = ()           # (score, kind, rules) of the worst
    verify_ok: bool = False
    verify_output: str = ""
    games: int = 0
    statuses: collections.Counter = field(default_factory=collections.Counter)
    kinds: collections.Counter = field(default_factory=collections.Counter)
    failures: list = field(default_factory=list)
    seconds: float = 0.0
    time_by_kind: collections.Counter = field(default_factory=collections.Counter)

    @property
    def clean(self) -> bool:
        return (self.server_errors == 0 and self.refused_writes == 0 and self.mails_stuck == 0
                and self.verify_ok and not self.slow and self.record_crashes == 0
                and not (self.spam_highest and self.spam_highest[0] > MAX_SPAM))

    def lines(self) -> list[str]:
        statuses = ", ".join(f"{code}: {n}" for code, n in sorted(self.statuses.items()))
        shown = [f"requests sent: {self.requests} in {self.seconds:.0f} s",
                 f"5xx answers: {self.server_errors}",
                 f"connection errors: {self.connection_errors}",
                 f"requests over {SLOW:.0f} s: {sum(self.slow.values())}"
                 + "".join(f", {kind} {n}" for kind, n in self.slow.most_common(4)),
                 f"events written by refused requests: {self.refused_writes}",
                 f"crafted records: {self.records_refused} refused, {self.records_imported} "
                 f"imported, {self.record_crashes} broken",
                 f"mails queued: {self.mails_queued}, stuck after `pbem mail send`: "
                 f"{self.mails_stuck}",
                 (f"spamassassin: {self.spam_scored} mails scored, the highest "
                  f"{self.spam_highest[0]:.1f} ({self.spam_highest[1]})" if self.spam_highest
                  else "spamassassin: not installed, no mail scored"),
                 f"pbem games verify --all: {'ok' if self.verify_ok else 'FAILED'} "
                 f"({self.games} games)",
                 f"statuses: {statuses}",
                 "most time: " + ", ".join(f"{kind} {seconds:.0f} s" for kind, seconds
                                           in self.time_by_kind.most_common(4))]
        shown += [f"  problem: {failure}" for failure in self.failures[:SHOWN_FAILURES]]
        if not self.verify_ok:
            shown.append(self.verify_output)
        return shown


class World:
    """What the fuzzer knows: the games, every token mailed so far, and a seeded random."""

    def __init__(self, rng: random.Random, session: requests.Session, url: str):
        self.rng, self.session, self.url = rng, session, url
        self.game_ids: list[int] = []
        self.imported: list[int] = []        # games imported from crafted records
        self.tokens: list[str] = []
        self.spent: list[str] = []
        self.hosts: list[str] = []
        self._mail_seen = 0
        self.pages: dict[str, dict] = {}
        self.extra_requests: list[tuple[str, int]] = []   # (kind, status) of look-ups

    def read_mail(self) -> None:
        """Tokens from the outbox rows written since the last look (as a player would)."""
        from pbem.db.models import Game, Outbox
        for row in Outbox.select().where(Outbox.id > self._mail_seen).order_by(Outbox.id):
            self._mail_seen = row.id
            self.tokens += [t for t in TURN.findall(row.body_text) if t not in self.tokens]
            self.hosts += [t for t in HOST.findall(row.body_text) if t not in self.hosts]
        self.game_ids = [g.id for g in Game.select(Game.id)]
        self.imported = [g.id for g in Game.select(Game.id).where(Game.host_email == "")]

    def any_token(self) -> str:
        return self.rng.choice(self.tokens) if self.tokens else "no-token"

    def spent_or_any_token(self) -> str:
        return self.rng.choice(self.spent) if self.spent else self.any_token()

    def host_token(self) -> str:
        return self.rng.choice(self.hosts) if self.hosts else "no-host-token"

    def live_page(self):
        """(token, API page) of a link whose seat is to act now, or (None, None). Pages are
        kept while their game stays at their seq, so look-ups stay few."""
        recent = [t for t in self.tokens[-24:] if t not in self.spent]
        for token in self.rng.sample(recent, min(4, len(recent))):
            page = self.pages.get(token)
            if page is not None and page["actions"] and page["seq"] == self._seq(page["game"]):
                return token, page
            answer = self.session.get(f"{self.url}/api/turn/{token}", timeout=60)
            self.extra_requests.append(("look_up", answer.status_code))
            if answer.status_code == 410 and token not in self.spent:
                self.spent.append(token)
            if answer.status_code == 200:
                self.pages[token] = page = answer.json()
                if page["actions"]:
                    return token, page
        return None, None

    def remember(self, shot, answer) -> None:
        """An API answer is that seat's page as it stands: keep it for the next look-up."""
        if shot.path.startswith("/api/turn/") and answer.status_code == 200:
            token = shot.path.split("/")[3]
            try:
                self.pages[token] = answer.json()
            except ValueError:
                pass

    @staticmethod
    def _seq(game_id: int) -> int | None:
        from pbem.db.models import Game
        game = Game.get_or_none(Game.id == game_id)
        return None if game is None else game.seq


def event_count() -> int:
    from pbem.db.models import Event
    return Event.select().count()


def send(world: World, shot: hostile.Shot) -> requests.Response:
    return world.session.request(
        shot.method, world.url + shot.path, json=shot.json_body if shot.data is None else None,
        data=shot.data, headers=shot.headers, params=shot.params, timeout=60,
        allow_redirects=False)


def fire(world: World, report: Report, shot: hostile.Shot) -> None:
    before, started = event_count(), time.monotonic()
    try:
        answer = send(world, shot)
        status = answer.status_code
        seconds = time.monotonic() - started
        report.time_by_kind[shot.kind] += seconds
    except requests.RequestException as exc:
        report.requests += 1
        report.connection_errors += 1
        report.kinds[shot.kind + ":connection"] += 1
        if not shot.kind.startswith("oversized"):  # gunicorn may reset a refused upload
            report.failures.append(f"{shot.kind} {shot.method} {shot.path[:80]}: {exc!r:.200}")
        return
    world.remember(shot, answer)
    if seconds > SLOW:
        report.slow[shot.kind] += 1
        report.failures.append(f"{shot.kind} took {seconds:.1f} s: {shot.method} "
                               f"{shot.path[:80]} body={_body(shot)!r:.80}")
    report.requests += 1
    report.statuses[status] += 1
    report.kinds[f"{shot.kind}:{status}"] += 1
    if status >= 500:
        report.server_errors += 1
        report.failures.append(f"{status} from {shot.kind}: {shot.method} {shot.path[:100]} "
                               f"params={shot.params!r:.80} body={_body(shot)!r:.200}")
    written = event_count() - before
    if status >= 400 and written:
        report.refused_writes += written
        report.failures.append(f"{written} events written by a refused {shot.kind} ({status})")


def _body(shot: hostile.Shot):
    return shot.json_body if shot.data is None else shot.data


def settings(database_url: str, smtp_port: int) -> dict:
    return {"ENV": "production", "DATABASE_URL": database_url, "BASE_URL": BASE_URL,
            "SECRET_KEY": secrets.token_urlsafe(48), "MAIL_SERVER": "127.0.0.1",
            "MAIL_PORT": smtp_port, "MAIL_SENDER": "pbem <pbem@pbem.fuzz>", "MAIL_TIMEOUT": 10,
            "RENEW_INTERVAL": 1,
            # a long run mails the same few players often: the per-address daily cap would
            # hold their rows back, which is waiting, not being stuck
            "MAILS_PER_RECIPIENT_PER_DAY": 10**6}


def create_games(rng: random.Random) -> None:
    from pbem.play import creation
    for rules, players in GAMES:
        seats = [{"name": f"{rules[:3]}{i}", "email": f"{rules}{players}.{i}@fuzz.example.org",
                  "language": rng.choice(["en", "hu"])} for i in range(players)]
        creation.create_game(rules, seats, seed=rng.randrange(2**32), host_email="host@fuzz.example.org")


def run(requests_to_send: int, database_url: str | None = None, seed: int = 0,
        workers: int = 2, say=print, migrated: bool = False, score_mail: bool = True) -> Report:
    """Fuzz a fresh database (SQLite in a temporary folder unless `database_url` names a
    PostgreSQL one, whose tables are dropped first; `migrated`: `database_url` is one made
    for the run, migrated and empty, and is used as it is) and report. `score_mail`: one mail
    of each kind is scored by SpamAssassin (where it is installed)."""
    from tests.conftest import SMTPServer, free_port, reset_postgresql
    from tests.support.gunicorn_server import Gunicorn

    rng, report = random.Random(seed), Report()
    with tempfile.TemporaryDirectory(prefix="pbem-fuzz-") as folder:
        if database_url is None:
            database_url = f"sqlite:///{folder}/fuzz.db"
        elif not migrated:
            reset_postgresql(database_url)
        smtp = SMTPServer().start()
        try:
            config = settings(database_url, smtp.port)
            app = _open(config)
            with app.app_context():
                create_games(rng)
                import_crafted_records(rng, report)
                env = {f"PBEM_{key}": str(value) for key, value in config.items()}
                started = time.monotonic()
                with Gunicorn(free_port(), env, workers=workers,
                              app="pbem.app:create_app()") as server:
                    _hammer(server.url, rng, report, requests_to_send, say)
                report.seconds = time.monotonic() - started
                if "Traceback" in server.output:
                    report.failures.append("gunicorn's log has a traceback:\n"
                                           + _first_traceback(server.output))
                _mail_and_verify(env, report, smtp, score_mail)
            _close()
        finally:
            smtp.stop()
    return report


def import_crafted_records(rng: random.Random, report: Report) -> None:
    """Every crafted record (tests/fuzz/crafted.py), made from a card game played a little,
    imported as `pbem games import` would: each is refused (ValueError) or imported; anything
    else is a failure. The imported games' pages are then among those the requests visit."""
    from pbem.db.models import Game
    from pbem.games import RULES
    from pbem.log import store
    from pbem.play import records
    from pbem.inputs import parse_json
    from tests.conftest import play_at_random
    from tests.fuzz.crafted import crafted_records
    game = Game.select().where(Game.rules == "tigris_cards").order_by(Game.id).first()
    game = play_at_random(game, 40, rng)
    for name, make in crafted_records(records.export_game(game), RULES["tigris_cards"]).items():
        crafted = make()
        try:
            record = crafted
            if isinstance(crafted, bytes):
                from pbem.log.importing import MAX_DEPTH, MAX_SIZE
                if len(crafted) > MAX_SIZE:
                    raise ValueError("too large")
                record = parse_json(crafted, max_depth=MAX_DEPTH)
            imported = records.import_game(record)
        except ValueError:
            report.records_refused += 1
            continue
        except Exception as exc:  # noqa: BLE001 - the report says which record and how
            report.failures.append(f"crafted record {name}: {type(exc).__name__}: {exc!s:.200}")
            report.record_crashes += 1
            continue
        report.records_imported += 1
        if store.verify(imported):
            report.failures.append(f"crafted record {name} imported but does not verify")
            report.record_crashes += 1


def _open(config: dict):
    from pbem.db import database
    from pbem.app import create_app
    from pbem.db.models import db
    app = create_app(config)
    with app.app_context():
        db.connect(reuse_if_open=True)
        database.upgrade()
    return app


def _close() -> None:
    from pbem.db.models import db
    if not db.is_closed():
        db.close()
    if hasattr(db.obj, "close_all"):
        db.obj.close_all()


def _hammer(url: str, rng: random.Random, report: Report, count: int, say) -> None:
    world = World(rng, requests.Session(), url)
    world.read_mail()
    _warm_up(world)
    step = max(count // 10, 1)
    while report.requests < count:
        if report.requests % 10 == 0:
            world.read_mail()
        started = time.monotonic()
        shot = hostile.pick(rng)(world)
        report.time_by_kind["(look-ups)"] += time.monotonic() - started
        looked_up = len(world.extra_requests)
        fire(world, report, shot)
        for kind, status in world.extra_requests[looked_up:]:
            report.requests += 1
            report.statuses[status] += 1
            if status >= 500:
                report.server_errors += 1
                report.failures.append(f"{status} from a look-up of a turn page")
        del world.extra_requests[:]
        if report.requests // step != (report.requests - 1) // step:
            say(f"  ... {report.requests} requests, {report.server_errors} × 5xx")


def _warm_up(world: World) -> None:
    """Each worker's first page of a game compiles its templates and draws its board's parts
    (0.3-0.9 s here): pages of every game, a few times over the workers, before the count
    starts, so SLOW measures requests, not a cold worker."""
    for _ in range(3):
        for game_id in world.game_ids:
            world.session.get(f"{world.url}/games/{game_id}", timeout=60)
        for token in world.tokens:
            world.session.get(f"{world.url}/turn/{token}", timeout=60)


def _pbem(env: dict, *args: str) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    full.update(env)
    return subprocess.run([sys.executable, "-m", "pbem.ops.cli", *args], cwd=ROOT, env=full,
                          capture_output=True, text=True, timeout=600)


def _mail_and_verify(env: dict, report: Report, smtp, score_mail: bool = True) -> None:
    from pbem.db.models import Game, Outbox
    sent = _pbem(env, "mail", "send")
    if sent.returncode != 0:
        report.failures.append(f"pbem mail send failed: {sent.stderr.strip()[-500:]}")
    report.mails_queued = Outbox.select().count()
    report.mails_stuck = Outbox.select().where(Outbox.sent_at.is_null()).count()
    if report.mails_stuck:
        for row in Outbox.select().where(Outbox.sent_at.is_null()).limit(5):
            report.failures.append(f"mail {row.id} to {row.recipient!r:.80} not sent: "
                                   f"{row.last_error!r:.200}")
    if score_mail:
        _score_mail(report, smtp)
    verified = _pbem(env, "games", "verify", "--all")
    report.verify_ok = verified.returncode == 0
    report.verify_output = (verified.stdout + verified.stderr).strip()[-2000:]
    report.games = Game.select().count()


def _score_mail(report: Report, smtp) -> None:
    """One mail of each kind the run sent, scored by `spamassassin -L -t` in one run (a few
    seconds): above MAX_SPAM is a problem, as in tests/mail/test_headers.py."""
    from tests import mail_kinds
    if mail_kinds.SPAMASSASSIN is None:
        return
    chosen = {}
    for message in smtp.inbox.messages:
        chosen.setdefault(mail_kinds.kind_of(message), message)
    if not chosen:
        return
    scores = mail_kinds.spam_scores(list(chosen.values()))
    report.spam_scored = len(scores)
    (score, hits), kind = max(zip(scores, chosen), key=lambda pair: pair[0][0])
    report.spam_highest = (score, kind, hits)
    if score > MAX_SPAM:
        report.failures.append(f"the {kind} mail scores {score} with spamassassin: {hits}")


def _first_traceback(output: str) -> str:
    start = output.index("Traceback")
    return output[start:start + 1500]
