"""The `pbem` command: the Flask CLI of the app, with the operations a host needs."""
from __future__ import annotations

import datetime as dt
import functools
import json
import logging
import re
import smtplib
import sys
from email.utils import parseaddr
from pathlib import Path

import click
import peewee as pw
from flask import current_app
from flask.cli import FlaskGroup, with_appcontext

from .. import __version__
from ..db import database, releases
from ..play import health, moves, outbox, pace, records, webhooks
from ..mail import mailer
from ..log import store
from ..db.models import Game, Outbox, db
from ..errors import Refusal


def register_commands(app) -> None:
    app.cli.add_command(db_group)
    app.cli.add_command(games_group)
    app.cli.add_command(mail_group)
    app.cli.add_command(pace_command)
    app.cli.add_command(bots_command)
    app.cli.add_command(players_group)
    app.cli.add_command(dev_command)
    for command in OPERATIONS:
        app.cli.add_command(command)


def _create_app():
    from ..app import create_app
    try:
        return create_app()
    except RuntimeError as exc:        # a setting that is missing or wrong: say so plainly
        raise click.ClickException(str(exc)) from None


class PbemGroup(FlaskGroup):
    def list_commands(self, ctx):
        """This group's commands and the app's; `pbem --help` lists them without a traceback
        while the settings are incomplete (running a command then says what is missing)."""
        from flask.cli import ScriptInfo
        names = set(self.commands)
        try:
            names.update(ctx.ensure_object(ScriptInfo).load_app().cli.list_commands(ctx))
        except Exception:  # noqa: BLE001 - any failure to build the app is reported when used
            pass
        return sorted(names)


cli = PbemGroup(create_app=_create_app, add_default_commands=True, add_version_option=False,
                help="pbem: a play-by-email turn server for slow board games.")
cli = click.version_option(__version__, "--version", prog_name="pbem",
                           message="%(prog)s %(version)s", help="Say which release this is.")(cli)


def main() -> None:
    cli(prog_name="pbem")


def _connected(func=None, *, schema: bool = True):
    """Run a command with the database open (and closed afterwards); a refusal is the
    command's one-line message and exit status 1, never a traceback. So is a database that
    cannot be reached, and, unless `schema` is False (the db commands), one that has no pbem
    tables or not the migrations this pbem needs: the command then changes nothing."""
    if func is None:
        return functools.partial(_connected, schema=schema)

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
                raise click.ClickException(f"the database cannot be used: {_one_line(exc)}") \
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


# -- pbem db ---------------------------------------------------------------------------------------

@click.group("db", help="The database schema.")
def db_group():
    pass


@db_group.command("upgrade")
@_connected(schema=False)
def db_upgrade():
    """Apply the migrations not yet applied (safe to run again)."""
    applied = database.upgrade()
    click.echo("applied: " + ", ".join(applied) if applied else "the database is up to date")


@db_group.command("rollback")
@click.option("--release", "release", default=None, metavar="X.Y.Z",
              help="The release to go back to (the one installed before this one): the "
                   "migrations it did not ship are undone, newest first.")
@click.option("--to", "to", default=None, metavar="NNN",
              help="The migration to go back to (its number or name): the ones applied after "
                   "it are undone, newest first; it stays. 000 undoes every one.")
@click.option("--yes", is_flag=True,
              help="Do not ask (for scripts): refused when it would undo more than this "
                   "release brought since the previous one.")
