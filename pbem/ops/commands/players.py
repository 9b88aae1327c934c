"""`pbem players`: players' vacations."""
from __future__ import annotations

import click

from ...play import pace, vacations

from .common import connected



@click.group("players", help="Players' vacations and quiet hours.")
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


@players_group.command("quiet")
@click.argument("email")
@click.option("--from", "start", default="", metavar="HH:MM",
              help="The daily quiet window starts (with --until; across midnight is fine).")
@click.option("--until", "end", default="", metavar="HH:MM", help="The daily quiet window ends.")
@click.option("--days", default="", metavar="sat,sun",
              help="Whole quiet days of the week (mon..sun), at most 3.")
@click.option("--zone", default=None, metavar="ZONE",
              help="EMAIL's time zone (an IANA name such as Asia/Tokyo), when not chosen yet.")
@connected
def players_quiet(email, start, end, days, zone):
    """Set EMAIL's quiet hours (none of --from, --until, --days: none): their clock stands
    still meanwhile, and no reminder, default move or computer stand-in comes."""
    from ... import validate
    from ...play import home, quiet
    from ...present import times
    if zone is not None and not times.is_time_zone(zone):
        raise click.ClickException(f"there is no time zone called {zone[:64]!r}")
    chosen_zone = zone if zone is not None else home.settings_of(email).time_zone
    try:
        address = validate.email(email)
        chosen = quiet.check(chosen_zone, start, end,
                             [day.strip() for day in days.split(",") if day.strip()])
    except validate.Invalid as exc:
        raise click.ClickException(str(exc))
    home.store_quiet(address, chosen, zone)
    described = ", ".join(part for part in (chosen.window_text(), chosen.days_text()) if part)
    click.echo(f"{address}: quiet hours {described or 'none'}"
               + (f" ({chosen_zone})" if described else ""))
