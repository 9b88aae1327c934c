"""Replies in: one RFC 5322 message (from an MTA's pipe, or fetched from an IMAP mailbox)
read into a `replies.Reply`, which pbem/play/replies.py plays or answers.

Anyone can send mail to the reply address, so a message is read within bounds before anything
in it is trusted: only the header fields a reply needs, each at most HEADER_LIMIT characters,
from the first HEAD_LIMIT bytes; only the first BODY_LIMIT bytes of the body go to the `email`
package's MIME parser (compat32: it parses no header field), and only TEXT_LIMIT characters of
the text part are read, HTML by a reader of our own in one pass. What a reply says stands in
its first lines (above the quoted original and the signature), so nothing a player writes is
lost, and the work and memory of reading any message stay bounded whatever its size. The From
address is read strictly (one plain address: no encoded word, route, group, comment or
trailing text); the Authentication-Results as RFC 8601 says (pbem/mail/authresults.py).

The IMAP client is IMAPClient: a handled message is flagged, then moved or deleted,
so that it is never read twice (and a message read twice all the same is applied once: its
Message-ID). A pass reads for at most IMAP_BUDGET seconds: the rest waits for the next one.
"""
from __future__ import annotations

import hashlib
import logging
import re
import ssl
import time

from flask import current_app
from imapclient import DELETED, FLAGGED, SEEN, IMAPClient
from imapclient.exceptions import IMAPClientError

from ..play import replies, reply_address
from . import authresults
from .reply_text import Malformed, reply_lines, text_of

log = logging.getLogger(__name__)

ADDRESS_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "To", "Cc")
AUTOMATIC_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress")
READ_HEADERS = {name.lower() for name in (
    *ADDRESS_HEADERS, *AUTOMATIC_HEADERS, "From", "Sender", "Return-Path", "Message-ID",
    "Auto-Submitted", "Precedence", "Content-Type", "Content-Transfer-Encoding",
    "Authentication-Results")}
ROBOTS = ("mailer-daemon", "postmaster")

HEAD_LIMIT = 64 * 1024        # bytes of header block read; a longer one is refused
HEADER_LIMIT = 8 * 1024       # characters of one header field read; a longer one is refused
KEPT_EACH = 20                # fields of one name read (the topmost ones)
BODY_LIMIT = 16 * 1024        # bytes of the body given to the MIME parser

# One plain address as pbem keeps players' addresses (ASCII, email-validator's dot-atoms).
ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
ADDR_SPEC = rf"{ATOM}(?:\.{ATOM})*@{LABEL}(?:\.{LABEL})+"
PLAIN_ADDRESS = re.compile(rf"\s*({ADDR_SPEC})\s*")
NAMED_ADDRESS = re.compile(r'\s*(?:"(?:[^"\\\r\n]|\\.)*"|[^"<>()\[\]\\,;:@\r\n]*)\s*'
                           rf"<({ADDR_SPEC})>\s*")
ADDRESS_LIKE = re.compile(r"[^\s<>,;:\"()\[\]]+@[^\s<>,;:\"()\[\]]+")


# -- reading one message ------------------------------------------------------------------------------

class Head:
    """The header fields a reply needs, in the message's order (topmost first), unfolded."""

    def __init__(self, fields: dict[str, list[str]]):
        self.fields = fields

    def all(self, name: str) -> list[str]:
        return self.fields.get(name.lower(), [])

    def first(self, name: str) -> str:
        found = self.all(name)
        return found[0] if found else ""

    def __contains__(self, name: str) -> bool:
        return bool(self.all(name))


def read_head(raw: bytes) -> tuple[Head, int]:
    """The header fields of READ_HEADERS (at most KEPT_EACH of each name) and where the body
    begins: one pass over at most HEAD_LIMIT bytes. Malformed when the header block or a field
    read runs longer than its limit."""
    fields: dict[str, list[str]] = {}
    current: list[bytes] | None = None
    size = 0
    position = 0
    while position < len(raw):
        newline = raw.find(b"\n", position, HEAD_LIMIT)
        if newline < 0:
            if len(raw) > HEAD_LIMIT:
                raise Malformed(f"a header block longer than {HEAD_LIMIT} bytes")
            newline = len(raw)
        line = raw[position:newline].rstrip(b"\r")
        position = newline + 1
        if not line:
            break
        if line[:1] in (b" ", b"\t"):
            if current is not None:
                size += len(line)
                if size > HEADER_LIMIT:
                    raise Malformed(f"a header field longer than {HEADER_LIMIT} characters")
                current.append(line)
            continue
        name, colon, value = line.partition(b":")
        key = name.decode("ascii", "replace").strip().lower()
        current = None
        if colon and key in READ_HEADERS and len(fields.setdefault(key, [])) < KEPT_EACH:
            size = len(value)
            if size > HEADER_LIMIT:
                raise Malformed(f"a header field longer than {HEADER_LIMIT} characters")
            current = [value]
            fields[key].append(current)            # joined below, once complete
    return Head({key: [b"".join(parts).decode("utf-8", "replace").strip()
                       for parts in values] for key, values in fields.items()}), position


