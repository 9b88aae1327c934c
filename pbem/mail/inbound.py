"""Replies in: one RFC 5322 message (from an MTA's pipe, or fetched from an IMAP mailbox)
read into a `replies.Reply`, which pbem/play/replies.py plays or answers.

Parsing is the standard `email` package's; what a reply says is its first lines above the
quoted original and the signature, in one pass over the text (linear in its size). The IMAP
client is the standard `imaplib`: a handled message is flagged, then moved or deleted, so that
it is never read twice (and a message read twice all the same is applied once: its Message-ID).
"""
from __future__ import annotations

import hashlib
import imaplib
import logging
import re
import ssl
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

from flask import current_app

from ..play import replies

log = logging.getLogger(__name__)

ADDRESS_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "To", "Cc")
AUTOMATIC_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress")
ROBOTS = ("mailer-daemon", "postmaster")
WROTE = ("wrote:", "írta:", "schrieb:", "a écrit :", "a écrit:", "scrisse:", "escribió:")
ON = re.compile(r"^on\s", re.IGNORECASE)
SEPARATORS = re.compile(r"^(-{2,}\s*(original message|eredeti üzenet|forwarded message)"
                        r"\s*-{2,}|_{10,}|-{10,})\s*$", re.IGNORECASE)
HEADER_BLOCK = re.compile(r"^(from|feladó|von|de)\s*:\s", re.IGNORECASE)
AUTH_PASS = re.compile(r"\b(dkim|spf)\s*=\s*pass\b", re.IGNORECASE)
AUTH_DOMAIN = re.compile(r"\b(header\.d|header\.i|smtp\.mailfrom|smtp\.helo)\s*=\s*([^\s;]+)",
                         re.IGNORECASE)
READ_LINES = replies.MAX_LINES + 1


class Malformed(ValueError):
    """A message the `email` package cannot make sense of."""


# -- reading one message ------------------------------------------------------------------------------

def parse(raw: bytes, recipients=(), envelope_sender: str | None = None) -> replies.Reply:
    """The reply in `raw`; `recipients` and `envelope_sender` as the MTA gave them (a pipe's
    ${recipient} and ${sender}), else the message's own headers say."""
    try:
        message = message_from_bytes(raw, policy=policy.default)
        sender = parseaddr(str(message.get("From", "")))[1]
        addresses = list(recipients)
        for name in ADDRESS_HEADERS:
            addresses += [a for _n, a in getaddresses([str(h) for h in
                                                      message.get_all(name, [])])]
        reply_ids = list(dict.fromkeys(r for r in map(replies.id_in, addresses) if r))
        key = str(message.get("Message-ID", "")).strip() or hashlib.sha256(raw).hexdigest()
        automatic = why_automatic(message, sender, envelope_sender)
        authenticated = is_authenticated(message, sender)
        lines = [] if automatic else reply_lines(text_of(message))
    except Malformed:
        raise
    except Exception as exc:  # noqa: BLE001 - any defect the parser trips on is "malformed"
        raise Malformed(f"{type(exc).__name__}: {exc}") from None
    return replies.Reply(key=key[:998], sender=sender, reply_ids=reply_ids, lines=lines,
                         automatic=automatic, authenticated=authenticated)


def why_automatic(message: EmailMessage, sender: str, envelope_sender: str | None) -> str:
    """Why a message is an auto-reply or a bounce (RFC 3834: never answer those), or ""."""
    auto = str(message.get("Auto-Submitted", "")).split(";")[0].strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = str(message.get("Precedence", "")).strip().lower()
    if precedence in ("bulk", "junk", "list"):
        return f"Precedence: {precedence}"
    if envelope_sender is not None and envelope_sender.strip() in ("", "<>"):
        return "an empty envelope sender (a bounce)"
    if "Return-Path" in message and not parseaddr(str(message["Return-Path"]))[1]:
        return "an empty Return-Path (a bounce)"
    for who in (sender, parseaddr(str(message.get("Sender", "")))[1], envelope_sender or ""):
        if who.partition("@")[0].lower() in ROBOTS:
            return f"sent by {who}"
    if message.get_content_type() == "multipart/report":
        return "a delivery report"
    for name in AUTOMATIC_HEADERS:
        if name in message:
            return f"{name} (an auto-reply)"
    return ""


