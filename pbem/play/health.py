"""How the running server is doing, without secrets: database reachable, migrations current,
each mail process's heartbeat (live, or dead with the mail it still holds), the oldest mail
still waiting. Read by GET /health and pbem check."""
from __future__ import annotations

import datetime as dt
import os
import socket

import peewee as pw

from .. import __version__
from ..db.database import MIGRATIONS
from ..db.models import Heartbeat, Outbox, db, utcnow

WORKER_SILENT_AFTER = 300           # seconds without a heartbeat before a process counts as down
MAIL_LATE_AFTER = 3600              # seconds a mail may wait before it counts as stuck
FORGOTTEN_AFTER = dt.timedelta(days=1)   # a dead or stopped process's row is kept this long
MAIL_WORKER = "mail worker"         # a long-running `pbem mail worker` (one row per process)
MAIL_SEND = "mail send"             # `pbem mail send` from cron (one row per host)
HELD = "held:"                      # how the daily per-recipient cap marks the mail it holds


def this_process(kind: str = MAIL_WORKER) -> dict:
    return {"kind": kind, "host": socket.gethostname()[:255],
            "pid": 0 if kind == MAIL_SEND else os.getpid()}


def process_name(kind: str = MAIL_WORKER) -> str:
    """How outbox claims name the process holding them: host:pid."""
    me = this_process(kind)
    return f"{me['host']}:{me['pid']}"


def beat(kind: str = MAIL_WORKER, now: dt.datetime | None = None) -> None:
    """Record that this process (of `kind`) is alive now; forget processes gone for a day."""
    now = now or utcnow()
    me = this_process(kind)
    (Heartbeat.insert(**me, started_at=now, beat_at=now)
     .on_conflict(conflict_target=[Heartbeat.host, Heartbeat.pid, Heartbeat.kind],
                  update={Heartbeat.beat_at: now, Heartbeat.stopped_at: None})
     .execute())
    Heartbeat.delete().where(Heartbeat.beat_at < now - FORGOTTEN_AFTER).execute()


def stopped(kind: str = MAIL_WORKER, now: dt.datetime | None = None) -> None:
    """Record that this process stopped cleanly: it is not missed."""
    me = this_process(kind)
    (Heartbeat.update(stopped_at=now or utcnow())
     .where(Heartbeat.host == me["host"], Heartbeat.pid == me["pid"], Heartbeat.kind == kind)
     .execute())


def known_migrations() -> list[str]:
    return sorted(path.stem for path in MIGRATIONS.glob("[0-9][0-9][0-9]_*.py"))


def pending_migrations() -> list[str]:
    """Migrations shipped with this pbem that the database has not had (read only)."""
    if "migratehistory" not in db.obj.get_tables():
        return known_migrations()
    done = {name for (name,) in db.obj.execute_sql("SELECT name FROM migratehistory")}
    return [name for name in known_migrations() if name not in done]


def _age(then: dt.datetime | None, now: dt.datetime) -> int | None:
    return None if then is None else max(0, int((now - then).total_seconds()))


def report(now: dt.datetime | None = None) -> dict:
    """The health report; "problems" lists what is wrong in plain words (empty when healthy)."""
    now = now or utcnow()
    result = {"version": __version__, "database": "unreachable", "migrations": None,
              "mail_worker": None, "mail": None, "problems": []}
    try:
        db.connect(reuse_if_open=True)
        db.obj.execute_sql("SELECT 1")
    except pw.DatabaseError:
        result["problems"].append("the database is unreachable")
        return _status(result)
    result["database"] = "ok"
    pending = pending_migrations()
    result["migrations"] = {"current": not pending, "pending": pending}
    if pending:
        result["problems"].append("migrations not applied: " + ", ".join(pending)
                                  + " (run pbem db upgrade)")
        return _status(result)
    result["mail_worker"] = _worker(now, result["problems"])
    result["mail"] = _mail(now, result["problems"])
    result["failed_games"] = _failed_games(result["problems"])
    return _status(result)


def _failed_games(problems) -> list[dict]:
    """Games the pace pass could not settle (skipped until they move): their error."""
    from .pace import failed_games
    failed = [{"game": game.id, "at_move": game.pace_error_seq, "error": game.pace_error}
              for game in failed_games()]
    for entry in failed:
        problems.append(f"game {entry['game']}: the pace pass fails at move {entry['at_move']} "
                        f"({entry['error']}); it is skipped until it moves or is resumed")
    return failed


def _worker(now, problems) -> dict:
    """The newest heartbeat of any mail process, the live workers, and the dead ones: a
    worker that fell silent without stopping (killed, crashed, its host gone). A dead one is a
    problem while it holds claimed mail or no worker started on its host since it died."""
    rows = list(Heartbeat.select().order_by(Heartbeat.host, Heartbeat.pid))
    newest = max((row.beat_at for row in rows), default=None)
    age = _age(newest, now)
    if age is None:
        problems.append("the mail worker has never run (pbem mail worker)")
    elif age > WORKER_SILENT_AFTER:
        problems.append(f"the mail worker has been silent for {age} s")
    silent = now - dt.timedelta(seconds=WORKER_SILENT_AFTER)
    workers = [row for row in rows if row.kind == MAIL_WORKER and row.stopped_at is None]
    live = [row for row in workers if row.beat_at >= silent]
    dead = []
    for row in (row for row in workers if row.beat_at < silent):
        claims = (Outbox.select().where(Outbox.claimed_by == f"{row.host}:{row.pid}",
                                        Outbox.sent_at.is_null(), Outbox.claimed_until > now)
                  .count())
        replaced = any(other.host == row.host and other.started_at > row.beat_at
                       for other in live)
        silent_for = _age(row.beat_at, now)
        dead.append({"host": row.host, "pid": row.pid, "silent_for": silent_for,
                     "claimed_mail": claims})
        if claims or not replaced:
            problems.append(f"mail worker {row.host}:{row.pid} stopped without saying so "
                            f"{silent_for} s ago (killed?)"
                            + (f"; {claims} mails it claimed wait for their lease to run out"
                               if claims else ""))
    return {"heartbeat_age": age, "live": len(live), "dead": dead}


def _mail(now, problems) -> dict:
    """Mail waiting, and how long the oldest has waited; mail the daily per-recipient cap
    holds back is "held" (it goes out when the day is over), not stuck."""
    waiting = Outbox.select().where(Outbox.sent_at.is_null(), Outbox.failed_at.is_null())
    is_held = Outbox.last_error.startswith(HELD) & (Outbox.next_try_at > now)
    oldest = waiting.where(~is_held).select(pw.fn.MIN(Outbox.created_at)).scalar()
    age = _age(oldest, now)
    if age is not None and age > MAIL_LATE_AFTER:
        problems.append(f"the oldest waiting mail has waited {age} s")
    failed = Outbox.select().where(Outbox.failed_at.is_null(False)).count()
    return {"waiting": waiting.count(), "held": waiting.where(is_held).count(),
            "oldest_waiting_age": age, "failed": failed}


def _status(result: dict) -> dict:
    result["status"] = "unhealthy" if result["problems"] else "ok"
    return result
