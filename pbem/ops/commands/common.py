"""Helpers every command group shares: the database opened for a command (and its one-line
errors), a game by id, a `--now` for tests, and the advice of `pbem check` on a pass."""
from __future__ import annotations

import datetime as dt
import functools
import logging
from pathlib import Path

import click
import peewee as pw
from flask import current_app
from flask.cli import with_appcontext

from ... import __version__
from ...db import database
from ...play import health
from ...db.models import Game, db
from ...errors import Refusal



def connected(func=None, *, schema: bool = True):
    """Run a command with the database open (and closed afterwards); a refusal is the
    command's one-line message and exit status 1, never a traceback. So is a database that
    cannot be reached, and, unless `schema` is False (the db commands), one that has no pbem
    tables or not the migrations this pbem needs: the command then changes nothing."""
    if func is None:
        return functools.partial(connected, schema=schema)

    @functools.wraps(func)
    @with_appcontext
    def wrapper(*args, **kwargs):
        _open_database(schema)
        try:
            return func(*args, **kwargs)
        except Refusal as refusal:
            raise click.ClickException(str(refusal)) from None
        except pw.DatabaseError as exc:
            logging.getLogger(__name__).debug("%s failed", func.__name__, exc_info=True)
            explained = _explain_database_error(exc, schema)
            if explained is not None:
                raise click.ClickException(explained) from None
            if isinstance(exc, (pw.OperationalError, pw.InterfaceError)):  # locked, disk full
                raise click.ClickException(f"the database cannot be used: {one_line(exc)}") \
                    from None
            raise
        finally:
            if not db.is_closed():
                db.close()
    return wrapper


def _where() -> str:
    """The database this pbem uses, without its password: a file, or user@host:port/name."""
    if database.is_sqlite():
        return db.obj.database
    params = db.obj.connect_params
    return (f"{params.get('user', '')}{'@' if params.get('user') else ''}"
            f"{params.get('host', 'localhost')}:{params.get('port', 5432)}/{db.obj.database}")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _open_database(schema: bool) -> None:
    """Connect, or say in one line why not. Only `pbem db upgrade` makes an SQLite file."""
    if (schema and database.is_sqlite() and db.obj.database != ":memory:"
            and not Path(db.obj.database).is_file()):
        raise click.ClickException(f"there is no database at {db.obj.database} "
                                   "(PBEM_DATABASE_URL): pbem db upgrade makes it")
    try:
        db.connect(reuse_if_open=True)
        tables = db.get_tables() if schema else None
    except pw.DatabaseError as exc:
        database.discard_connection()
        raise click.ClickException(f"cannot reach the database {_where()}: "
                                   f"{_first_line(exc)}") from None
    if tables is not None and "migratehistory" not in tables:
        db.close()
        raise click.ClickException(f"the database {_where()} has no pbem tables: run "
                                   "pbem db upgrade")


def _explain_database_error(exc: pw.DatabaseError, schema: bool) -> str | None:
    """A database error a command met, in one line when it has a cause an operator can
    act on: the connection went away, or (`schema`: not for the db commands, which change
    it) the schema is not this pbem's: migrations missing, or a newer release's. None for
    anything else."""
    database.discard_connection(pool_too=True)
    try:
        db.connect(reuse_if_open=True)
        applied = set(database.applied()) if schema else None
    except pw.DatabaseError:
        return f"lost the database {_where()}: {_first_line(exc)}"
    if applied is None:
        return None
    known = set(health.known_migrations())
    missing, unknown = sorted(known - applied), sorted(applied - known)
    if missing:
        return (f"the database {_where()} lacks migrations this pbem ({__version__}) needs: "
                f"{', '.join(missing)}; run pbem db upgrade, or install the release the "
                f"database belongs to ({_first_line(exc)})")
    if unknown:
        return (f"the database {_where()} has migrations this pbem ({__version__}) does not "
                f"know: {', '.join(unknown)}; install the newer release again, or roll back "
                f"with it (deploy/README.md, Upgrades) ({_first_line(exc)})")
    return None


def one_line(exc: Exception) -> str:
    """An error's message on one line, at most 300 characters (it may quote the record)."""
    text = " ".join(str(exc).split())
    return text if len(text) <= 300 else text[:299] + "…"


def game_or_fail(game_id) -> Game:
    game = Game.get_or_none(Game.id == game_id)
    if game is None:
        raise click.ClickException(f"there is no game {game_id}")
    return game


def parse_now(raw):
    if raw is None:
        return None
    try:
        moment = dt.datetime.fromisoformat(raw.rstrip("Z"))
    except ValueError:
        raise click.BadParameter(f"{raw!r} is not an ISO time") from None
    if moment.tzinfo is not None:
        moment = moment.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return moment


def advise(about: str) -> None:
    """`pbem mail send` and `pbem bots`, run from cron, each say what the other is needed for
    and not doing: computer seats waiting and no bot pass; mail waiting and no mail sent."""
    for finding in health.problems_of(current_app.config):
        if finding.about == about and finding.severity == health.PROBLEM:
            click.echo(f"PROBLEM  {finding.text}", err=True)
