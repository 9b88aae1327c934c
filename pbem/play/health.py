"""How the running server is doing, without secrets: one list of findings, each with one
severity, that GET /health and `pbem check` both show: the database, its migrations, each mail
process's heartbeat (live, dead with the mail it still holds, or on a host whose clock is off),
the oldest mail still waiting, the replies' IMAP mailbox, the games a pass fails on, computer
seats nobody plays, the SQLite disk's free space, PostgreSQL's autovacuum and the installed
deploy files.

A "problem" makes /health answer 503 and `pbem check` exit 1; a "note" is listed by both and
changes neither (a game the passes fail on is a note: it is named, and the server's own faults
that come after it still turn /health to 503).

Heartbeats are written and read with the database's clock (`database.database_now`), never a
host's own: a host whose clock runs ahead or behind is named, not believed."""
from __future__ import annotations

import datetime as dt
import logging
import os
import shutil
import socket
from dataclasses import asdict, dataclass
from pathlib import Path

import peewee as pw

from .. import __version__
from ..db.database import (MIGRATIONS, autovacuum_off, database_now, discard_connection,
                           is_sqlite, write_transaction)
from ..db.models import Heartbeat, Outbox, db, utcnow

log = logging.getLogger(__name__)

WORKER_SILENT_AFTER = 300           # seconds without a heartbeat before a process counts as down
MAIL_LATE_AFTER = 3600              # seconds a mail may wait before it counts as stuck
IMAP_SILENT_AFTER = 900             # seconds without a read of the replies' mailbox (when set)
CLOCK_LIMIT = 120                   # seconds a host's clock may be off the database's, unsaid
FORGOTTEN_AFTER = dt.timedelta(days=1)   # a dead or stopped process's row is kept this long
MAIL_WORKER = "mail worker"         # a long-running `pbem mail worker` (one row per process)
MAIL_SEND = "mail send"             # `pbem mail send` from cron (one row per host)
BOTS = "bots"                       # `pbem bots` from cron (one row per host)
IMAP = "imap"                       # the last read of the replies' IMAP mailbox (one per host)
ONE_SHOT = (MAIL_SEND, BOTS, IMAP)  # kinds with one row per host, not per process
HELD = "held:"                      # how the daily per-recipient cap marks the mail it holds

PROBLEM, NOTE = "problem", "note"


@dataclass(frozen=True)
class Finding:
    """One thing /health and `pbem check` say: its severity (PROBLEM: 503 and exit 1; NOTE:
    listed only), what it is about, and the words."""

    severity: str
    about: str          # database, migrations, mail worker, clock, mail, replies, game,
    text: str           # computers, disk, deploy files


# -- what the processes write --------------------------------------------------------------------

def this_process(kind: str = MAIL_WORKER) -> dict:
    return {"kind": kind, "host": socket.gethostname()[:255],
            "pid": 0 if kind in ONE_SHOT else os.getpid()}


def process_name(kind: str = MAIL_WORKER) -> str:
    """How outbox claims name the process holding them: host:pid."""
    me = this_process(kind)
    return f"{me['host']}:{me['pid']}"


def clock_ahead(host_now: dt.datetime | None = None) -> float:
    """Seconds this host's clock is ahead of the database's (negative: behind); said in the
    log when it is more than CLOCK_LIMIT either way."""
    shared = database_now()
    ahead = ((host_now or utcnow()) - shared).total_seconds()
    if abs(ahead) > CLOCK_LIMIT:
        log.warning("this host's clock is %d s %s the database's: deadlines and heartbeats "
                    "follow the database's clock; set this host's right (timedatectl "
                    "set-ntp true)", abs(ahead), "ahead of" if ahead > 0 else "behind")
    return ahead


def beat(kind: str = MAIL_WORKER, now: dt.datetime | None = None,
         host_now: dt.datetime | None = None) -> None:
    """Record that this process (of `kind`) is alive now, by the database's clock, with how
    far its own clock is off; forget processes gone for a day. A mail worker also marks the
    workers of its host that are gone without saying so (killed, then restarted as this one):
    they no longer count as live. `now` stands for the database's clock in tests; `host_now`
    for this host's."""
    ahead = None if now is not None and host_now is None else clock_ahead(host_now)
    now = now or database_now()
    me = this_process(kind)
    # one transaction: /health never sees a restarted worker's first beat before the worker it
    # replaced is marked lost (the two then counted live at once)
    with write_transaction():
        (Heartbeat.insert(**me, started_at=now, beat_at=now, clock_ahead=ahead)
         .on_conflict(conflict_target=[Heartbeat.host, Heartbeat.pid, Heartbeat.kind],
                      update={Heartbeat.beat_at: now, Heartbeat.stopped_at: None,
                              Heartbeat.lost_at: None, Heartbeat.clock_ahead: ahead})
         .execute())
        if kind == MAIL_WORKER:
            _mark_lost(me, now)
        Heartbeat.delete().where(Heartbeat.beat_at < now - FORGOTTEN_AFTER).execute()


