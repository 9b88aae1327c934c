"""Redaction: a mail once sent keeps no usable link (its bodies and context lose their
secrets)."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

from flask import current_app

from ..db.models import Outbox


REDACTED = "redacted"
# a path segment that can carry a credential: the signed tokens of every link (itsdangerous:
# base64url and dots), never a game's number or a route's name
_SECRET_SEGMENT = re.compile(r"[A-Za-z0-9_\-.~=]{16,}")
_URL_TAIL = re.compile(r"/[^\s\"'<>()\[\]]*")


def _redact_paths(text: str, base: str) -> str:
    """Every path under `base` in `text` without the segments that could be a credential."""
    if not text or not base:
        return text or ""
    out, at = [], 0
    while True:
        found = text.find(base, at)
        if found < 0:
            out.append(text[at:])
            return "".join(out)
        tail = _URL_TAIL.match(text, found + len(base))
        end = tail.end() if tail else found + len(base)
        path = tail.group(0) if tail else ""
        out.append(text[at:found + len(base)])
        out.append("/".join(REDACTED if _SECRET_SEGMENT.fullmatch(part) and not part.isdigit()
                            else part for part in path.split("/")))
        at = end


def _secrets_in(value, key: str = "") -> set[str]:
    """The credentials a row's context carries: the value of every key naming a token or a
    link (the digest's entries too)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for name, item in value.items():
            found |= _secrets_in(item, str(name))
    elif isinstance(value, list):
        for item in value:
            found |= _secrets_in(item, key)
    elif isinstance(value, str) and ("token" in key or "link" in key) and value:
        found.add(value)
        found.update(part for part in value.split("/") if _SECRET_SEGMENT.fullmatch(part))
    return found


def _redact_context(value, key: str = ""):
    if isinstance(value, dict):
        return {name: _redact_context(item, str(name)) for name, item in value.items()}
    if isinstance(value, list):
        return [_redact_context(item, key) for item in value]
    if isinstance(value, str) and ("token" in key or "link" in key):
        return REDACTED if value else value
    return value


def redact(text: str, secrets_: set[str] | None = None) -> str:
    """`text` with every link under PBEM_BASE_URL cut to its route, and every known secret
    (a row's tokens) replaced."""
    text = _redact_paths(text or "", current_app.config["BASE_URL"].rstrip("/"))
    for secret in sorted(secrets_ or (), key=len, reverse=True):
        if len(secret) >= 16:
            text = text.replace(secret, REDACTED)
    return text


def redacted(row: Outbox) -> dict:
    """The fields a sent row keeps: its bodies and context without any usable credential
    (the mail itself went out whole). The host page and `pbem mail` still show its recipient,
    subject and state."""
    found = _secrets_in(row.context or {})
    kept = {"body_text": redact(row.body_text, found), "body_html": redact(row.body_html, found),
            "context": _redact_context(row.context) if row.context is not None else None}
    if row.kind == "webhook":           # a webhook's URL is a credential too: its host stays
        parts = urlsplit(row.recipient)
        kept["recipient"] = f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}/…"
    return kept
