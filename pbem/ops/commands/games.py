"""`pbem games`: create, pause and resume, list, verify, export, import and check games, and
the host's link."""
from __future__ import annotations

import json
import re
from email.utils import parseaddr

import click
from flask import current_app

from ...mail import urls
from ...play import hosting, outbox, pace, records, webhooks
from ...play import creation
from ...log import store
from ...db.models import Game
from ...errors import Refusal

from .common import connected, game_or_fail, one_line



@click.group("games", help="Create, list, verify, export, import and check games.")
def games_group():
    pass


def _parse_player(raw: str) -> dict:
    try:
        computer = creation.computer_seat(raw)
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
@click.option("--clock", "clock_kind", default="pace", metavar="pace|bank[:DAYS[+INC][/CAP]]",
              help="pace (default): --pace days per decision; bank: each seat starts with a "
                   "bank of days that its decisions spend, each move gives back INC, never "
                   "above CAP (bank alone: 7 days, +1 a move, at most 10).")
@click.option("--no-quiet-hours", "loud", is_flag=True,
              help="The players' quiet hours do not stop their clocks in this game (they do "
                   "by default: see `pbem players quiet`).")
@click.option("--webhook", default=None,
              help="A chat webhook URL (https) where the game posts who is to move, missed "
                   "deadlines and the result.")
@connected
def games_create(rules, players, options, seed, title, host_email, language, pace_days,
                 on_timeout, drop_after, clock_kind, loud, webhook):
    """Create a game and email the invitations and first links; prints the game's id.
    A computer's seat (bot, bot:LEVEL) is played by `pbem bots` (and every mail worker)."""
    parsed = [dict(_parse_player(p), language=language) for p in players]
    try:
        opts = dict(_parse_option(o) for o in options)
        chosen = dict(_parse_pace(pace_days, on_timeout, drop_after), quiet_hours=not loud)
        if clock_kind != "pace":
            from ...play import bank
            if pace_days is not None:
                raise ValueError("--pace is for a pace per decision; a bank sets its own days")
            chosen["bank"] = bank.parse(clock_kind)
        hook = webhooks.check_optional(webhook)      # refused before anything is created
        with outbox.transaction():
            game, host_token = creation.create_game(rules, parsed, opts, seed=seed, title=title,
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
    from ...play.clock import check_pace
    return check_pace(days, on_timeout, drop_after)


@games_group.command("pause")
@click.argument("game_id", type=int)
@connected
def games_pause(game_id):
    """Stop every deadline of a game until it is resumed."""
    game_or_fail(game_id)
    try:
        changed = hosting.pause(game_id)
    except pace.PaceError as exc:
        raise click.ClickException(str(exc))
    click.echo(f"game {game_id} paused" if changed else f"game {game_id} was paused already")


@games_group.command("resume")
@click.argument("game_id", type=int)
@connected
def games_resume(game_id):
    """Let a paused game's deadlines run again (later by the time it stood still)."""
    game_or_fail(game_id)
    try:
        changed = hosting.resume(game_id)
    except pace.PaceError as exc:
        raise click.ClickException(str(exc))
    click.echo(f"game {game_id} resumed" if changed else f"game {game_id} was not paused")


@games_group.command("list")
@connected
def games_list():
    """List the games: id, rules, status, move, title."""
    for game in Game.select().order_by(Game.id):
        click.echo(f"{game.id}\t{game.rules}\t{game.status}\tmove {game.seq}\t{game.title}")


@games_group.command("verify")
@click.argument("game_id", required=False, type=int)
@click.option("--all", "all_games", is_flag=True, help="Verify every game.")
@click.option("--quiet", is_flag=True, help="Print only the broken games (for cron).")
@connected
def games_verify(game_id, all_games, quiet):
    """Replay games from their logs; check the hash chains and the snapshots."""
    if game_id is None and not all_games:
        raise click.UsageError("name a game id or pass --all")
    ids = [row.id for row in Game.select(Game.id).order_by(Game.id)] if all_games \
        else [game_or_fail(game_id).id]
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
@connected
def games_export(game_id, output):
    """Write a game's record as JSON (no email addresses)."""
    json.dump(records.export_game(game_or_fail(game_id)), output, indent=1, ensure_ascii=False)
    output.write("\n")


@games_group.command("import")
@click.argument("file", type=click.File("rb"))
@connected
def games_import(file):
    """Replay an exported record into a new game; prints its id. The record is untrusted
    input: its size, depth and every event are checked (pbem/log/importing.py)."""
    from ...log.importing import MAX_DEPTH, MAX_SIZE
    from ...inputs import parse_json
    text = file.read(MAX_SIZE + 1)
    try:
        if len(text) > MAX_SIZE:
            raise ValueError(f"the record is larger than {MAX_SIZE // (1024 * 1024)} MiB")
        game = records.import_game(parse_json(text, max_depth=MAX_DEPTH))
    except (ValueError, KeyError, TypeError) as exc:
        raise click.ClickException(f"cannot import: {one_line(exc)}")
    click.echo(game.id)


@games_group.command("check")
@click.argument("file", type=click.File("rb"))
@click.option("--commitment", default=None, metavar="HEX",
              help="The commitment the game published (its invitation mail says it).")
def games_check(file, commitment):
    """Check a game record offline (no database, no settings): its hash chain, its shuffle
    commitment, every event replayed from the seed, and its result. Prints "ok" or the first
    problem; exits 0 or 1."""
    from ...log.check import check_text
    from ...log.importing import MAX_SIZE
    verdict = check_text(file.read(MAX_SIZE + 1), commitment)
    click.echo(verdict.text)
    if not verdict.ok:
        raise SystemExit(1)


@games_group.command("host-link")
@click.argument("game_id", type=click.IntRange(1))
@click.option("--print", "show", is_flag=True,
              help="Print the new link instead of mailing it to the host's address.")
@connected
def games_host_link(game_id, show):
    """Make a new host link for a game (the old one stops working); mail it to the host."""
    game = game_or_fail(game_id)
    mail = bool(game.host_email) and not show
    link = urls.host_url(hosting.reissue_host_link(game,
                                                      mail))
    if mail:
        click.echo(f"a new host link for game {game.id} is queued to {game.host_email} "
                   "(pbem mail send, or the worker, sends it)")
    else:
        click.echo(link)