def address_in(value: str) -> str | None:
    """The one plain address of a From:-like field (`a@b.example` or `Name <a@b.example>`),
    None for anything else: an encoded word, a route, a group, a comment, two addresses or
    trailing text are refused, never guessed at."""
    if len(value) > 998:
        return None
    found = PLAIN_ADDRESS.fullmatch(value) or NAMED_ADDRESS.fullmatch(value)
    return found.group(1) if found else None


def parse(raw: bytes, recipients=(), envelope_sender: str | None = None) -> replies.Reply:
    """The reply in `raw`; `recipients` and `envelope_sender` as the MTA gave them (a pipe's
    ${recipient} and ${sender}), else the message's own headers say."""
    try:
        return _parse(raw, recipients, envelope_sender)
    except Malformed:
        raise
    except Exception as exc:  # noqa: BLE001 - any defect the parser trips on is "malformed"
        raise Malformed(f"{type(exc).__name__}: {exc}"[:200]) from None


def _parse(raw: bytes, recipients, envelope_sender: str | None) -> replies.Reply:
    head, body_at = read_head(raw)
    senders = head.all("From")
    sender = address_in(senders[0]) if len(senders) == 1 else "" if not senders else None
    if sender is None:
        raise Malformed("From: is not one plain address")
    addresses = list(recipients)
    for name in ADDRESS_HEADERS:
        for value in head.all(name):
            addresses += ADDRESS_LIKE.findall(value)
    reply_ids = list(dict.fromkeys(r for r in map(reply_address.id_in, addresses) if r))
    key = head.first("Message-ID") or hashlib.sha256(raw).hexdigest()
    automatic = why_automatic(head, sender, envelope_sender)
    authenticated = is_authenticated(head, sender)
    lines = [] if automatic else reply_lines(text_of(
        head.first("Content-Type"), head.first("Content-Transfer-Encoding"),
        raw[body_at:body_at + BODY_LIMIT]))
    return replies.Reply(key=key[:998], sender=sender, reply_ids=reply_ids, lines=lines,
                         automatic=automatic, authenticated=authenticated)


def why_automatic(head: Head, sender: str, envelope_sender: str | None) -> str:
    """Why a message is an auto-reply or a bounce (RFC 3834: never answer those), or ""."""
    auto = head.first("Auto-Submitted").split(";")[0].strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto[:40]}"
    precedence = head.first("Precedence").lower()
    if precedence in ("bulk", "junk", "list"):
        return f"Precedence: {precedence}"
    if envelope_sender is not None and envelope_sender.strip() in ("", "<>"):
        return "an empty envelope sender (a bounce)"
    if "Return-Path" in head and not address_in(head.first("Return-Path")):
        return "an empty Return-Path (a bounce)"
    for who in (sender, address_in(head.first("Sender")) or "", envelope_sender or ""):
        if who.partition("@")[0].lower() in ROBOTS:
            return f"sent by {who[:100]}"
    if _content_type(head.first("Content-Type")) == "multipart/report":
        return "a delivery report"
    for name in AUTOMATIC_HEADERS:
        if name in head:
            return f"{name} (an auto-reply)"
    return ""


def _content_type(value: str) -> str:
    return value.partition(";")[0].strip().lower()


def is_authenticated(head: Head, sender: str) -> bool:
    """With PBEM_REPLY_TRUSTED_AUTHSERV set: the topmost Authentication-Results of that
    authserv-id says dkim=pass for the From domain (header.d) or spf=pass for it
    (smtp.mailfrom); see pbem/mail/authresults.py."""
    trusted = (current_app.config.get("REPLY_TRUSTED_AUTHSERV") or "").strip()
    if not trusted:
        return True
    return authresults.vouches(head.all("Authentication-Results"), trusted,
                               sender.rpartition("@")[2])


def receive(raw: bytes, recipients=(), envelope_sender: str | None = None) -> str:
    """Handle one message; the outcome in a few words (played, answered, duplicate, ignored:
    why, refused: why). Only a database failure raises: the MTA delivers it again."""
    limit = current_app.config["MAX_MAIL_SIZE"]
    if len(raw) > limit:
        return f"refused: larger than PBEM_MAX_MAIL_SIZE ({limit} bytes)"
    if not reply_address.enabled():
        return "ignored: replies are off (PBEM_REPLY_ADDRESS is not set)"
    try:
        reply = parse(raw, recipients, envelope_sender)
    except Malformed as exc:
        return f"ignored: a malformed message ({exc})"[:300]
    outcome = replies.handle(reply)
    log.info("reply from %s: %s", reply.sender or "?", outcome)
    return outcome


