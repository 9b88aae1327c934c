"""What a mail keeps once sent: no body (it went out whole) and no usable link (its context
loses its tokens)."""
from __future__ import annotations

from urllib.parse import urlsplit

from ..db.models import Outbox

REDACTED = "redacted"


def _redact_context(value, key: str = ""):
    if isinstance(value, dict):
        return {name: _redact_context(item, str(name)) for name, item in value.items()}
    if isinstance(value, list):
        return [_redact_context(item, key) for item in value]
    if isinstance(value, str) and ("token" in key or "link" in key):
        return REDACTED if value else value
    return value


def redacted(row: Outbox) -> dict:
    """The fields a sent row keeps: what the host page and the operator need (recipient, kind,
    subject, Message-ID, times, state, the template and its context without any usable
    credential), not its bodies: the mail itself went out whole, and rendered bodies were
    most of a database (27 KB of HTML a Tigris turn mail). A sent mail is shown again, when it
    must be, from its template and context."""
    kept = {"body_text": "", "body_html": "",
            "context": _redact_context(row.context) if row.context is not None else None}
    if row.kind == "webhook":           # a webhook's URL is a credential too: its host stays
        parts = urlsplit(row.recipient)
        kept["recipient"] = f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}/…"
    return kept