def is_authenticated(message: EmailMessage, sender: str) -> bool:
    """With PBEM_REPLY_TRUSTED_AUTHSERV set: an Authentication-Results header of that
    authserv-id saying dkim=pass or spf=pass for the From address's own domain."""
    trusted = (current_app.config.get("REPLY_TRUSTED_AUTHSERV") or "").strip().lower()
    if not trusted:
        return True
    domain = sender.rpartition("@")[2].lower()
    for header in message.get_all("Authentication-Results", []):
        authserv, _sep, results = str(header).partition(";")
        if not authserv.split() or authserv.split()[0].lower() != trusted:
            continue
        for result in results.split(";"):
            if not AUTH_PASS.search(result):
                continue
            domains = [d.rpartition("@")[2].lower().strip('"') for _k, d in
                       AUTH_DOMAIN.findall(result)]
            if domain and domain in domains:
                return True
    return False


def text_of(message: EmailMessage) -> str:
    """The reply's text: its text/plain part, else its HTML read as text."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        content = part.get_content()
    except (LookupError, ValueError):           # an unknown charset: read it as UTF-8
        content = (part.get_payload(decode=True) or b"").decode("utf-8", "replace")
    if not isinstance(content, str):
        return ""
    return html_text(content) if part.get_content_type() == "text/html" else content


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


class _Text(HTMLParser):
    """HTML to lines of text, up to the first quoted part (blockquote, a mail client's quote
    or reply header): what an HTML-only reply wrote above the original."""

    BREAKS = {"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table"}
    QUOTE_CLASSES = ("gmail_quote", "moz-cite-prefix", "yahoo_quoted", "protonmail_quote",
                     "divrplyfwdmsg", "appendonsend", "gmail_signature", "moz-signature")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.done = False

    def handle_starttag(self, tag, attrs):
        if self.done:
            return
        marks = " ".join(str(v).lower() for k, v in attrs if k in ("class", "id") and v)
        if tag == "blockquote" or any(c in marks for c in self.QUOTE_CLASSES):
            self.done = True
            return
        if tag in ("style", "script", "head", "title"):
            self.skip += 1
        if tag in self.BREAKS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("style", "script", "head", "title") and self.skip:
            self.skip -= 1
        if tag in self.BREAKS:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.done and not self.skip:
            self.parts.append(data.replace("\n", " "))


def html_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


def receive(raw: bytes, recipients=(), envelope_sender: str | None = None) -> str:
    """Handle one message; the outcome in a few words (played, answered, duplicate, ignored:
    why, refused: why). Only a database failure raises: the MTA delivers it again."""
    limit = current_app.config["MAX_MAIL_SIZE"]
    if len(raw) > limit:
        return f"refused: larger than PBEM_MAX_MAIL_SIZE ({limit} bytes)"
    if not replies.enabled():
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


def fetch(limit: int = 50) -> dict:
    """Handle the messages of the IMAP folder that are neither flagged nor deleted: each is
    flagged as soon as it is handled, then moved to PBEM_IMAP_DONE_FOLDER or deleted. Counts
    per outcome. A database failure stops the pass with the message left for the next one."""
    config = current_app.config
    counts: dict[str, int] = {}
    connection = imap_connection(config)
    try:
        status, data = connection.uid("SEARCH", None, "UNDELETED", "UNFLAGGED")
        uids = (data[0] or b"").split() if status == "OK" and data else []
        done = config.get("IMAP_DONE_FOLDER") or ""
        for uid in uids[:limit]:
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
    if len(address.partition("@")[0]) + 1 + replies.ID_LENGTH > 64:
        return [Finding("problem", f"PBEM_REPLY_ADDRESS={address!r}: its local part leaves no "
                                   f"room for +<id> ({replies.ID_LENGTH} characters) within 64")]
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
