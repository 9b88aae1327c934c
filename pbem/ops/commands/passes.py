"""`pbem pace` and `pbem bots`: the passes cron runs (the mail commands run them too)."""
from __future__ import annotations

import logging

import click

from ...db import database
from ...play import health, pace
from ...db.models import db

from .common import advise, connected, parse_now


def pace_pass(now=None) -> bool:
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
@connected
def pace_command(now):
    """Send the reminders and play the timeouts due now (also run by mail send and worker)."""
    counts = pace.run_pass(parse_now(now))
    click.echo(f"{counts['reminders']} reminders, {counts['timeouts']} timeout moves, "
               f"{counts['late']} late, {counts['digests']} digests")


@click.command("bots")
@click.option("--now", hidden=True, default=None, help="Act as if it were this UTC time (tests).")
@connected
def bots_command(now):
    """Play every decision the computer players are asked now, once (also run by every loop
    of mail worker and pbem dev); exits 1 when a game failed."""
    from ...play import computers
    counts = computers.run_pass(parse_now(now))
    health.beat(health.BOTS)        # from cron: /health sees the computers played
    click.echo(f"{counts['moves']} computer moves, {counts['stale']} dropped as stale, "
               f"{counts['failed']} games failed")
    advise("mail worker")
    if counts["failed"]:
        raise SystemExit(1)