@_connected(schema=False)
def db_rollback(release, to, yes):
    """Undo the migrations newer than a release's (--release) or than NNN (--to), newest
    first, after saying which and asking. Run it with the newer pbem still installed (the older
    one does not know its migrations), with the services stopped."""
    if (release is None) == (to is None):
        raise click.UsageError("name the release to go back to (--release X.Y.Z) or a "
                               "migration (--to NNN)")
    try:
        if release is not None:
            to = _release_target(release)
        undo = database.to_undo(to)
    except (ValueError, releases.UnknownRelease) as exc:
        raise click.ClickException(str(exc))
    if not undo:
        newest = (database.applied() or ["none"])[-1]
        click.echo(f"nothing to undo: the newest migration applied is {newest}"
                   + (f" ({release}'s newest: {releases.newest_migration(release)})"
                      if release else ""))
        return
    older = _older_releases_in(undo)
    if older and yes:
        span = older[0] + (f" ... {older[-1]}" if len(older) > 1 else "")
        raise click.ClickException(
            f"refused: --yes undoes only what pbem {__version__} brought since {_previous()} "
            f"(the migrations after {_floor()}); going back to {to} would also undo "
            f"{len(older)} migration(s) of older releases ({span}) and their data. Nothing "
            f"was undone. Roll back to {_previous()} (--release {_previous()}), or run it "
            "without --yes to be asked")
    click.echo("this undoes, newest first: " + ", ".join(undo))
    if older:
        click.echo(f"careful: that goes back past {_previous()} (its newest migration is "
                   f"{_floor()}): the data of the older releases' migrations is lost")
    if not yes:
        click.confirm("undo them?", abort=True)
    click.echo("rolled back: " + ", ".join(database.rollback(to)))


def _previous() -> str | None:
    """The release before the installed pbem."""
    return releases.previous(__version__)


def _floor() -> str | None:
    """The newest migration of the release before the installed pbem."""
    return releases.newest_migration(_previous()) if _previous() else None


def _older_releases_in(undo: list[str]) -> list[str]:
    """The migrations of `undo` that releases before the installed pbem shipped."""
    floor = _floor()
    if floor is None:
        return []
    return [m for m in undo if releases.number(m) <= releases.number(floor)]


def _release_target(release: str) -> str:
    """The migration to go back to for `release`: its newest, when it is older than this pbem.
    An older database (that never had it) has nothing to undo."""
    if releases.order(release) >= releases.order(__version__):
        raise click.ClickException(f"pbem {__version__} is installed: --release names an older "
                                   f"release to go back to (the previous one is "
                                   f"{releases.previous(__version__) or 'none'})")
    newest = releases.newest_migration(release)
    applied = database.applied()
    if newest not in applied and all(m < newest for m in applied):
        return applied[-1] if applied else "000"
    return releases.number(newest)


# -- pbem games ------------------------------------------------------------------------------------

@click.group("games", help="Create, list, verify, export, import and check games.")
def games_group():
    pass


# `pbem games check` needs no app (no settings, no database): found here, it runs without one;
# the other commands of the group build the app when they run (with_appcontext)
cli.add_command(games_group)


def _parse_player(raw: str) -> dict:
    try:
        computer = moves.computer_seat(raw)
    except Refusal as exc:
        raise click.BadParameter(str(exc)) from None
    if computer is not None:
        return computer
    name, address = parseaddr(raw)
    if not name or "@" not in address:
        raise click.BadParameter(f"{raw!r}: write a player as \"Name <email@example.org>\"")
    return {"name": name, "email": address}


ASCII_INTEGER = re.compile(r"[+-]?[0-9]+")


def _parse_option(raw: str):
    key, sep, value = raw.partition("=")
    if not sep or not key:
        raise click.BadParameter(f"{raw!r}: write an option as key=value")
    lowered = value.strip().lower()
    if lowered in ("true", "yes", "on"):
        return key, True
    if lowered in ("false", "no", "off"):
        return key, False
    if ASCII_INTEGER.fullmatch(value.strip()):     # int() would also read "٣" or "³" as 3
        return key, int(value)
    return key, value


@games_group.command("create")
@click.argument("rules")
@click.option("--player", "players", multiple=True, required=True,
              help='A player as "Name <email>", or a computer as bot or bot:LEVEL (1-3, '
                   'default 2), in turn order; repeat for each.')
@click.option("--option", "options", multiple=True, help="A game option as key=value.")
@click.option("--seed", type=int, default=None, help="The random seed (default: random).")
@click.option("--title", default="", help="A title for the game.")
@click.option("--host-email", default="", help="Where to send the host's page.")
@click.option("--language", default="en", type=click.Choice(["en", "hu"]),
              help="The players' language for pages and emails.")
@click.option("--pace", "pace_days", default=None,
              help="Days each decision may take (a positive number, fractions allowed); "
                   "default: no limit.")
