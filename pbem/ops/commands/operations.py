"""`pbem check`, `pbem backup` and `pbem restore`: what an operator runs on the server."""
from __future__ import annotations

from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from ...db.models import db
from .. import backup as backups, check as checks





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
    findings = checks.check(os.environ, gunicorn_conf, nginx_site)
    for finding in findings:
        click.echo(f"{finding.level.upper() if finding.level == 'problem' else finding.level:8} "
                   f"{finding.text}")
    problems = sum(f.level == "problem" for f in findings)
    click.echo(f"{problems} problem(s)" if problems else "no problems found")
    if problems:
        raise SystemExit(1)


@click.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@with_appcontext
def backup_command(file, force):
    """Copy the SQLite database to FILE while pbem runs, and check the copy."""
    try:
        made_folder = backups.backup(current_app.config["DATABASE_URL"], file, force)
    except backups.OpsError as exc:
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
    from ...play import health
    if file is None and not mail_only:
        raise click.UsageError("name the backup FILE (or pass --mail-only)")
    if not mail_only:
        if not db.is_closed():
            db.close()
        try:
            backups.restore(current_app.config["DATABASE_URL"], file, force)
        except backups.OpsError as exc:
            raise click.ClickException(str(exc))
    db.connect(reuse_if_open=True)
    try:
        if mail_only:               # after a pg_restore: the dump may be crafted too
            foreign = backups.foreign_schema(current_app.config["DATABASE_URL"])
            if foreign:
                raise click.ClickException(
                    "will not mail: the database holds schema objects pbem did not create: "
                    + ", ".join(foreign[:backups.SHOWN_OBJECTS]) + ". Nothing was mailed; drop them "
                    "or restore a dump of pbem's own database")
        pending = health.pending_migrations()
        results = [] if mail_only else backups.verify_all()
        mailed = failed = when = None
        if not pending:
            when, mailed, failed = backups.mail_after_restore()
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
