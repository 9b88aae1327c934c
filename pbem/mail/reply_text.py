"""What a reply says, read as a person reads it on screen, from any common mail client.

1. The text part (`text_of`): the first text/plain part, else the first text/html one, at most
   TEXT_LIMIT characters. Plain text sent as format=flowed (Thunderbird, K-9, FairEmail) has
   its soft line breaks joined (RFC 3676), so a long `say:` line stays one line. HTML
   (Outlook, Apple Mail, Gmail's app) becomes lines as a reader sees them (`html_text`): each
   block element (`<div>`, `<p>`...) one line, `<br>` a line break, and an empty line only where
   the reader sees one (`<div><br></div>`, `<p>&nbsp;</p>`), never between two blocks.
2. The new part of the answer (`reply_lines`): mail-parser-reply finds where the quoted
   original begins ("On ... wrote:" and Outlook's header block in a dozen languages, "-----
   Original Message -----") and the signatures and phone footers ("Sent from my iPhone", "Get
   Outlook for iOS"); pbem adds the Hungarian forms and the footers the library does not know.
3. pbem's own rule on top: only the lines above the first empty line (or a quote, a signature,
   a footer) are read, at most READ_LINES of them, each at most LINE_LIMIT characters.

Every step is bounded: the library sees at most READ_LINES * 4 lines of at most LINE_LIMIT
characters each, so reading any message takes time linear in its size.
"""
from __future__ import annotations

import html
import re
from email import message_from_bytes, policy
from email.message import Message

from mailparser_reply.constants import MAIL_LANGUAGES
from mailparser_reply.parser import EmailMessage

from ..play import replies


class Malformed(ValueError):
    """A message that cannot be read within bounds, or that the `email` package cannot make
    sense of (its reason in a few words)."""


TEXT_LIMIT = 16 * 1024        # characters of the reply's text part read
MAX_MULTIPARTS = 10           # multipart parts (nested or not) in what the MIME parser reads
READ_LINES = replies.MAX_LINES + 1
LINE_LIMIT = 300              # characters of one line kept (the longest say: line fits)
SCANNED_LINES = 4 * READ_LINES
# The quote headers, separators and footers of the languages the library does not know
# (Hungarian) and those it misses in every language, each matched on a whole line.
WROTE = ("wrote:", "írta:", "schrieb:", "a écrit :", "a écrit:", "scrisse:", "escribió:")
ON = re.compile(r"^(on|dátum:)\s", re.IGNORECASE)
SEPARATORS = re.compile(r"^(-{2,}\s*(original message|eredeti üzenet|forwarded message|"
                        r"továbbított üzenet)\s*-*|_{5,})$", re.IGNORECASE)
HEADER_BLOCK = re.compile(r"^\*?(from|feladó|von|de|küldő)\s*:\*?\s", re.IGNORECASE)
FOOTERS = re.compile(
    r"^(sent from (my )?\S.{0,40}|sent with \S.{0,40}|get outlook for \S.{0,20}"
    r"|sent from outlook( for \S.{0,20})?|sent from mail for windows.{0,20}"
    r"|sent from yahoo mail.{0,40}|envoyé de mon \S.{0,30}|von meinem \S.{0,30} gesendet"
    r"|(az )?iphone-?(om)?ról küldve|(az )?ipad-?(em)?ről küldve|\S.{0,30} küldve"
    r"|küldve (az )?\S.{0,30}|(az )?outlook .{0,20}beszerzése|\S.{0,30} készülékről küldve)"
    r"[.!]?$", re.IGNORECASE)
LANGUAGES = sorted(set(MAIL_LANGUAGES) - {"david"})      # "david": the library's test entry


# -- the text part --------------------------------------------------------------------------------

def text_of(content_type: str, transfer_encoding: str, body: bytes) -> str:
    """The reply's text (its header's Content-Type and Content-Transfer-Encoding, its body):
    its first text/plain part, else its first text/html part read as text (attachments and
    attached messages left out), at most TEXT_LIMIT characters."""
    top = (f"Content-Type: {content_type or 'text/plain'}\r\n"
           f"Content-Transfer-Encoding: {transfer_encoding or '7bit'}"
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
        flowed = (part.get_param("format") or "").lower() == "flowed"
        delsp = (part.get_param("delsp") or "").lower() == "yes"
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
    if part.get_content_type() == "text/html":
        return html_text(text)
    return unflowed(text, delsp) if flowed else text


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


def unflowed(text: str, delsp: bool = False) -> str:
    """format=flowed (RFC 3676) as the writer wrote it: a line ending in a space goes on in the
    next line of the same quote depth (with DelSp=yes that space is the writer's break, not
    theirs); space-stuffing undone; the signature line "-- " never flows."""
    out: list[str] = []
    flowing = False
    for line in text.replace("\r\n", "\n").split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        if body.startswith(" "):
            body = body[1:]                                   # space-stuffed
        soft = body.endswith(" ") and body != "-- "
        if soft and delsp:
            body = body[:-1]
        if flowing and out and out[-1][0] == depth:
            out[-1] = (depth, out[-1][1] + body)
        else:
            out.append((depth, body))
        flowing = soft
    return "\n".join(">" * depth + (" " if depth and body else "") + body for depth, body in out)


# -- HTML as a reader sees it ----------------------------------------------------------------------

BLOCKS = {"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol",
          "section", "article", "header", "footer", "pre", "center", "dl", "dt", "dd"}
HIDDEN = {"style", "script", "head", "title"}
QUOTE_CLASSES = ("gmail_quote", "moz-cite-prefix", "yahoo_quoted", "protonmail_quote",
                 "divrplyfwdmsg", "appendonsend", "gmail_signature", "moz-signature",
                 "applemailsignature", "ms-outlook-mobile-signature", "x_signature")
TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:]*)([^<>]*)>")   # stops at the next "<": linear
MARKS = re.compile(r"""\b(?:class|id)\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+)""", re.IGNORECASE)
NO_BREAK = "\xa0"


