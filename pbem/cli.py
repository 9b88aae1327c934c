"""The `pbem` command: the Flask CLI of the app, with the operations a host needs."""
from __future__ import annotations

import functools
import json
import logging
import sys
from email.utils import parseaddr

import click
from flask import current_app
from flask.cli import FlaskGroup, with_appcontext

from . import database, mailer, store
from .models import Game, Outbox, db


def register_commands(app) -> None:
    app.cli.add_command(db_group)
    app.cli.add_command(games_group)
    app.cli.add_command(mail_group)
    app.cli.add_command(dev_command)


def _create_app():
    from .app import create_app
    try:
        return create_app()
    except RuntimeError as exc:        # a setting that is missing or wrong: say so plainly
        raise click.ClickException(str(exc)) from None


cli = FlaskGroup(create_app=_create_app, add_default_commands=True,
                 help="pbem: a play-by-email turn server for slow board games.")


def main() -> None:
    cli(prog_name="pbem")


def _connected(func):
    """Run a command with the database open (and closed afterwards)."""
    @functools.wraps(func)
    @with_appcontext
    def wrapper(*args, **kwargs):
        db.connect(reuse_if_open=True)
        try:
            return func(*args, **kwargs)
        finally:
            if not db.is_closed():
                db.close()
    return wrapper


# -- pbem db ---------------------------------------------------------------------------------------

@click.group("db", help="The database schema.")
def db_group():
    pass


@db_group.command("upgrade")
@_connected
def db_upgrade():
    """Apply the migrations not yet applied (safe to run again)."""
    applied = database.upgrade()
    click.echo("applied: " + ", ".join(applied) if applied else "the database is up to date")


# -- pbem games ------------------------------------------------------------------------------------

@click.group("games", help="Create, list, verify, export and import games.")
def games_group():
    pass


def _parse_player(raw: str) -> dict:
    name, address = parseaddr(raw)
    if not name or "@" not in address:
        raise click.BadParameter(f"{raw!r}: write a player as \"Name <email@example.org>\"")
    return {"name": name, "email": address}


def _parse_option(raw: str):
    key, sep, value = raw.partition("=")
    if not sep or not key:
        raise click.BadParameter(f"{raw!r}: write an option as key=value")
    lowered = value.strip().lower()
    if lowered in ("true", "yes", "on"):
        return key, True
    if lowered in ("false", "no", "off"):
        return key, False
    try:
        return key, int(value)
    except ValueError:
        return key, value


@games_group.command("create")
@click.argument("rules")
@click.option("--player", "players", multiple=True, required=True,
              help='A player as "Name <email>", in turn order; repeat for each.')
@click.option("--option", "options", multiple=True, help="A game option as key=value.")
@click.option("--seed", type=int, default=None, help="The random seed (default: random).")
@click.option("--title", default="", help="A title for the game.")
@click.option("--host-email", default="", help="Where to send the host's page.")
@click.option("--language", default="en", type=click.Choice(["en", "hu"]),
              help="The players' language for pages and emails.")
@_connected
def games_create(rules, players, options, seed, title, host_email, language):
    """Create a game and email the invitations and first links; prints the game's id."""
    parsed = [dict(_parse_player(p), language=language) for p in players]
    try:
        opts = dict(_parse_option(o) for o in options)
        game, host_token = store.create_game(rules, parsed, opts, seed=seed, title=title,
                                             host_email=host_email)
    except (ValueError, click.BadParameter) as exc:
        raise click.ClickException(str(exc))
    click.echo(game.id)
    click.echo(f"host page: {current_app.config['BASE_URL'].rstrip('/')}/host/{host_token}",
               err=True)


@games_group.command("list")
@_connected
def games_list():
    """List the games: id, rules, status, move, title."""
    for game in Game.select().order_by(Game.id):
        click.echo(f"{game.id}\t{game.rules}\t{game.status}\tmove {game.seq}\t{game.title}")


@games_group.command("verify")
@click.argument("game_id", required=False, type=int)
@click.option("--all", "all_games", is_flag=True, help="Verify every game.")
@_connected
def games_verify(game_id, all_games):
    """Replay games from their logs; check the hash chains and the snapshots."""
    if game_id is None and not all_games:
        raise click.UsageError("name a game id or pass --all")
    query = Game.select().order_by(Game.id)
    games = list(query) if all_games else [_get(game_id)]
    bad = 0
    for game in games:
        problems = store.verify(game)
        bad += bool(problems)
        status = "ok" if not problems else "BROKEN"
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
    json.dump(store.export(_get(game_id)), output, indent=1, ensure_ascii=False)
    output.write("\n")


@games_group.command("import")
@click.argument("file", type=click.File("r"))
@_connected
def games_import(file):
    """Replay an exported record into a new game; prints its id."""
    try:
        game = store.import_record(json.load(file))
    except (ValueError, KeyError, TypeError) as exc:
        raise click.ClickException(f"cannot import: {exc}")
    click.echo(game.id)


def _get(game_id) -> Game:
    game = Game.get_or_none(Game.id == game_id)
    if game is None:
        raise click.ClickException(f"there is no game {game_id}")
    return game


# -- pbem mail -------------------------------------------------------------------------------------

@click.group("mail", help="Send the mail waiting in the outbox.")
def mail_group():
    pass


@mail_group.command("send")
@_connected
def mail_send():
    """Send what is due, once."""
    total = {"sent": 0, "retry": 0, "failed": 0}
    while True:
        counts = mailer.send_due()
        for key in total:
            total[key] += counts[key]
        if counts["sent"] == 0 or counts["retry"] or counts["failed"]:
            break
    click.echo(f"{total['sent']} sent, {total['retry']} to retry, {total['failed']} failed")


@mail_group.command("worker")
@click.option("--interval", default=5.0, help="Seconds between passes.")
@_connected
def mail_worker(interval):
    """Keep sending what is due, every few seconds, until stopped."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    click.echo(f"mail worker: sending through {current_app.config['MAIL_SERVER']}:"
               f"{current_app.config['MAIL_PORT']} every {interval}s", err=True)
    mailer.worker(interval)


@mail_group.command("status")
@_connected
def mail_status():
    """Count the outbox rows waiting, sent and failed for good."""
    waiting = Outbox.select().where(Outbox.sent_at.is_null(), Outbox.failed_at.is_null()).count()
    sent = Outbox.select().where(Outbox.sent_at.is_null(False)).count()
    failed = Outbox.select().where(Outbox.failed_at.is_null(False)).count()
    click.echo(f"{waiting} waiting, {sent} sent, {failed} failed")


# -- pbem dev --------------------------------------------------------------------------------------

@click.command("dev")
@click.option("--port", default=5000, help="The web server's port.")
@click.option("--smtp-port", default=None, type=int, help="The mail catcher port (default: PBEM_MAIL_PORT).")
@with_appcontext
def dev_command(port, smtp_port):
    """Development: migrate, then run the server, a local mail catcher and the mail worker."""
    from .devmail import run_development
    run_development(current_app._get_current_object(), port, smtp_port)


# The groups belong to the `pbem` command itself too, so that `pbem --help` lists them even when
# the app cannot start (say, PBEM_SECRET_KEY is missing): running one then says why.
for _group in (db_group, games_group, mail_group, dev_command):
    cli.add_command(_group)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
