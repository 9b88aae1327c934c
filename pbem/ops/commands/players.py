"""`pbem players`: players' vacations."""
from __future__ import annotations

import click

from ...play import pace, vacations

from .common import connected



@click.group("players", help="Players' vacations.")
def players_group():
    pass


@players_group.command("away")
@click.argument("email")
@click.argument("days", type=float)
@click.option("--bot", is_flag=True,
              help="The computer plays EMAIL's seats meanwhile (no vacation days are used).")
@connected
def players_away(email, days, bot):
    """Start a vacation of DAYS for EMAIL: their deadlines stand still meanwhile (or, with
    --bot, the computer plays their moves)."""
    try:
        row = vacations.go_away(email, days, bot=bot)
    except pace.PaceError as exc:
        raise click.ClickException(str(exc))
    left = vacations.vacation(email)["left"]
    stands_in = "; the computer plays their seats" if bot else ""
    click.echo(f"{row.email} is away until {row.away_until:%Y-%m-%d %H:%M} UTC{stands_in}; "
               f"{vacations.days_text(left)} vacation days left this year")


@players_group.command("back")
@click.argument("email")
@connected
def players_back(email):
    """End EMAIL's vacation now; the unused days go back to the bank."""
    ended = vacations.come_home(email)
    left = vacations.vacation(email)["left"]
    click.echo(("vacation ended" if ended else "not away")
               + f"; {vacations.days_text(left)} vacation days left")