@click.option("--on-timeout", default="wait",
              help="At a missed deadline: wait (the host chooses), auto (the seat's default "
                   "move is played) or bot (the computer plays the seat's move). Default: wait.")
@click.option("--drop-after", default="3",
              help="auto: after this many missed deadlines in a row the seat's default moves "
                   "are played as soon as it is asked; bot: the computer plays the seat until "
                   "its player is back (default 3).")
@click.option("--webhook", default=None,
              help="A chat webhook URL (https) where the game posts who is to move, missed "
                   "deadlines and the result.")
@_connected
def games_create(rules, players, options, seed, title, host_email, language, pace_days,
                 on_timeout, drop_after, webhook):
    """Create a game and email the invitations and first links; prints the game's id.
    A computer's seat (bot, bot:LEVEL) is played by `pbem bots` (and every mail worker)."""
    parsed = [dict(_parse_player(p), language=language) for p in players]
    try:
        opts = dict(_parse_option(o) for o in options)
        chosen = _parse_pace(pace_days, on_timeout, drop_after)
        hook = webhooks.check_optional(webhook)      # refused before anything is created
        with outbox.transaction():
            game, host_token = moves.create_game(rules, parsed, opts, seed=seed, title=title,
                                                 host_email=host_email, pace=chosen)
            webhooks.attach(game, hook)
    except (ValueError, click.BadParameter) as exc:
        raise click.ClickException(str(exc))
    click.echo(game.id)
    click.echo(f"host page: {current_app.config['BASE_URL'].rstrip('/')}/host/{host_token}",
               err=True)


def _parse_pace(days, on_timeout, drop_after) -> dict:
    """The pace options as given on the command line; ValueError names the option at fault."""
    if days is not None:
        try:
            days = float(days)
        except ValueError:
            raise ValueError(f"--pace takes a positive number of days, not {days!r}") from None
    try:
        drop_after = int(drop_after)
    except ValueError:
        raise ValueError(f"--drop-after takes a whole number, not {drop_after!r}") from None
    from ..play.clock import check_pace
    return check_pace(days, on_timeout, drop_after)


@games_group.command("pause")
@click.argument("game_id", type=int)
@_connected
def games_pause(game_id):
    """Stop every deadline of a game until it is resumed."""
    _get(game_id)
    try:
        changed = pace.pause(game_id)
    except pace.PaceError as exc:
        raise click.ClickException(str(exc))
    click.echo(f"game {game_id} paused" if changed else f"game {game_id} was paused already")


@games_group.command("resume")
@click.argument("game_id", type=int)
@_connected
def games_resume(game_id):
    """Let a paused game's deadlines run again (later by the time it stood still)."""
    _get(game_id)
    try:
        changed = pace.resume(game_id)
    except pace.PaceError as exc:
        raise click.ClickException(str(exc))
    click.echo(f"game {game_id} resumed" if changed else f"game {game_id} was not paused")


@games_group.command("list")
@_connected
def games_list():
    """List the games: id, rules, status, move, title."""
    for game in Game.select().order_by(Game.id):
        click.echo(f"{game.id}\t{game.rules}\t{game.status}\tmove {game.seq}\t{game.title}")


@games_group.command("verify")
@click.argument("game_id", required=False, type=int)
@click.option("--all", "all_games", is_flag=True, help="Verify every game.")
@click.option("--quiet", is_flag=True, help="Print only the broken games (for cron).")
@_connected
def games_verify(game_id, all_games, quiet):
    """Replay games from their logs; check the hash chains and the snapshots."""
    if game_id is None and not all_games:
        raise click.UsageError("name a game id or pass --all")
    ids = [row.id for row in Game.select(Game.id).order_by(Game.id)] if all_games \
        else [_get(game_id).id]
    bad = 0
    for verified_id in ids:      # each game read in one snapshot, as it stands when its turn comes
        checked = store.verified(verified_id)
        game, problems = checked.game, checked.problems
        bad += bool(problems)
        status = "ok" if not problems else "BROKEN"
        if problems or not quiet:
            click.echo(f"game {game.id} ({game.rules}, {game.seq} moves): {status}")
        for problem in problems:
            click.echo(f"  - {problem}")
    if bad:
        raise SystemExit(1)


