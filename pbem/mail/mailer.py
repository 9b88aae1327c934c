"""Drains the outbox through flask-mail: temporary failures retry with backoff, permanent
ones are marked for the host, and a row once sent is never sent again."""
from __future__ import annotations

import datetime as dt
import logging
import smtplib
import socket
import threading
import time

from email import charset as email_charset
from email import policy as email_policy
from email.utils import formataddr, parseaddr
from urllib.parse import urlsplit

from flask import current_app
from flask_mail import BadHeaderError, Connection, Mail, Message, sanitize_address

from peewee import fn

from ..play import fresh, health, optout, outbox, replies, reply_address
from . import compose, redaction, urls, webhooks
from ..db import database
from ..db.database import is_sqlite, write_transaction
from ..db.models import DoneOnce, Outbox, Seat, db, utcnow
from ..validate import address_key

log = logging.getLogger(__name__)

# flask-mail registers UTF-8 bodies as raw 8-bit, so a line over SMTP's 998 characters (an HTML
# board picture, say) is refused for good ("500 Line too long"). Quoted-printable wraps lines.
email_charset.add_charset("utf-8", email_charset.SHORTEST, email_charset.QP, "utf-8")

LEASE = dt.timedelta(minutes=10)     # a claimed row waits this long before another worker may
MAX_ATTEMPTS = 15                    # about four days of retries with the backoff below
FIRST_DELAY, MAX_DELAY = 60, 6 * 3600
CLAIM_LOCK = 0x70626D01             # PostgreSQL advisory lock: claims one after another
OPTED_OUT = "skipped: the recipient opted out of mail from this server"


class TimeoutConnection(Connection):
    """flask-mail's connection, with the SMTP timeout it lacks."""

    def configure_host(self):
        mail, timeout = self.mail, current_app.config["MAIL_TIMEOUT"]
        smtp_class = smtplib.SMTP_SSL if mail.use_ssl else smtplib.SMTP
        host = smtp_class(mail.server, mail.port, timeout=timeout)
        host.set_debuglevel(int(mail.debug))
        if mail.use_tls:
            host.starttls()
        if mail.username and mail.password:
            host.login(mail.username, mail.password)
        return host


class PbemMail(Mail):
    def connect(self) -> Connection:
        return TimeoutConnection(current_app.extensions["mail"])


mail = PbemMail()


class Unbuildable(Exception):
    """A row that cannot become a message (a line break in a header, an unencodable address):
    retrying would fail the same way."""

    def __init__(self, cause: BaseException):
        super().__init__(f"{type(cause).__name__}: {cause}")


def classify(exc: BaseException) -> bool:
    """True when a failure is permanent (a 5xx answer, a row that cannot be built);
    everything else is retried."""
    if isinstance(exc, Unbuildable):
        return True
    if isinstance(exc, webhooks.PostFailed):
        return exc.permanent
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _ in exc.recipients.values()]
        return bool(codes) and all(500 <= code < 600 for code in codes)
    if isinstance(exc, smtplib.SMTPResponseException):
        return 500 <= exc.smtp_code < 600
    return False


def backoff(attempts: int) -> dt.timedelta:
    return dt.timedelta(seconds=min(FIRST_DELAY * 2 ** max(attempts - 1, 0), MAX_DELAY))


def claim(limit: int, now: dt.datetime) -> list[Outbox]:
    """Lease up to `limit` due rows to this worker (SKIP LOCKED on PostgreSQL); rows to an
    address that opted out are skipped for good, rows over the address's daily quota wait."""
    with write_transaction():
        if not is_sqlite():             # one claim at a time, so that quotas count right
            db.execute_sql("SELECT pg_advisory_xact_lock(%s)", (CLAIM_LOCK,))
        query = (Outbox.select()
                 .where(Outbox.sent_at.is_null(), Outbox.failed_at.is_null(),
                        Outbox.next_try_at <= now,
                        Outbox.claimed_until.is_null() | (Outbox.claimed_until < now))
                 .order_by(Outbox.id).limit(limit))
        if not is_sqlite():
            query = query.for_update(skip_locked=True)
        rows = _within_quota(_not_opted_out(list(query), now), now)
        if rows:
            (Outbox.update(claimed_until=now + LEASE, claimed_by=health.process_name())
             .where(Outbox.id.in_([r.id for r in rows])).execute())
    return rows


