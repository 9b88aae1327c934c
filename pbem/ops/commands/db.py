"""`pbem db`: the database schema, upgraded and rolled back by migration or release."""
from __future__ import annotations

import click

from ... import __version__
from ...db import database, releases

from .common import connected



@click.group("db", help="The database schema.")
def db_group():
    pass


@db_group.command("upgrade")
@connected(schema=False)
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
@connected(schema=False)
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