def _mark_lost(me: dict, now: dt.datetime) -> None:
    """The workers of this host, started before this one and silent since, whose process is
    gone: killed without saying so (a restart gets a new pid). They stay listed as dead, but
    not live."""
    mine = Heartbeat.get(Heartbeat.host == me["host"], Heartbeat.pid == me["pid"],
                         Heartbeat.kind == MAIL_WORKER)
    others = Heartbeat.select().where(
        Heartbeat.host == me["host"], Heartbeat.kind == MAIL_WORKER, Heartbeat.pid != me["pid"],
        Heartbeat.stopped_at.is_null(), Heartbeat.lost_at.is_null(),
        Heartbeat.beat_at < mine.started_at)
    gone = [row.id for row in others if not _running(row.pid)]
    if gone:
        Heartbeat.update(lost_at=now).where(Heartbeat.id.in_(gone)).execute()


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True             # another user's process: it exists
    return True


def stopped(kind: str = MAIL_WORKER, now: dt.datetime | None = None) -> None:
    """Record that this process stopped cleanly: it is not missed."""
    me = this_process(kind)
    (Heartbeat.update(stopped_at=now or database_now())
     .where(Heartbeat.host == me["host"], Heartbeat.pid == me["pid"], Heartbeat.kind == kind)
     .execute())


def replies_read(error: str = "") -> None:
    """Record a read of the replies' IMAP mailbox from this host: fine, or its error."""
    now = database_now()
    me = this_process(IMAP)
    (Heartbeat.insert(**me, started_at=now, beat_at=now, error=error[:2000])
     .on_conflict(conflict_target=[Heartbeat.host, Heartbeat.pid, Heartbeat.kind],
                  update={Heartbeat.beat_at: now, Heartbeat.error: error[:2000]})
     .execute())


def known_migrations() -> list[str]:
    return sorted(path.stem for path in MIGRATIONS.glob("[0-9][0-9][0-9]_*.py"))


def pending_migrations() -> list[str]:
    """Migrations shipped with this pbem that the database has not had (read only)."""
    if "migratehistory" not in db.obj.get_tables():
        return known_migrations()
    done = {name for (name,) in db.obj.execute_sql("SELECT name FROM migratehistory")}
    return [name for name in known_migrations() if name not in done]


# -- the report ----------------------------------------------------------------------------------

# Checks of this host beside the database's (the installed deploy files): name -> a function
# of no argument giving Findings. The application registers them (pbem/app.py), as the layer
# that knows them sits above this one.
HOST_CHECKS: dict = {}


def _age(then: dt.datetime | None, now: dt.datetime) -> int | None:
    return None if then is None else max(0, int((now - then).total_seconds()))


def report(config, now: dt.datetime | None = None, host_checks: bool = True) -> dict:
    """The health report of the settings `config` (the app's, or `pbem check`'s): every
    finding, and "status" "unhealthy" when one of them is a PROBLEM. "problems" and "notes"
    give their words by severity. `host_checks`: run HOST_CHECKS too."""
    result = {"version": __version__, "database": "unreachable", "migrations": None,
              "mail_worker": None, "mail": None, "replies": None, "failed_games": [],
              "computers": None, "disk": None}
    found: list[Finding] = []
    if host_checks:
        for check in HOST_CHECKS.values():
            found += check()
    try:
        db.connect(reuse_if_open=True)
        db.obj.execute_sql("SELECT 1")
        now = now or database_now()
    except pw.DatabaseError:
        found.insert(0, Finding(PROBLEM, "database", "the database is unreachable"))
        return _status(result, found)
    result["database"] = "ok"
    pending = pending_migrations()
    result["migrations"] = {"current": not pending, "pending": pending}
    if pending:
        found.append(Finding(PROBLEM, "migrations", "migrations not applied: "
                             + ", ".join(pending) + " (run pbem db upgrade)"))
    parts = (("mail_worker", _workers), ("mail", _mail), ("replies", _replies),
             ("failed_games", _failed_games), ("computers", _computers))
    for name, part in parts:
        try:
            result[name] = part(config, now, found)
        except pw.DatabaseError:
            if not pending:
                raise
            discard_connection()        # a column of a migration not applied yet: left out
    result["disk"] = _disk(config, found)
    _upkeep(found)
    return _status(result, found)