# -- an IMAP mailbox -------------------------------------------------------------------------------------

def imap_connection(settings) -> IMAPClient:
    """Logged in to PBEM_IMAP_HOST (IMAPS unless PBEM_IMAP_TLS=false), the folder selected."""
    tls = bool(settings.get("IMAP_TLS", True))
    client = IMAPClient(settings["IMAP_HOST"], port=int(settings["IMAP_PORT"]), ssl=tls,
                        ssl_context=ssl.create_default_context() if tls else None,
                        timeout=settings.get("MAIL_TIMEOUT", 20))
    try:
        client.login(settings["IMAP_USER"] or "", settings["IMAP_PASSWORD"] or "")
        client.select_folder(settings["IMAP_FOLDER"] or "INBOX")
    except BaseException:
        _logout(client)
        raise
    return client


def _logout(client: IMAPClient) -> None:
    try:
        client.logout()
    except (OSError, IMAPClientError):
        pass


IMAP_BUDGET = 10.0            # seconds one pass may read for (the worker sends no mail meanwhile)


def fetch(limit: int = 50, budget: float = IMAP_BUDGET) -> dict:
    """Handle the messages of the IMAP folder that are neither flagged nor deleted: each is
    flagged as soon as it is handled, then moved to PBEM_IMAP_DONE_FOLDER or deleted. Counts
    per outcome. Once `budget` seconds are spent no further message is read: the rest wait
    for the next pass (the mail worker reads between two sendings). A database failure stops
    the pass with the message left for the next one."""
    config = current_app.config
    started = time.monotonic()
    counts: dict[str, int] = {}
    client = imap_connection(config)
    try:
        uids = client.search(["UNDELETED", "UNFLAGGED"])[:limit]
        done = config.get("IMAP_DONE_FOLDER") or ""
        for uid in uids:
            if counts and time.monotonic() - started > budget:
                counts["left for the next pass"] = len(uids) - sum(counts.values())
                break
            outcome = _fetch_one(client, uid, config["MAX_MAIL_SIZE"])
            word = outcome.split(":")[0]
            counts[word] = counts.get(word, 0) + 1
            client.add_flags([uid], [FLAGGED, SEEN])
            if done:
                try:
                    client.copy([uid], done)
                except IMAPClientError:
                    log.warning("replies: cannot copy to %r; the message is deleted", done)
            client.add_flags([uid], [DELETED])
        if uids:
            client.expunge()
    finally:
        _logout(client)
    return counts


def _fetch_one(client: IMAPClient, uid: int, limit: int) -> str:
    size = client.fetch([uid], ["RFC822.SIZE"]).get(uid, {}).get(b"RFC822.SIZE")
    if size is None or int(size) > limit:
        return f"refused: larger than PBEM_MAX_MAIL_SIZE ({limit} bytes)"
    raw = client.fetch([uid], ["BODY.PEEK[]"]).get(uid, {}).get(b"BODY[]")
    if raw is None:
        return "ignored: the server gave no message"
    return receive(raw)


def reply_findings(settings, Finding) -> list:
    """What `pbem check` says of replies: off, or on with their ways in (the IMAP mailbox
    logged in to and its folder opened)."""
    address = settings.get("REPLY_ADDRESS")
    if not address:
        return [Finding("note", "replies by mail are off (PBEM_REPLY_ADDRESS is not set)")]
    if address.count("@") != 1 or "+" in address.partition("@")[0]:
        return [Finding("problem", f"PBEM_REPLY_ADDRESS={address!r} must be one address "
                                   "without a + in its local part, such as turns@example.org")]
    if len(address.partition("@")[0]) + 1 + reply_address.REPLY_ID_LENGTH > 64:
        return [Finding("problem", f"PBEM_REPLY_ADDRESS={address!r}: its local part leaves no "
                                   f"room for +<id> ({reply_address.REPLY_ID_LENGTH} characters) within 64")]
    found = [Finding("ok", f"replies by mail are on: Reply-To {address.replace('@', '+<id>@')}")]
    if not settings.get("IMAP_HOST"):
        found.append(Finding("note", "no PBEM_IMAP_HOST: replies come in only through "
                                     "`pbem mail receive` (the MTA's pipe)"))
        return found
    where = f"{settings['IMAP_HOST']}:{settings['IMAP_PORT']}"
    try:
        imap_connection(settings).logout()
    except IMAPClientError as exc:
        return found + [Finding("problem", f"the IMAP server {where} refuses the login or the "
                                           f"folder: {exc}")]
    except (OSError, ssl.SSLError) as exc:
        return found + [Finding("problem", f"the IMAP server {where} cannot be reached: "
                                           f"{type(exc).__name__}: {exc}")]
    return found + [Finding("ok", f"the IMAP mailbox {settings['IMAP_USER']}@{where} "
                                  f"({settings['IMAP_FOLDER']}) opens")]