@games_group.command("export")
@click.argument("game_id", type=int)
@click.option("-o", "--output", type=click.File("w"), default="-", help="File (default stdout).")
@_connected
def games_export(game_id, output):
    """Write a game's record as JSON (no email addresses)."""
    json.dump(records.export_game(_get(game_id)), output, indent=1, ensure_ascii=False)
    output.write("\n")


@games_group.command("import")
@click.argument("file", type=click.File("rb"))
@_connected
def games_import(file):
    """Replay an exported record into a new game; prints its id. The record is untrusted
    input: its size, depth and every event are checked (pbem/log/importing.py)."""
    from ..log.importing import MAX_DEPTH, MAX_SIZE
    from ..inputs import parse_json
    text = file.read(MAX_SIZE + 1)
    try:
        if len(text) > MAX_SIZE:
            raise ValueError(f"the record is larger than {MAX_SIZE // (1024 * 1024)} MiB")
        game = records.import_game(parse_json(text, max_depth=MAX_DEPTH))
    except (ValueError, KeyError, TypeError) as exc:
        raise click.ClickException(f"cannot import: {_one_line(exc)}")
    click.echo(game.id)


@games_group.command("check")
@click.argument("file", type=click.File("rb"))
@click.option("--commitment", default=None, metavar="HEX",
              help="The commitment the game published (its invitation mail says it).")
def games_check(file, commitment):
    """Check a game record offline (no database, no settings): its hash chain, its shuffle
    commitment, every event replayed from the seed, and its result. Prints "ok" or the first
    problem; exits 0 or 1."""
    from ..log.check import check_text
    from ..log.importing import MAX_SIZE
    verdict = check_text(file.read(MAX_SIZE + 1), commitment)
    click.echo(verdict.text)
    if not verdict.ok:
        raise SystemExit(1)


def _one_line(exc: Exception) -> str:
    """An error's message on one line, at most 300 characters (it may quote the record)."""
    text = " ".join(str(exc).split())
    return text if len(text) <= 300 else text[:299] + "…"


def _get(game_id) -> Game:
    game = Game.get_or_none(Game.id == game_id)
    if game is None:
        raise click.ClickException(f"there is no game {game_id}")
    return game


# -- pbem mail -------------------------------------------------------------------------------------

@click.group("mail", help="The outbox: send, list, retry, prune; send a test mail.")
def mail_group():
    pass


def _parse_now(raw):
    if raw is None:
        return None
    try:
        moment = dt.datetime.fromisoformat(raw.rstrip("Z"))
    except ValueError:
        raise click.BadParameter(f"{raw!r} is not an ISO time") from None
    if moment.tzinfo is not None:
        moment = moment.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return moment


def _pace_pass(now=None) -> bool:
    """The pace pass before sending; False when it failed (the mail goes out all the same)."""
    try:
        counts = pace.run_pass(now)
    except Exception as exc:  # noqa: BLE001 - mail send sends mail even when the pace pass fails
        logging.getLogger(__name__).exception("the pace pass failed")
        database.discard_connection(pool_too=database.lost_connection(exc))
        db.connect(reuse_if_open=True)
        click.echo(f"pace: the pass failed ({type(exc).__name__}: {exc}); sending the mail "
                   "anyway", err=True)
        return False
    if counts["failed"]:
        click.echo(f"pace: {counts['failed']} games could not be settled (pbem check names "
                   "them)", err=True)
    if any(counts.values()):
        click.echo(f"pace: {counts['reminders']} reminders, {counts['timeouts']} timeout moves, "
                   f"{counts['late']} late, {counts['dropped']} dropped", err=True)
    return True


@click.command("pace")
@click.option("--now", hidden=True, default=None, help="Act as if it were this UTC time (tests).")
@_connected
def pace_command(now):
    """Send the reminders and play the timeouts due now (also run by mail send and worker)."""
    counts = pace.run_pass(_parse_now(now))
    click.echo(f"{counts['reminders']} reminders, {counts['timeouts']} timeout moves, "
               f"{counts['late']} late, {counts['digests']} digests")