def _status(result: dict, found: list[Finding]) -> dict:
    result["findings"] = [asdict(finding) for finding in found]
    result["problems"] = [f.text for f in found if f.severity == PROBLEM]
    result["notes"] = [f.text for f in found if f.severity == NOTE]
    result["status"] = "unhealthy" if result["problems"] else "ok"
    return result


def _failed_games(config, now, found) -> list[dict]:
    """Games a pass could not settle (skipped until they move): a note each, naming it."""
    from .pace import failed_games
    failed = [{"game": game.id, "at_move": game.pace_error_seq, "error": game.pace_error}
              for game in failed_games()]
    for entry in failed:
        found.append(Finding(NOTE, "game", f"game {entry['game']}: the pace pass fails at move "
                             f"{entry['at_move']} ({entry['error']}); it is skipped until it "
                             "moves or is resumed"))
    return failed


def _workers(config, now, found) -> dict:
    """The newest heartbeat of any mail process, the live workers, the dead ones (a worker
    that fell silent without stopping: killed, crashed, its host gone), and the hosts whose
    clock is off the database's. A dead one is a problem while it holds claimed mail or no
    worker started on its host since it died."""
    rows = list(Heartbeat.select().where(Heartbeat.kind != IMAP)
                .order_by(Heartbeat.host, Heartbeat.pid))
    senders = [row for row in rows if row.kind in (MAIL_WORKER, MAIL_SEND)]
    newest = max((row.beat_at for row in senders), default=None)
    age = _age(newest, now)
    if age is None:             # a fresh install is a note until mail waits for it
        waits = Outbox.select().where(Outbox.sent_at.is_null(), Outbox.failed_at.is_null())
        found.append(Finding(PROBLEM if waits.exists() else NOTE, "mail worker",
                             "the mail worker has never run (pbem mail worker)"))
    elif age > WORKER_SILENT_AFTER:
        found.append(Finding(PROBLEM, "mail worker", f"the mail worker has been silent for "
                             f"{age} s"))
    silent = now - dt.timedelta(seconds=WORKER_SILENT_AFTER)
    workers = [row for row in rows if row.kind == MAIL_WORKER and row.stopped_at is None]
    live = [row for row in workers if row.beat_at >= silent and row.lost_at is None]
    dead = []
    for row in (row for row in workers if row not in live):
        claims = (Outbox.select().where(Outbox.claimed_by == f"{row.host}:{row.pid}",
                                        Outbox.sent_at.is_null(), Outbox.claimed_until > now)
                  .count())
        replaced = row.lost_at is not None or any(
            other.host == row.host and other.started_at > row.beat_at for other in live)
        silent_for = _age(row.beat_at, now)
        dead.append({"host": row.host, "pid": row.pid, "silent_for": silent_for,
                     "claimed_mail": claims})
        if claims or not replaced:
            found.append(Finding(
                PROBLEM, "mail worker", f"mail worker {row.host}:{row.pid} stopped without "
                f"saying so {silent_for} s ago (killed?)"
                + (f"; {claims} mails it claimed wait for their lease to run out"
                   if claims else "")))
    off = [row for row in rows if row.beat_at >= silent and row.clock_ahead is not None
           and abs(row.clock_ahead) > CLOCK_LIMIT]
    for row in off:
        found.append(Finding(
            PROBLEM, "clock", f"the clock of {row.host} ({row.kind}) is "
            f"{abs(int(row.clock_ahead))} s {'ahead of' if row.clock_ahead > 0 else 'behind'} "
            "the database's: deadlines and heartbeats follow the database's clock, the times "
            "it writes do not; set it right (timedatectl set-ntp true)"))
    return {"heartbeat_age": age, "live": len(live), "dead": dead,
            "clock_off": [{"host": r.host, "kind": r.kind, "ahead": round(r.clock_ahead)}
                          for r in off]}


