"""The `pbem` commands, one module per group; `register_commands` puts them on a click group
(the `pbem` command's own, and the app's `app.cli` for `app.test_cli_runner()`)."""
from __future__ import annotations

from .db import db_group
from .dev import dev_command
from .games import games_group
from .mail import mail_group
from .operations import backup_command, check_command, restore_command
from .passes import bots_command, pace_command
from .players import players_group

COMMANDS = (db_group, games_group, mail_group, pace_command, bots_command, players_group,
            dev_command, check_command, backup_command, restore_command)


def register_commands(group) -> None:
    for command in COMMANDS:
        group.add_command(command)