def _not_opted_out(rows: list[Outbox], now: dt.datetime) -> list[Outbox]:
    """Rows to an address that opted out after they were queued are never sent."""
    skipped = optout.opted_out({row.recipient for row in rows})
    if not skipped:
        return rows
    (Outbox.update(failed_at=now, claimed_until=None, last_error=OPTED_OUT)
     .where(Outbox.id.in_([r.id for r in rows if r.recipient in skipped])).execute())
    log.info("mail: skipped %d rows to addresses that opted out", len(skipped))
    return [row for row in rows if row.recipient not in skipped]


def _within_quota(rows: list[Outbox], now: dt.datetime) -> list[Outbox]:
    """Rows within each recipient's daily quota (sent in the last 24 hours, or leased now);
    the others wait until the oldest of those mails is a day old. Nothing is dropped. Answers
    to replies are neither counted nor held: they have limits of their own
    (pbem/play/replies.py), and a player's turn mail never waits behind them."""
    quota = current_app.config["MAILS_PER_RECIPIENT_PER_DAY"]
    if quota <= 0 or not rows:
        return rows
    day = dt.timedelta(days=1)
    counted = (Outbox.select(Outbox.recipient, fn.COUNT(Outbox.id).alias("n"),
                             fn.MIN(Outbox.sent_at).alias("first"))
               .where(Outbox.recipient.in_(list({r.recipient for r in rows})),
                      Outbox.kind.not_in(replies.UNCOUNTED_KINDS),
                      (Outbox.sent_at >= now - day)
                      | (Outbox.sent_at.is_null() & (Outbox.claimed_until > now)))
               .group_by(Outbox.recipient).tuples())
    used = {recipient: n for recipient, n, _first in counted}
    first = {recipient: when for recipient, _n, when in counted}
    kept = []
    for row in rows:
        if row.kind == webhooks.KIND or row.kind in replies.UNCOUNTED_KINDS:  # limited where made
            kept.append(row)
            continue
        used[row.recipient] = used.get(row.recipient, 0) + 1
        if used[row.recipient] <= quota or _answers_a_solo_player(row):
            kept.append(row)
            continue
        since = first.get(row.recipient) or now     # else: the ones leased now go out now
        (Outbox.update(next_try_at=since + day,
                       last_error=f"held: {quota} mails to this address in 24 hours")
         .where(Outbox.id == row.id).execute())
    return kept


SOLO_KINDS = ("turn", "over")


def _answers_a_solo_player(row: Outbox) -> bool:
    """A turn (or the result) mailed to the one person in a game against the computer: the
    computers answer that person's own moves at once, so such mail follows what its recipient
    did and the daily cap would only stall the game (a solo card game asks one person hundreds
    of times a day). Invitations and every other kind stay counted."""
    if row.kind not in SOLO_KINDS or row.game_id is None:
        return False
    people = list(Seat.select(Seat.email).where(Seat.game == row.game_id,
                                                Seat.bot_level.is_null()).limit(2))
    return len(people) == 1 and address_key(people[0].email) == address_key(row.recipient)


def _thread_headers(row: Outbox) -> dict:
    """In-Reply-To/References to the game's first mail to the same seat: a mail client keeps
    a game's mail in one thread."""
    if row.game_id is None:
        return {}
    domain = urlsplit(current_app.config["BASE_URL"]).hostname or "localhost"
    root = outbox.thread_root(row.game, row.seat, domain)
    return {} if root == row.message_id else {"In-Reply-To": root, "References": root}


def _reply_to(row: Outbox) -> str | None:
    """A turn mail's reply address, turns+<id>@... (PBEM_REPLY_ADDRESS), made from its link;
    an answer to a reply (played or not) keeps the reply address it answers while that mail's
    link works (its `reply_token`)."""
    context = row.context or {}
    if row.template in ("reply", "played") and reply_address.enabled() \
            and context.get("reply_token"):
        return reply_address.address_of(context["reply_token"])
    if row.template != "turn":
        return None
    return reply_address.reply_to(context.get("token") or "")


