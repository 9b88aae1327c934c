"""`pbem mail`: the outbox sent, listed, retried and pruned; replies received and fetched; a
test mail."""
from __future__ import annotations

import logging
import smtplib
import sys

import click
from flask import current_app
from flask.cli import with_appcontext

from ...db import database
from ...play import health, outbox
from ...mail import mailer
from ...db.models import Outbox, db
from .. import check as checks, mailqueue

from .common import advise, connected, one_line, parse_now
from .passes import pace_pass



@click.group("mail", help="The outbox: send, list, retry, prune; send a test mail.")
def mail_group():
    pass


@mail_group.command("send")
@click.option("--now", hidden=True, default=None, help="Act as if it were this UTC time (tests).")
@connected
def mail_send(now):
    """Run the pace pass, then send what is due, once (even when the pace pass failed)."""
    paced = pace_pass(parse_now(now))
    total = {"sent": 0, "retry": 0, "failed": 0}
    while True:
        counts = mailer.send_due()
        for key in total:
            total[key] += counts[key]
        if counts["sent"] == 0 or counts["retry"] or counts["failed"]:
            break
    health.beat(health.MAIL_SEND)   # run from cron instead of the worker: /health's heartbeat
    click.echo(f"{total['sent']} sent, {total['retry']} to retry, {total['failed']} failed")
    advise("computers")
    if not paced:
        raise SystemExit(1)


@mail_group.command("worker")
@click.option("--interval", default=5.0, help="Seconds between passes.")
@connected
def mail_worker(interval):
    """Keep sending what is due, every few seconds, until stopped (SIGTERM or ^C: the mail it
    claimed goes back to the queue at once)."""
    import signal
    import threading
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):     # before it says it runs: a stop
        signal.signal(signum, lambda *_: stop.set())   # right after that line is clean too
    click.echo(f"mail worker: sending through {current_app.config['MAIL_SERVER']}:"
               f"{current_app.config['MAIL_PORT']} every {interval}s", err=True)
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
    from ...mail import inbound
    limit = current_app.config["MAX_MAIL_SIZE"]
    raw = sys.stdin.buffer.read(limit + 1)
    while len(raw) > limit and sys.stdin.buffer.read(1 << 16):
        pass                                    # read it all: the MTA's pipe must not break
    try:
        db.connect(reuse_if_open=True)
        outcome = inbound.receive(raw, recipients, sender)
    except Exception as exc:  # noqa: BLE001 - the MTA tries again later; no traceback
        log_line = ("pbem mail receive: the database is unreachable, deliver it again later: "
                    if database.lost_connection(exc) else "pbem mail receive: failed, deliver "
                    "it again later: ")
        click.echo(log_line + one_line(exc), err=True)
        logging.getLogger(__name__).debug("pbem mail receive failed", exc_info=True)
        raise SystemExit(EX_TEMPFAIL)
    finally:
        if not db.is_closed():
            db.close()
    click.echo(outcome)


@mail_group.command("fetch")
@connected
def mail_fetch():
    """Read the replies waiting in the IMAP mailbox (PBEM_IMAP_HOST, ...) once: each is played
    or answered, then flagged and moved to PBEM_IMAP_DONE_FOLDER or deleted."""
    import ssl

    from imapclient.exceptions import IMAPClientError

    from ...mail import inbound
    if not current_app.config.get("IMAP_HOST"):
        raise click.ClickException("PBEM_IMAP_HOST is not set: there is no mailbox to read")
    try:
        counts = inbound.fetch()
    except (OSError, ssl.SSLError, IMAPClientError) as exc:
        health.replies_read(one_line(exc))         # /health and pbem check say so
        raise click.ClickException(f"the IMAP server cannot be read: {one_line(exc)}") from None
    except Exception as exc:  # noqa: BLE001 - the message stays in the mailbox for next time
        if not database.lost_connection(exc):
            raise
        raise click.ClickException(f"the database is unreachable: {one_line(exc)}") from None
    health.replies_read()
    click.echo(", ".join(f"{n} {word}" for word, n in sorted(counts.items())) or "no replies")


@mail_group.command("status")
@connected
def mail_status():
    """Count the outbox rows waiting, sent and failed for good."""
    waiting = Outbox.select().where(Outbox.sent_at.is_null(), Outbox.failed_at.is_null()).count()
    sent = Outbox.select().where(Outbox.sent_at.is_null(False)).count()
    failed = Outbox.select().where(Outbox.failed_at.is_null(False)).count()
    click.echo(f"{waiting} waiting, {sent} sent, {failed} failed")


@mail_group.command("test")
@click.argument("address")
@with_appcontext
def mail_test(address):
    """Send one test mail to ADDRESS at once, through the configured mail server."""
    from ... import validate
    try:
        valid = validate.email(address)
    except validate.Invalid as exc:
        raise click.BadParameter(str(exc), param_hint="ADDRESS")
    config = current_app.config
    try:
        checks.send_test_mail(config, valid)
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
@connected
def mail_list(which, limit):
    """List the outbox: id, state, tries, created, game, kind, recipient, last error."""
    query = {"failed": mailqueue.failed_mail, "waiting": mailqueue.waiting_mail}.get(which, Outbox.select)()
    rows = list(query.order_by(Outbox.id.desc()).limit(limit))
    for row in rows:
        game = row.game_id if row.game_id is not None else "-"
        error = row.last_error.splitlines()[0][:200] if row.last_error else ""
        click.echo(f"{row.id}\t{mailqueue.state_of(row)}\t{row.attempts} tries\t"
                   f"{row.created_at:%Y-%m-%d %H:%M}\tgame {game}\t{row.kind}\t{row.recipient}"
                   + (f"\t{error}" if error else ""))
    if not rows:
        click.echo("no mail" + (f" {which}" if which else ""))


@mail_group.command("retry")
@click.argument("mail_id", required=False, type=click.IntRange(1))
@click.option("--failed", "all_failed", is_flag=True, help="Every mail that failed for good.")
@connected
def mail_retry(mail_id, all_failed):
    """Send a failed (or waiting) mail again at the next pass: one by ID, or --failed."""
    if (mail_id is None) == (not all_failed):
        raise click.UsageError("name one mail id or pass --failed")
    if all_failed:
        rows = list(mailqueue.failed_mail())
    else:
        row = Outbox.get_or_none(Outbox.id == mail_id)
        if row is None:
            raise click.ClickException(f"there is no mail {mail_id}")
        if row.sent_at is not None:
            raise click.ClickException(f"mail {mail_id} was sent already")
        rows = [row]
    click.echo(f"{outbox.retry(row.id for row in rows)} mails queued again (pbem mail send, or the worker, sends them)")


@mail_group.command("prune")
@click.option("--older-than", "days", required=True, type=click.IntRange(1),
              help="Days since a mail was sent.")
@connected
def mail_prune(days):
    """Delete mail sent more than DAYS ago (each host page keeps its list; a game finished
    before then keeps the mails of its result), the turn links
    past their age with their reply addresses, and the replies handled more than DAYS and a
    link's age ago."""
    counts = mailqueue.prune(days)
    click.echo(f"deleted {counts['mails']} sent mails ({counts['bytes'] // 1024} KB), "
               f"{counts['reply_addresses']} reply addresses, {counts['replies']} replies "
               f"handled and {counts['links']} expired links")
