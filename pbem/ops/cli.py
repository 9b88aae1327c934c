"""The `pbem` command: the Flask CLI of the app, with the operations a host needs (each group
of commands is a module of pbem/ops/commands/)."""
from __future__ import annotations

import sys

import click
from flask.cli import FlaskGroup

from .. import __version__
from ..app import create_app
from .commands import register_commands


def _create_app():
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


# The groups belong to the `pbem` command itself too, so that `pbem --help` lists them even when
# the app cannot start (say, PBEM_SECRET_KEY is missing): running one then says why. `pbem
# games check` needs no app (no settings, no database): found here, it runs without one.
register_commands(cli)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