@click.command("bots")
@click.option("--now", hidden=True, default=None, help="Act as if it were this UTC time (tests).")
@_connected
def bots_command(now):
    """Play every decision the computer players are asked now, once (also run by every loop
    of mail worker and pbem dev); exits 1 when a game failed."""
    from ..play import computers
    counts = computers.run_pass(_parse_now(now))
    health.beat(health.BOTS)        # from cron: /health sees the computers played
    click.echo(f"{counts['moves']} computer moves, {counts['stale']} dropped as stale, "
               f"{counts['failed']} games failed")
    _advise("mail worker")
    if counts["failed"]:
        raise SystemExit(1)


def _advise(about: str) -> None:
    """`pbem mail send` and `pbem bots`, run from cron, each say what the other is needed for
    and not doing: computer seats waiting and no bot pass; mail waiting and no mail sent."""
    for finding in health.problems_of(current_app.config):
        if finding.about == about and finding.severity == health.PROBLEM:
            click.echo(f"PROBLEM  {finding.text}", err=True)


@mail_group.command("send")
@click.option("--now", hidden=True, default=None, help="Act as if it were this UTC time (tests).")
@_connected
def mail_send(now):
    """Run the pace pass, then send what is due, once (even when the pace pass failed)."""
    paced = _pace_pass(_parse_now(now))
    total = {"sent": 0, "retry": 0, "failed": 0}
    while True:
        counts = mailer.send_due()
        for key in total:
            total[key] += counts[key]
        if counts["sent"] == 0 or counts["retry"] or counts["failed"]:
            break
    health.beat(health.MAIL_SEND)   # run from cron instead of the worker: /health's heartbeat
    click.echo(f"{total['sent']} sent, {total['retry']} to retry, {total['failed']} failed")
    _advise("computers")
    if not paced:
        raise SystemExit(1)


@mail_group.command("worker")
@click.option("--interval", default=5.0, help="Seconds between passes.")
@_connected
def mail_worker(interval):
    """Keep sending what is due, every few seconds, until stopped (SIGTERM or ^C: the mail it
    claimed goes back to the queue at once)."""
    import signal
    import threading
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    click.echo(f"mail worker: sending through {current_app.config['MAIL_SERVER']}:"
               f"{current_app.config['MAIL_PORT']} every {interval}s", err=True)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    mailer.worker(interval, stop=stop)
    click.echo("mail worker: stopped; its claimed mail is back in the queue", err=True)


EX_TEMPFAIL = 75          # sysexits.h: the MTA keeps the message and delivers it again


@mail_group.command("receive")
@click.option("--recipient", "recipients", multiple=True, metavar="ADDRESS",
              help="The address the message was delivered to (a pipe's ${recipient}).")
@click.option("--sender", default=None, metavar="ADDRESS",
              help="The envelope sender (a pipe's ${sender}; empty for a bounce).")
@with_appcontext
def mail_receive(recipients, sender):
    """Read one reply to a turn mail (an RFC 5322 message) on standard input and play it or
    answer it. Exits 0 when it was handled (played, answered, ignored or refused), 75 when
    the MTA should deliver it again (the database is unreachable)."""
    from ..mail import inbound
    limit = current_app.config["MAX_MAIL_SIZE"]
    raw = sys.stdin.buffer.read(limit + 1)
    while len(raw) > limit and sys.stdin.buffer.read(1 << 16):
        pass                                    # read it all: the MTA's pipe must not break
    try:
        db.connect(reuse_if_open=True)
        outcome = inbound.receive(raw, recipients, sender)
    except Exception as exc:  # noqa: BLE001 - the MTA tries again later; no traceback
        log_line = (f"pbem mail receive: the database is unreachable, deliver it again later: "
                    if database.lost_connection(exc) else "pbem mail receive: failed, deliver "
                    "it again later: ")
        click.echo(log_line + _one_line(exc), err=True)
        logging.getLogger(__name__).debug("pbem mail receive failed", exc_info=True)
        raise SystemExit(EX_TEMPFAIL)
    finally:
        if not db.is_closed():
            db.close()
    click.echo(outcome)