class _Lines:
    """The lines a reader sees: text gathers into the line under way; a block's edge ends a
    line that has text in it (so two blocks never leave an empty line between them), `<br>`
    ends it whatever it holds, and a block holding nothing but a no-break space (Outlook's
    `<p>&nbsp;</p>`) is an empty line."""

    def __init__(self):
        self.done: list[str] = []
        self.line: list[str] = []

    def text(self, text: str) -> None:
        self.line.append(text)

    def block_edge(self) -> None:
        line = "".join(self.line)
        if line.strip():
            self.done.append(line)
        elif NO_BREAK in line:
            self.done.append("")
        self.line = []

    def line_break(self) -> None:
        self.done.append("".join(self.line))
        self.line = []

    def result(self) -> str:
        self.block_edge()
        return "\n".join(self.done)


def html_text(markup: str) -> str:
    """HTML to lines of text, up to the first quoted part (blockquote, a mail client's quote,
    reply header or signature). One pass: each character is looked at a bounded number of
    times (html.parser, by contrast, scans to the end of the text again for each unclosed
    tag)."""
    lines = _Lines()
    hidden = 0
    position = 0
    while position < len(markup):
        opening = markup.find("<", position)
        if opening < 0:
            opening = len(markup)
        if not hidden:
            lines.text(html.unescape(markup[position:opening])
                       .replace("\n", " ").replace("\r", " ").replace("\t", " "))
        if opening == len(markup):
            break
        if markup.startswith("<!--", opening):
            closing = markup.find("-->", opening + 4)
            if closing < 0:
                break
            position = closing + 3
            continue
        if markup.startswith(("<!", "<?"), opening):     # <!DOCTYPE html>, <?xml ...?>
            closing = markup.find(">", opening + 2)
            if closing < 0:
                break
            position = closing + 1
            continue
        tag = TAG.match(markup, opening)
        if tag is None:                        # a "<" that opens no tag: text
            if not hidden:
                lines.text("<")
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
        elif name == "br":
            lines.line_break()
        elif name == "hr":
            break                              # Outlook's line above the quoted original
        elif name in BLOCKS:
            lines.block_edge()
    return lines.result()


# -- the new part of the answer ----------------------------------------------------------------------

def reply_lines(text: str) -> list[str]:
    """The first non-empty lines of the answer, up to the first empty line, the quoted
    original, a signature or a phone's footer; at most READ_LINES lines."""
    raw_lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n", SCANNED_LINES)
    lines = [" ".join(raw[:4 * LINE_LIMIT].split())[:LINE_LIMIT]
             for raw in raw_lines[:SCANNED_LINES]]
    lines = new_part(lines)
    found: list[str] = []
    for index, line in enumerate(lines):
        if not line:
            if found:
                break
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if ends_the_answer(line, following):
            break
        found.append(line)
        if len(found) >= READ_LINES:
            break
    return found


def new_part(lines: list[str]) -> list[str]:
    """The lines above what mail-parser-reply finds to be the quoted original, a signature or
    a phone's footer; none when the answer begins with the quoted original."""
    try:
        first = EmailMessage(text="\n".join(lines), languages=list(LANGUAGES),
                             keep_hyphen_lists=True).read().replies[0]
    except (IndexError, re.error, RecursionError):
        return lines
    if first.headers:               # the first part with words in it follows a quote's header
        return []
    return first.body.split("\n")


def ends_the_answer(line: str, following: str = "") -> bool:
    """A line where the answer ends: a signature, a quote, its header or a separator, or a
    mail client's footer (in English or Hungarian)."""
    return (line == "--" or line.startswith(">") or _wrote(line) or bool(SEPARATORS.match(line))
            or bool(HEADER_BLOCK.match(line)) or (bool(ON.match(line)) and _wrote(following))
            or bool(FOOTERS.match(line)))


def _wrote(line: str) -> bool:
    """ "On ... wrote:" and its kin in other languages (the line that opens a quote)."""
    return line.lower().rstrip().endswith(WROTE)
