"""How the running server is doing, without secrets: database reachable, migrations current,
the mail worker's heartbeat, the oldest mail still waiting. Read by GET /health and pbem check."""
from __future__ import annotations

import datetime as dt

import peewee as pw

from ..db.database import MIGRATIONS
from ..db.models import Heartbeat, Outbox, db, utcnow

WORKER_SILENT_AFTER = 300           # seconds without a heartbeat before the worker counts as down
MAIL_LATE_AFTER = 3600              # seconds a mail may wait before it counts as stuck
MAIL_WORKER = "mail"


def beat(name: str = MAIL_WORKER, now: dt.datetime | None = None) -> None:
    """Record that `name` is alive now."""
    now = now or utcnow()
    (Heartbeat.insert(name=name, beat_at=now)
     .on_conflict(conflict_target=[Heartbeat.name], update={Heartbeat.beat_at: now})
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
    result = {"database": "unreachable", "migrations": None, "mail_worker": None, "mail": None,
              "problems": []}
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
    return _status(result)


def _worker(now, problems) -> dict:
    beat_at = Heartbeat.select(Heartbeat.beat_at).where(Heartbeat.name == MAIL_WORKER).scalar()
    age = _age(beat_at, now)
    if age is None:
        problems.append("the mail worker has never run (pbem mail worker)")
    elif age > WORKER_SILENT_AFTER:
        problems.append(f"the mail worker has been silent for {age} s")
    return {"heartbeat_age": age}


def _mail(now, problems) -> dict:
    waiting = Outbox.select().where(Outbox.sent_at.is_null(), Outbox.failed_at.is_null())
    oldest = waiting.select(pw.fn.MIN(Outbox.created_at)).scalar()
    age = _age(oldest, now)
    if age is not None and age > MAIL_LATE_AFTER:
        problems.append(f"the oldest waiting mail has waited {age} s")
    failed = Outbox.select().where(Outbox.failed_at.is_null(False)).count()
    return {"waiting": waiting.count(), "oldest_waiting_age": age, "failed": failed}


def _status(result: dict) -> dict:
    result["status"] = "unhealthy" if result["problems"] else "ok"
    return result