@mail_group.command("fetch")
@_connected
def mail_fetch():
    """Read the replies waiting in the IMAP mailbox (PBEM_IMAP_HOST, ...) once: each is played
    or answered, then flagged and moved to PBEM_IMAP_DONE_FOLDER or deleted."""
    import imaplib
    import ssl
    from ..mail import inbound
    if not current_app.config.get("IMAP_HOST"):
        raise click.ClickException("PBEM_IMAP_HOST is not set: there is no mailbox to read")
    try:
        counts = inbound.fetch()
    except (OSError, ssl.SSLError, imaplib.IMAP4.error) as exc:
        health.replies_read(_one_line(exc))         # /health and pbem check say so
        raise click.ClickException(f"the IMAP server cannot be read: {_one_line(exc)}") from None
    except Exception as exc:  # noqa: BLE001 - the message stays in the mailbox for next time
        if not database.lost_connection(exc):
            raise
        raise click.ClickException(f"the database is unreachable: {_one_line(exc)}") from None
    health.replies_read()
    click.echo(", ".join(f"{n} {word}" for word, n in sorted(counts.items())) or "no replies")


@mail_group.command("status")
@_connected
def mail_status():
    """Count the outbox rows waiting, sent and failed for good."""
    waiting = Outbox.select().where(Outbox.sent_at.is_null(), Outbox.failed_at.is_null()).count()
    sent = Outbox.select().where(Outbox.sent_at.is_null(False)).count()
    failed = Outbox.select().where(Outbox.failed_at.is_null(False)).count()
    click.echo(f"{waiting} waiting, {sent} sent, {failed} failed")


# -- pbem players ----------------------------------------------------------------------------------

@click.group("players", help="Players' vacations.")
def players_group():
    pass


@players_group.command("away")
@click.argument("email")
@click.argument("days", type=float)
@click.option("--bot", is_flag=True,
              help="The computer plays EMAIL's seats meanwhile (no vacation days are used).")
@_connected
def players_away(email, days, bot):
    """Start a vacation of DAYS for EMAIL: their deadlines stand still meanwhile (or, with
    --bot, the computer plays their moves)."""
    try:
        row = pace.go_away(email, days, bot=bot)
    except pace.PaceError as exc:
        raise click.ClickException(str(exc))
    left = pace.vacation(email)["left"]
    stands_in = "; the computer plays their seats" if bot else ""
    click.echo(f"{row.email} is away until {row.away_until:%Y-%m-%d %H:%M} UTC{stands_in}; "
               f"{pace.days_text(left)} vacation days left this year")


@players_group.command("back")
@click.argument("email")
@_connected
def players_back(email):
    """End EMAIL's vacation now; the unused days go back to the bank."""
    ended = pace.come_home(email)
    left = pace.vacation(email)["left"]
    click.echo(("vacation ended" if ended else "not away")
               + f"; {pace.days_text(left)} vacation days left")


# -- pbem dev --------------------------------------------------------------------------------------

@click.command("dev")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on: 0.0.0.0 lets a phone on the same network play.")
@click.option("--port", default=5000, help="The web server's port.")
@click.option("--smtp-port", default=None, type=int, help="The mail catcher port (default: PBEM_MAIL_PORT).")
@with_appcontext
def dev_command(host, port, smtp_port):
    """Development: migrate, then run the server, a local mail catcher and the mail worker."""
    from .devmail import run_development
    run_development(current_app._get_current_object(), port, smtp_port, host=host)


# The groups belong to the `pbem` command itself too, so that `pbem --help` lists them even when
# the app cannot start (say, PBEM_SECRET_KEY is missing): running one then says why.
for _group in (db_group, games_group, mail_group, dev_command, pace_command, bots_command,
               players_group):
    cli.add_command(_group)


# -- operations (issue 13): check, mail queue, host links, backup and restore --------------------------

@click.command("check")
@click.option("--gunicorn-conf", default=None, metavar="PATH",
              help="The gunicorn config pbem-web runs with (default: PBEM_GUNICORN_CONF, "
                   "else /etc/pbem/gunicorn.conf.py).")