def _mail(config, now, found) -> dict:
    """Mail waiting, and how long the oldest has waited; mail the daily per-recipient cap
    holds back is "held" (it goes out when the day is over), not stuck."""
    waiting = Outbox.select().where(Outbox.sent_at.is_null(), Outbox.failed_at.is_null())
    is_held = Outbox.last_error.startswith(HELD) & (Outbox.next_try_at > now)
    oldest = waiting.where(~is_held).select(pw.fn.MIN(Outbox.created_at)).scalar()
    age = _age(oldest, now)
    if age is not None and age > MAIL_LATE_AFTER:
        found.append(Finding(PROBLEM, "mail", f"the oldest waiting mail has waited {age} s"))
    failed = Outbox.select().where(Outbox.failed_at.is_null(False)).count()
    if failed:
        found.append(Finding(NOTE, "mail", f"{failed} mails failed for good (pbem mail list "
                             "--failed; pbem mail retry --failed once the cause is fixed)"))
    return {"waiting": waiting.count(), "held": waiting.where(is_held).count(),
            "oldest_waiting_age": age, "failed": failed}


def _replies(config, now, found) -> dict | None:
    """The replies' IMAP mailbox, when one is set: its last read (by the mail worker or
    `pbem mail fetch`, on any host) failed, or none came for IMAP_SILENT_AFTER."""
    if not config.get("IMAP_HOST"):
        return None
    last = (Heartbeat.select().where(Heartbeat.kind == IMAP)
            .order_by(Heartbeat.beat_at.desc()).first())
    age = _age(last.beat_at if last else None, now)
    if last is None:
        found.append(Finding(PROBLEM, "replies", "the replies' IMAP mailbox has never been read "
                             "(pbem mail worker reads it; or pbem mail fetch from cron)"))
    elif last.error:
        found.append(Finding(PROBLEM, "replies", f"the replies' IMAP mailbox could not be read "
                             f"{age} s ago: {last.error}"))
    elif age > IMAP_SILENT_AFTER:
        found.append(Finding(PROBLEM, "replies", f"the replies' IMAP mailbox has not been read "
                             f"for {age} s (pbem mail worker reads it; or pbem mail fetch "
                             "from cron)"))
    return {"last_read_age": age, "error": bool(last and last.error)}


def _computers(config, now, found) -> dict:
    """Decisions the computer players are asked, and whether anything plays them: a mail
    worker (each of its passes plays them) or `pbem bots` (from cron) that beat lately."""
    from .computers import decisions
    waiting = decisions(now)
    players = (Heartbeat.select(pw.fn.MAX(Heartbeat.beat_at))
               .where((Heartbeat.kind == BOTS)
                      | ((Heartbeat.kind == MAIL_WORKER) & Heartbeat.stopped_at.is_null()
                         & Heartbeat.lost_at.is_null()))
               .scalar())
    age = _age(players, now)
    if waiting and (age is None or age > WORKER_SILENT_AFTER):
        games = sorted({decision.game_id for decision in waiting})
        since = "has ever run" if age is None else f"has run for {age} s"
        found.append(Finding(PROBLEM, "computers", f"{len(waiting)} computer seats wait to "
                             f"move (games {', '.join(map(str, games))}) and no mail worker "
                             f"or pbem bots {since}: run pbem mail worker, or pbem bots from "
                             "cron beside pbem mail send (deploy/README.md)"))
    return {"waiting": len(waiting), "last_pass_age": age}


def _disk(config, found) -> dict | None:
    """The free space beside an SQLite database (PostgreSQL's disk is its server's)."""
    if not is_sqlite() or db.obj.database == ":memory:":
        return None
    folder = Path(db.obj.database).resolve().parent
    free_mb = shutil.disk_usage(folder).free // (1024 * 1024)
    least = int(config.get("DISK_FREE_MIN_MB") or 0)
    if free_mb < least:
        found.append(Finding(PROBLEM, "disk", f"{free_mb} MB free beside the SQLite database "
                             f"(PBEM_DISK_FREE_MIN_MB={least}): when it runs out every write "
                             "fails with \"database or disk is full\"; free some space"))
    return {"free_mb": free_mb}


def _upkeep(found) -> None:
    """PostgreSQL's autovacuum, which keeps the planner's statistics and reuses the space that
    sent mail and pruned rows leave. Without statistics the planner takes the outbox's due mail
    for one row and sorts every unsent one at each claim (107 ms instead of 0.2 at 17,000
    unsent mails, measured), and the listings go the same way."""
    if autovacuum_off():
        found.append(Finding(NOTE, "database", "PostgreSQL's autovacuum is off: the planner has "
                             "no fresh statistics and freed space is not reused; turn it on "
                             "(autovacuum = on, PostgreSQL's default) or run VACUUM ANALYZE "
                             "daily"))


def problems_of(config) -> list[Finding]:
    """The findings of `report` alone (`pbem mail send` and `pbem bots` advise from them)."""
    return [Finding(**entry) for entry in report(config, host_checks=False)["findings"]]