def _message(row: Outbox) -> Message:
    unsubscribe = urls.optout_url(row.recipient, row)
    message = Message(subject=row.subject, recipients=[row.recipient], body=row.body_text,
                      html=row.body_html, sender=current_app.config["MAIL_SENDER"],
                      reply_to=_reply_to(row),
                      extra_headers={"List-Unsubscribe": f"<{unsubscribe}>",   # RFC 8058
                                     "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                                     **_thread_headers(row)})
    message.msgId = row.message_id   # the same Message-ID on every attempt
    return message


def _build(row: Outbox) -> tuple[str, list[str], bytes]:
    """(envelope sender, recipients, the whole message), built once: a bad header or an
    address SMTP cannot carry fails here, before anything is said to the server. A row not yet
    rendered (its use case's process went away first) is rendered now."""
    if not row.rendered:
        compose.render(row)
    message = _message(row)
    if message.has_bad_headers():
        raise BadHeaderError("a line break in the subject, sender or recipient")
    message.date = time.time()
    recipients = [sanitize_address(r) for r in message.send_to]
    for address in recipients:
        address.encode("ascii")         # smtplib would fail half-way through the envelope
    return sanitize_address(message.sender), recipients, _as_bytes(message)


# Headers go out as written: the default policy refolds a line over 78 characters, and folds a
# URL longer than that (List-Unsubscribe) into RFC 2047 words, which no mail client reads as a
# <URL>. Every header here is ours and short enough for SMTP's 998 (the subject comes encoded
# and folded already).
AS_WRITTEN = email_policy.SMTP.clone(refold_source="none")


def _as_bytes(message: Message) -> bytes:
    """The message as mail providers like it: a plain sender name (encoded only when it is
    not ASCII), an unfolded List-Unsubscribe, and Auto-Submitted (RFC 3834: no vacation
    replies, and an automatic reply to it can be told apart)."""
    built = message._message()
    built.replace_header("From", plain_address(message.sender))
    built["Auto-Submitted"] = "auto-generated"
    return built.as_bytes(policy=AS_WRITTEN)


def plain_address(address: str) -> str:
    """`Name <user@host>` with the name RFC 2047-encoded only when it is not ASCII (an
    address that is not ASCII goes through flask-mail's IDN encoding)."""
    name, addr = parseaddr(address)
    return formataddr((name, addr)) if addr.isascii() else sanitize_address((name, addr))


def _mark_sent(row: Outbox) -> None:
    """A sent row keeps no body and no usable link (redaction.redacted), from the moment it is
    marked: a leaked backup holds no live credential of sent mail, and the outbox stays small."""
    with write_transaction():
        (Outbox.update(sent_at=utcnow(), attempts=Outbox.attempts + 1, claimed_until=None,
                       last_error="", **redaction.redacted(row))
         .where(Outbox.id == row.id).execute())


def _mark_failed(row: Outbox, exc: BaseException, now: dt.datetime) -> str:
    attempts = row.attempts + 1
    permanent = classify(exc) or attempts >= MAX_ATTEMPTS
    error = f"{type(exc).__name__}: {exc}"[:2000]
    fields = {"attempts": attempts, "claimed_until": None, "last_error": error}
    if permanent:
        fields["failed_at"] = now
    else:
        fields["next_try_at"] = now + backoff(attempts)
    with write_transaction():
        Outbox.update(**fields).where(Outbox.id == row.id).execute()
    log.warning("mail %s to %s %s: %s", row.message_id, row.recipient,
                "failed for good" if permanent else "will be retried", error)
    return "failed" if permanent else "retry"


REDACTED_BEFORE = "redact mail sent before 0.3"     # the DoneOnce marker of the work below
_redacted_before: set[str] = set()     # databases whose marker this process has seen


def redact_sent_before(batch: int = 200) -> int:
    """Mail sent before sent rows kept no body (an upgraded database) loses its bodies and the
    tokens of its context, once per database (recorded as done in `done_once`). The outbox is
    read in id order a batch at a time outside any lock, and each batch's rows are written in
    a short transaction of their own, so the write lock is never held over a scan. The number
    of rows redacted."""
    key = current_app.config["DATABASE_URL"]
    if key in _redacted_before:
        return 0
    if DoneOnce.select().where(DoneOnce.name == REDACTED_BEFORE).exists():
        _redacted_before.add(key)
        return 0
    done, after = 0, 0
    while True:
        rows = list(Outbox.select().where(Outbox.id > after).order_by(Outbox.id).limit(batch))
        if not rows:
            break
        after = rows[-1].id
        stale = [row for row in rows if row.sent_at is not None
                 and (row.body_text or row.body_html)]
        if stale:
            with write_transaction():
                for row in stale:
                    Outbox.update(**redaction.redacted(row)).where(Outbox.id == row.id).execute()
            done += len(stale)
    with write_transaction():
        DoneOnce.insert(name=REDACTED_BEFORE).on_conflict_ignore().execute()
    _redacted_before.add(key)
    if done:
        log.info("mail: redacted the links of %d mails sent before", done)
    return done


def send_due(limit: int = 100, now: dt.datetime | None = None,
             stop: threading.Event | None = None) -> dict:
    """One pass over the outbox; counts of sent, retry and failed rows.
    `now` lets a test stand later in time, as if the backoff had passed; once `stop` is set
    the rows not sent yet go back to the queue. The mail goes first, then the chat posts
    within their time for the pass: a slow chat server never holds any game's mail."""
    redact_sent_before()
    fresh.answer_home_requests()        # /me's requests: their home links go out in this pass
    now = now or utcnow()
    counts = {"sent": 0, "retry": 0, "failed": 0}
    rows = claim(limit, now)
    posts = [row for row in rows if row.kind == webhooks.KIND]
    rows = [row for row in rows if row.kind != webhooks.KIND]
    try:
        _mail_all(rows, now, counts, stop)
    except BaseException:
        _release_unsent(posts)
        raise
    _post_all(posts, now, counts, stop)
    return counts


def _mail_all(rows: list[Outbox], now: dt.datetime, counts: dict,
              stop: threading.Event | None) -> None:
    """The mail of one pass over one SMTP connection."""
    if not rows:
        return
    try:
        connection = mail.connect().__enter__()
    except (OSError, smtplib.SMTPException) as exc:   # refused, timed out, or greeted with 4xx/5xx
        for row in rows:
            counts[_mark_failed(row, _as_temporary(exc), now)] += 1
        return
    try:
        for row in rows:
            if stop is not None and stop.is_set():
                break
            try:
                built = _build(row)
            except Exception as exc:  # noqa: BLE001 - one row that cannot be built is its failure
                counts[_mark_failed(row, Unbuildable(exc), now)] += 1
                continue
            try:
                connection.host.sendmail(*built)
            except smtplib.SMTPServerDisconnected as exc:
                counts[_mark_failed(row, exc, now)] += 1
                break
            except (OSError, smtplib.SMTPException) as exc:
                counts[_mark_failed(row, exc, now)] += 1
                continue
            except Exception as exc:  # noqa: BLE001 - anything else stays this row's failure
                counts[_mark_failed(row, exc, now)] += 1
                if not _reset(connection):
                    break
                continue
            _mark_sent(row)
            counts["sent"] += 1
    finally:
        _release_unsent(rows)
        try:
            connection.__exit__(None, None, None)
        except (OSError, smtplib.SMTPException):
            pass


def _post_all(posts: list[Outbox], now: dt.datetime, counts: dict,
              stop: threading.Event | None) -> None:
    """Chat posts go over HTTP, not SMTP: each on its own, whatever the mail server does. A
    post starts only while a whole post's time (PBEM_WEBHOOK_TIMEOUT) is left of the pass's
    (PBEM_WEBHOOK_SECONDS_PER_PASS); the ones left over go back to the queue, untried, for the
    next pass, so slow receivers hold the worker at most that long."""
    pass_ends = time.monotonic() + float(current_app.config["WEBHOOK_SECONDS_PER_PASS"])
    try:
        for tried, row in enumerate(posts):         # one post a pass, whatever the settings
            if stop is not None and stop.is_set():
                break
            if tried and pass_ends - time.monotonic() < webhooks.timeout():
                log.info("mail: %d chat posts wait for the next pass", len(posts) - tried)
                break
            try:
                if not row.rendered:
                    compose.render(row)
                webhooks.deliver(row)
            except Exception as exc:  # noqa: BLE001 - one post's failure is its own
                counts[_mark_failed(row, exc if isinstance(exc, webhooks.PostFailed)
                                    else Unbuildable(exc), now)] += 1
                continue
            _mark_sent(row)
            counts["sent"] += 1
    finally:
        _release_unsent(posts)


def _reset(connection) -> bool:
    """After a failure in the middle of one message, RSET so the next starts clean;
    False when the connection is no longer usable."""
    try:
        connection.host.rset()
        return True
    except Exception:  # noqa: BLE001 - a broken connection: the rest go back to the queue
        return False


def _as_temporary(exc: BaseException) -> BaseException:
    """A failure to connect is temporary even when the greeting was a 5xx (a server restarting)."""
    return exc if isinstance(exc, (OSError, socket.timeout)) else OSError(str(exc))


def _release_unsent(rows: list[Outbox]) -> None:
    """Rows left unsent when a connection broke go back to the queue at once."""
    ids = [r.id for r in rows]
    with write_transaction():
        (Outbox.update(claimed_until=None)
         .where(Outbox.id.in_(ids), Outbox.sent_at.is_null()).execute())


def worker(interval: float = 5.0, once: bool = False,
           stop: threading.Event | None = None) -> None:
    """Send what is due, then wait `interval` seconds, until `stop` is set. A pass that fails
    drops its database connection; the next pass opens a fresh one, after a delay that doubles
    with each failure in a row (at most RETRY_MAX seconds). On the way out the process gives
    back the mail it claimed and says it stopped."""
    stop = stop or threading.Event()
    failures = 0
    try:
        while not stop.is_set():
            failures = 0 if _worker_pass(stop, after_failure=failures > 0) else failures + 1
            if once:
                return
            if failures:
                log.warning("mail: trying again in %ss", database.retry_delay(failures))
            stop.wait(database.retry_delay(failures) if failures else interval)
    finally:
        if not once:
            _give_back()


def _worker_pass(stop: threading.Event, after_failure: bool = False) -> bool:
    """One pass of the worker: the pace pass, the computer players' pass, then the mail. False
    when it failed. After a failed pass, the claims that pass could not give back (its
    connection was gone) are released first: this process holds nothing between passes."""
    from ..play import computers, pace
    try:
        db.connect(reuse_if_open=True)
        if after_failure:
            _release_own_claims()
        for name, run in (
                ("the pace pass", pace.run_pass),   # reminders and timeouts due now, first
                ("the computer players' pass", computers.run_pass)):    # their mails go now
            _before_the_mail(name, run)
        counts = send_due(stop=stop)
        _poll_replies()
        health.beat()               # /health and pbem check see the worker alive
    except Exception as exc:  # noqa: BLE001 - a worker outlives any one bad pass (database restart...)
        log.exception("mail: this pass failed")
        database.discard_connection(pool_too=database.lost_connection(exc))
        return False
    if any(counts.values()):
        log.info("mail: %(sent)d sent, %(retry)d to retry, %(failed)d failed", counts)
    return True


def _before_the_mail(name: str, run) -> None:
    """Run one of the passes before the mail, isolated: its failure is logged and the next one
    runs on a fresh connection; only a lost connection fails the whole worker pass."""
    try:
        run()
    except Exception as exc:  # noqa: BLE001 - a failing pass must not stop the others or the mail
        log.exception("%s failed", name)
        if database.lost_connection(exc):
            raise
        database.discard_connection()
        db.connect(reuse_if_open=True)


IMAP_INTERVAL = 60.0                 # seconds between two reads of the replies' IMAP mailbox
_last_poll = [0.0]


def _poll_replies() -> None:
    """Read the replies' IMAP mailbox (PBEM_IMAP_HOST) once a minute; an IMAP failure is
    logged and never stops the mail (a database failure fails the pass, as sending would)."""
    if not current_app.config.get("IMAP_HOST") or time.monotonic() - _last_poll[0] < IMAP_INTERVAL:
        return
    _last_poll[0] = time.monotonic()
    from imapclient.exceptions import IMAPClientError

    from . import inbound
    try:
        counts = inbound.fetch()
    except (OSError, IMAPClientError) as exc:
        log.warning("replies: the IMAP mailbox cannot be read: %s: %s", type(exc).__name__, exc)
        health.replies_read(f"{type(exc).__name__}: {exc}")     # /health and pbem check say so
        return
    health.replies_read()
    if counts:
        log.info("replies: %s", ", ".join(f"{n} {word}" for word, n in sorted(counts.items())))


def _release_own_claims() -> int:
    with write_transaction():
        return (Outbox.update(claimed_until=None)
                .where(Outbox.claimed_by == health.process_name(), Outbox.sent_at.is_null(),
                       Outbox.claimed_until.is_null(False))
                .execute())


def _give_back() -> None:
    """A worker that stops releases its claims at once (not after their 10-minute lease) and
    says it stopped, so /health does not miss it."""
    try:
        db.connect(reuse_if_open=True)
        released = _release_own_claims()
        if released:
            log.info("mail: gave back %d claimed mails", released)
        with write_transaction():
            health.stopped()
    except Exception:  # noqa: BLE001 - the database is gone: the leases run out on their own
        log.exception("mail: could not give back this worker's claims")
        database.discard_connection(pool_too=True)