@click.option("--nginx-site", default=None, metavar="PATH",
              help="The nginx site in front (default: PBEM_NGINX_SITE, else "
                   "/etc/nginx/sites-available/pbem).")
def check_command(gunicorn_conf, nginx_site):
    """Read the settings and say what is wrong: secret key, base URL, the installed deploy
    files, database, mail, /new."""
    import os
    from . import admin as ops
    findings = ops.check(os.environ, gunicorn_conf, nginx_site)
    for finding in findings:
        click.echo(f"{finding.level.upper() if finding.level == 'problem' else finding.level:8} "
                   f"{finding.text}")
    problems = sum(f.level == "problem" for f in findings)
    click.echo(f"{problems} problem(s)" if problems else "no problems found")
    if problems:
        raise SystemExit(1)


@mail_group.command("test")
@click.argument("address")
@with_appcontext
def mail_test(address):
    """Send one test mail to ADDRESS at once, through the configured mail server."""
    from . import admin as ops
    from .. import validate
    try:
        valid = validate.email(address)
    except validate.Invalid as exc:
        raise click.BadParameter(str(exc), param_hint="ADDRESS")
    config = current_app.config
    try:
        ops.send_test_mail(config, valid)
    except (OSError, smtplib.SMTPException) as exc:
        raise click.ClickException(f"the mail server {config['MAIL_SERVER']}:"
                                   f"{config['MAIL_PORT']} did not take it: "
                                   f"{type(exc).__name__}: {exc}")
    click.echo(f"sent a test mail to {valid} through {config['MAIL_SERVER']}:{config['MAIL_PORT']}")


@mail_group.command("list")
@click.option("--failed", "which", flag_value="failed", help="Only mail that failed for good.")
@click.option("--waiting", "which", flag_value="waiting", help="Only mail not sent yet.")
@click.option("--limit", default=100, show_default=True, type=click.IntRange(1),
              help="Show at most this many, newest first.")
@_connected
def mail_list(which, limit):
    """List the outbox: id, state, tries, created, game, kind, recipient, last error."""
    from . import admin as ops
    query = {"failed": ops.failed_mail, "waiting": ops.waiting_mail}.get(which, Outbox.select)()
    rows = list(query.order_by(Outbox.id.desc()).limit(limit))
    for row in rows:
        game = row.game_id if row.game_id is not None else "-"
        error = row.last_error.splitlines()[0][:200] if row.last_error else ""
        click.echo(f"{row.id}\t{ops.state_of(row)}\t{row.attempts} tries\t"
                   f"{row.created_at:%Y-%m-%d %H:%M}\tgame {game}\t{row.kind}\t{row.recipient}"
                   + (f"\t{error}" if error else ""))
    if not rows:
        click.echo("no mail" + (f" {which}" if which else ""))


@mail_group.command("retry")
@click.argument("mail_id", required=False, type=click.IntRange(1))
@click.option("--failed", "all_failed", is_flag=True, help="Every mail that failed for good.")
@_connected
def mail_retry(mail_id, all_failed):
    """Send a failed (or waiting) mail again at the next pass: one by ID, or --failed."""
    from . import admin as ops
    if (mail_id is None) == (not all_failed):
        raise click.UsageError("name one mail id or pass --failed")
    if all_failed:
        rows = list(ops.failed_mail())
    else:
        row = Outbox.get_or_none(Outbox.id == mail_id)
        if row is None:
            raise click.ClickException(f"there is no mail {mail_id}")
        if row.sent_at is not None:
            raise click.ClickException(f"mail {mail_id} was sent already")
        rows = [row]
    click.echo(f"{ops.retry(rows)} mails queued again (pbem mail send, or the worker, sends them)")


@mail_group.command("prune")
@click.option("--older-than", "days", required=True, type=click.IntRange(1),
              help="Days since a mail was sent.")
