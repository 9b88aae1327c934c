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

The IMAP client is the standard `imaplib`: a handled message is flagged, then moved or deleted,
so that it is never read twice (and a message read twice all the same is applied once: its
Message-ID). A pass reads for at most IMAP_BUDGET seconds: the rest waits for the next one.
"""
from __future__ import annotations

import hashlib
import html
import imaplib
import logging
import re
import ssl
import time
from email import message_from_bytes, policy
from email.message import Message

from flask import current_app

from ..play import replies, reply_address
from . import authresults

log = logging.getLogger(__name__)

ADDRESS_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "To", "Cc")
AUTOMATIC_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress")
READ_HEADERS = {name.lower() for name in (
    *ADDRESS_HEADERS, *AUTOMATIC_HEADERS, "From", "Sender", "Return-Path", "Message-ID",
    "Auto-Submitted", "Precedence", "Content-Type", "Content-Transfer-Encoding",
    "Authentication-Results")}
ROBOTS = ("mailer-daemon", "postmaster")
WROTE = ("wrote:", "írta:", "schrieb:", "a écrit :", "a écrit:", "scrisse:", "escribió:")
ON = re.compile(r"^on\s", re.IGNORECASE)
SEPARATORS = re.compile(r"^(-{2,}\s*(original message|eredeti üzenet|forwarded message)"
                        r"\s*-{2,}|_{10,}|-{10,})\s*$", re.IGNORECASE)
HEADER_BLOCK = re.compile(r"^(from|feladó|von|de)\s*:\s", re.IGNORECASE)
READ_LINES = replies.MAX_LINES + 1

HEAD_LIMIT = 64 * 1024        # bytes of header block read; a longer one is refused
HEADER_LIMIT = 8 * 1024       # characters of one header field read; a longer one is refused
KEPT_EACH = 20                # fields of one name read (the topmost ones)
BODY_LIMIT = 16 * 1024        # bytes of the body given to the MIME parser
TEXT_LIMIT = 16 * 1024        # characters of the reply's text part read
MAX_MULTIPARTS = 10           # multipart parts (nested or not) in what the MIME parser reads

# One plain address as pbem keeps players' addresses (ASCII, email-validator's dot-atoms).
ATOM = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
ADDR_SPEC = rf"{ATOM}(?:\.{ATOM})*@{LABEL}(?:\.{LABEL})+"
PLAIN_ADDRESS = re.compile(rf"\s*({ADDR_SPEC})\s*")
NAMED_ADDRESS = re.compile(r'\s*(?:"(?:[^"\\\r\n]|\\.)*"|[^"<>()\[\]\\,;:@\r\n]*)\s*'
                           rf"<({ADDR_SPEC})>\s*")
ADDRESS_LIKE = re.compile(r"[^\s<>,;:\"()\[\]]+@[^\s<>,;:\"()\[\]]+")


class Malformed(ValueError):
    """A message that cannot be read within bounds, or that the `email` package cannot make
    sense of."""


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
    lines = [] if automatic else reply_lines(text_of(head, raw[body_at:body_at + BODY_LIMIT]))
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


def text_of(head: Head, body: bytes) -> str:
    """The reply's text: its first text/plain part, else its first text/html part read as
    text (attachments and attached messages left out), at most TEXT_LIMIT characters."""
    top = (f"Content-Type: {head.first('Content-Type') or 'text/plain'}\r\n"
           f"Content-Transfer-Encoding: {head.first('Content-Transfer-Encoding') or '7bit'}"
           "\r\n\r\n").encode("utf-8", "replace")
    if (top + body).lower().count(b"multipart/") > MAX_MULTIPARTS:
        raise Malformed(f"more than {MAX_MULTIPARTS} multipart parts")   # a reply has 1 to 3
    try:
        message = message_from_bytes(top + body, policy=policy.compat32)
        part = _text_part(message)
        if part is None:
            return ""
        payload = part.get_payload(decode=True)
        charset = part.get_content_charset() or "utf-8"
    except (RecursionError, ValueError, TypeError, LookupError, IndexError) as exc:
        raise Malformed(f"{type(exc).__name__}: {exc}"[:200]) from None
    if not isinstance(payload, bytes):
        return ""
    payload = payload[:4 * TEXT_LIMIT]
    try:
        text = payload.decode(charset, "replace")
    except (LookupError, UnicodeError, ValueError, TypeError):  # an unknown charset: UTF-8
        text = payload.decode("utf-8", "replace")
    text = text[:TEXT_LIMIT]
    return html_text(text) if part.get_content_type() == "text/html" else text


def _text_part(message: Message) -> Message | None:
    """The first text/plain leaf of the multipart tree, else its first text/html."""
    html_part = None
    stack = [message]
    while stack:
        part = stack.pop()
        if part.get_content_maintype() == "multipart" and part.is_multipart():
            stack.extend(reversed(part.get_payload()))
            continue
        disposition = str(part.get("Content-Disposition", "")).partition(";")[0]
        if disposition.strip().lower() == "attachment":
            continue
        kind = part.get_content_type()
        if kind == "text/plain":
            return part
        if kind == "text/html" and html_part is None:
            html_part = part
    return html_part


def reply_lines(text: str) -> list[str]:
    """The first non-empty lines, up to the first empty line, the quoted original ("> ...",
    "On ... wrote:", a forwarded header block) or the signature ("-- ")."""
    found: list[str] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n", 4 * READ_LINES)
    for index, raw in enumerate(lines[:4 * READ_LINES]):
        if raw.rstrip("\n") in ("-- ", "--") or raw.strip() == "--":
            break
        line = " ".join(raw[:2000].split())
        if not line:
            if found:
                break
            continue
        following = lines[index + 1][:2000].strip() if index + 1 < len(lines) else ""
        if (line.startswith(">") or _wrote(line) or SEPARATORS.match(line)
                or HEADER_BLOCK.match(line) or (ON.match(line) and _wrote(following))):
            break
        found.append(line[:300])
        if len(found) >= READ_LINES:
            break
    return found


def _wrote(line: str) -> bool:
    """ "On ... wrote:" and its kin in other languages (the line that opens a quote)."""
    return line.lower().rstrip().endswith(WROTE)


BREAKS = {"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table"}
HIDDEN = {"style", "script", "head", "title"}
QUOTE_CLASSES = ("gmail_quote", "moz-cite-prefix", "yahoo_quoted", "protonmail_quote",
                 "divrplyfwdmsg", "appendonsend", "gmail_signature", "moz-signature")
TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)([^<>]*)>")   # stops at the next "<": linear
MARKS = re.compile(r"""\b(?:class|id)\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+)""", re.IGNORECASE)


def html_text(markup: str) -> str:
    """HTML to lines of text, up to the first quoted part (blockquote, a mail client's quote
    or reply header): what an HTML-only reply wrote above the original. One pass: each
    character is looked at a bounded number of times (html.parser, by contrast, scans to the
    end of the text again for each unclosed tag)."""
    parts: list[str] = []
    hidden = 0
    position = 0
    while position < len(markup):
        opening = markup.find("<", position)
        if opening < 0:
            opening = len(markup)
        if not hidden:
            parts.append(html.unescape(markup[position:opening]).replace("\n", " "))
        if opening == len(markup):
            break
        if markup.startswith("<!--", opening):
            closing = markup.find("-->", opening + 4)
            if closing < 0:
                break
            position = closing + 3
            continue
        tag = TAG.match(markup, opening)
        if tag is None:                        # a "<" that opens no tag: text
            if not hidden:
                parts.append("<")
            position = opening + 1
            continue
        position = tag.end()
        closing, name = tag.group(1) == "/", tag.group(2).lower()
        if not closing and (name == "blockquote" or any(
                mark in value.lower() for value in MARKS.findall(tag.group(3))
                for mark in QUOTE_CLASSES)):
            break
        if name in HIDDEN:
            hidden = max(0, hidden - 1) if closing else hidden + 1
        if name in BREAKS:
            parts.append("\n")
    return "".join(parts)


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

def imap_connection(settings) -> imaplib.IMAP4:
    """Logged in to PBEM_IMAP_HOST (IMAPS unless PBEM_IMAP_TLS=false), the folder selected."""
    host, port = settings["IMAP_HOST"], int(settings["IMAP_PORT"])
    timeout = settings.get("MAIL_TIMEOUT", 20)
    if settings.get("IMAP_TLS", True):
        connection = imaplib.IMAP4_SSL(host, port, ssl_context=ssl.create_default_context(),
                                       timeout=timeout)
    else:
        connection = imaplib.IMAP4(host, port, timeout=timeout)
    try:
        connection.login(settings["IMAP_USER"] or "", settings["IMAP_PASSWORD"] or "")
        status, answer = connection.select(_quoted(settings["IMAP_FOLDER"] or "INBOX"))
        if status != "OK":
            raise imaplib.IMAP4.error(f"cannot open the folder {settings['IMAP_FOLDER']!r}: "
                                      f"{answer!r}")
    except BaseException:
        try:
            connection.logout()
        except (OSError, imaplib.IMAP4.error):
            pass
        raise
    return connection


def _quoted(folder: str) -> str:
    return '"' + folder.replace("\\", "\\\\").replace('"', '\\"') + '"'


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
    connection = imap_connection(config)
    try:
        status, data = connection.uid("SEARCH", None, "UNDELETED", "UNFLAGGED")
        uids = (data[0] or b"").split() if status == "OK" and data else []
        done = config.get("IMAP_DONE_FOLDER") or ""
        for uid in uids[:limit]:
            if counts and time.monotonic() - started > budget:
                counts["left for the next pass"] = len(uids[:limit]) - sum(counts.values())
                break
            outcome = _fetch_one(connection, uid, config["MAX_MAIL_SIZE"])
            word = outcome.split(":")[0]
            counts[word] = counts.get(word, 0) + 1
            connection.uid("STORE", uid, "+FLAGS", r"(\Flagged \Seen)")
            if done and connection.uid("COPY", uid, _quoted(done))[0] != "OK":
                log.warning("replies: cannot copy to %r; the message is deleted", done)
            connection.uid("STORE", uid, "+FLAGS", r"(\Deleted)")
        if uids:
            connection.expunge()
    finally:
        try:
            connection.logout()
        except (OSError, imaplib.IMAP4.error):
            pass
    return counts


def _fetch_one(connection, uid: bytes, limit: int) -> str:
    status, data = connection.uid("FETCH", uid, "(RFC822.SIZE)")
    size = re.search(rb"RFC822\.SIZE (\d+)", data[0] or b"") if status == "OK" and data else None
    if size is None or int(size.group(1)) > limit:
        return f"refused: larger than PBEM_MAX_MAIL_SIZE ({limit} bytes)"
    status, data = connection.uid("FETCH", uid, "(BODY.PEEK[])")
    raw = next((item[1] for item in data or [] if isinstance(item, tuple)), None)
    if status != "OK" or raw is None:
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
    except imaplib.IMAP4.error as exc:
        return found + [Finding("problem", f"the IMAP server {where} refuses the login or the "
                                           f"folder: {exc}")]
    except (OSError, ssl.SSLError) as exc:
        return found + [Finding("problem", f"the IMAP server {where} cannot be reached: "
                                           f"{type(exc).__name__}: {exc}")]
    return found + [Finding("ok", f"the IMAP mailbox {settings['IMAP_USER']}@{where} "
                                  f"({settings['IMAP_FOLDER']}) opens")]