@_connected
def mail_prune(days):
    """Delete mail sent more than DAYS ago (each host page keeps its list), the turn links
    past their age with their reply addresses, and the replies handled more than DAYS and a
    link's age ago."""
    from . import admin as ops
    counts = ops.prune(days)
    click.echo(f"deleted {counts['mails']} sent mails ({counts['bytes'] // 1024} KB), "
               f"{counts['reply_addresses']} reply addresses, {counts['replies']} replies "
               f"handled and {counts['links']} expired links")


@games_group.command("host-link")
@click.argument("game_id", type=click.IntRange(1))
@click.option("--print", "show", is_flag=True,
              help="Print the new link instead of mailing it to the host's address.")
@_connected
def games_host_link(game_id, show):
    """Make a new host link for a game (the old one stops working); mail it to the host."""
    from . import admin as ops
    game = _get(game_id)
    mail = bool(game.host_email) and not show
    link = ops.reissue_host_link(game, current_app.config["SECRET_KEY"], mail)
    if mail:
        click.echo(f"a new host link for game {game.id} is queued to {game.host_email} "
                   "(pbem mail send, or the worker, sends it)")
    else:
        click.echo(link)


@click.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@with_appcontext
def backup_command(file, force):
    """Copy the SQLite database to FILE while pbem runs, and check the copy."""
    from . import admin as ops
    try:
        made_folder = ops.backup(current_app.config["DATABASE_URL"], file, force)
    except ops.OpsError as exc:
        raise click.ClickException(str(exc))
    if made_folder:
        click.echo(f"made the folder {file.parent}")
    click.echo(f"backed up to {file} ({file.stat().st_size // 1024} KB, integrity ok). "
               "Keep the settings file (its secret key) with it.")


@click.command("restore")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path), required=False)
@click.option("--force", is_flag=True, help="Overwrite the existing database.")
@click.option("--mail-only", is_flag=True,
              help="Restore nothing: mail every seat to act its newest link (after a restore "
                   "that needed pbem db upgrade first).")
@with_appcontext
def restore_command(file, force, mail_only):
    """Put an SQLite backup in place of the database, verify every game in it, then mail every
    seat to act in every running game a fresh link saying the game was restored."""
    from ..play import health
    from . import admin as ops
    if file is None and not mail_only:
        raise click.UsageError("name the backup FILE (or pass --mail-only)")
    if not mail_only:
        if not db.is_closed():
            db.close()
        try:
            ops.restore(current_app.config["DATABASE_URL"], file, force)
        except ops.OpsError as exc:
            raise click.ClickException(str(exc))
    db.connect(reuse_if_open=True)
    try:
        if mail_only:               # after a pg_restore: the dump may be crafted too
            foreign = ops.foreign_schema(current_app.config["DATABASE_URL"])
            if foreign:
                raise click.ClickException(
                    "will not mail: the database holds schema objects pbem did not create: "
                    + ", ".join(foreign[:ops.SHOWN_OBJECTS]) + ". Nothing was mailed; drop them "
                    "or restore a dump of pbem's own database")
        pending = health.pending_migrations()
        results = [] if mail_only else ops.verify_all()
        mailed = failed = when = None
        if not pending:
            when, mailed, failed = ops.mail_after_restore()
    finally:
        db.close()
    broken = [(game, problems) for game, problems in results if problems]
    if not mail_only:
        click.echo(f"restored {file}: {len(results)} games, {len(broken)} broken")
    for game, problems in broken:
        click.echo(f"  game {game.id}: " + "; ".join(problems))
    if pending:
        click.echo("the backup is older than this pbem: run pbem db upgrade, then "
                   "pbem restore --mail-only to mail the seats to act their newest links")
    else:
        seats = sum(len(names) for _game, names in mailed)
        click.echo(f"queued a fresh link for {seats} seats to act in {len(mailed)} running games"
                   + (f", saying the game was restored to {when:%Y-%m-%d %H:%M:%S} UTC" if when
                      else ""))
        for game_id, names in mailed:
            click.echo(f"  game {game_id}: {', '.join(names)}")
        for line in failed:
            click.echo(f"  not mailed: {line}")
    if broken or failed:
        raise SystemExit(1)


OPERATIONS = (check_command, backup_command, restore_command)
for _command in OPERATIONS:
    cli.add_command(_command)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
