"""Delivering chat posts (outbox rows of kind "webhook", pbem/play/webhooks.py) over HTTPS.

The body is JSON with "text" and "content" holding the same sentence: Slack, Mattermost,
Rocket.Chat and Matrix hookshot read "text", Discord reads "content", ntfy-style receivers take
the body as it is. The host's address is resolved and checked again before each post (a name
may point elsewhere since it was set), and the connection goes to the address that was checked
(pbem/outbound.py: no second lookup between the check and the connection). Redirects are never followed: a 3xx is
a failure like any other answer outside 2xx.

A post has a deadline on the wall clock (PBEM_WEBHOOK_TIMEOUT) for connecting, the TLS
handshake, sending and the whole answer together: each socket operation waits only the time
left, so a receiver that trickles its answer a byte at a time is cut off at the deadline like
one that says nothing. (The host name's lookup before it is the system resolver's, with its own
timeout.)

Failures follow the outbox's rules (pbem/mail/mailer.py): a refused URL, a 4xx other than 408
and 429, or a redirect fails for good and shows on the host page; anything else (a host name
that does not resolve now among them) is retried with backoff.
"""
from __future__ import annotations

import http.client
import json
import ssl
from urllib.parse import urlsplit

from flask import current_app

from ..db.models import Outbox
from ..outbound import Deadline, PinnedConnection
from ..play import webhooks

USER_AGENT = "pbem-webhook/1"
RETRYABLE = {408, 425, 429}   # answers that ask to try again later
KIND = webhooks.KIND


class PostFailed(Exception):
    """The receiver did not take the post; `permanent` when trying again cannot help."""

    def __init__(self, message: str, permanent: bool):
        super().__init__(message)
        self.permanent = permanent


def body(sentence: str) -> bytes:
    return json.dumps({"text": sentence, "content": sentence}, ensure_ascii=False).encode()


def timeout() -> float:
    """The seconds a post may take in all (PBEM_WEBHOOK_TIMEOUT)."""
    return float(current_app.config["WEBHOOK_TIMEOUT"])


def deliver(row: Outbox) -> int:
    """Post the row's sentence to its URL, within timeout(); the HTTP status, or PostFailed."""
    try:
        parts = urlsplit(webhooks.check_url(row.recipient, resolve=False))
        https = parts.scheme.lower() == "https"
        port = parts.port or (443 if https else 80)
        address = webhooks.addresses(parts.hostname, port)[0]      # the one lookup
    except webhooks.Unresolved as exc:          # DNS may be back later: retried with backoff
        raise PostFailed(str(exc), permanent=False) from None
    except webhooks.WebhookError as exc:
        raise PostFailed(str(exc), permanent=True) from None
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    deadline = Deadline(timeout())
    connection = PinnedConnection(parts.hostname, port, address,
                                   tls=_context() if https else None, deadline=deadline)
    response = None
    try:
        connection.request("POST", path, body=body(row.body_text), headers={
            "Content-Type": "application/json; charset=utf-8", "User-Agent": USER_AGENT,
            "Host": parts.netloc})
        response = connection.getresponse()
        response.read(64 * 1024)
        status = response.status
    except TimeoutError:                    # the deadline, or a socket timeout set to it
        raise PostFailed(f"the receiver did not answer within {deadline.seconds:g} s",
                         permanent=False) from None
    except (OSError, http.client.HTTPException) as exc:
        raise PostFailed(f"{type(exc).__name__}: {exc}", permanent=False) from None
    finally:
        if response is not None:
            response.close()
        connection.close()
    if 200 <= status < 300:
        return status
    permanent = 300 <= status < 500 and status not in RETRYABLE
    raise PostFailed(f"the receiver answered {status}"
                     + (" (redirects are not followed)" if 300 <= status < 400 else ""),
                     permanent=permanent)


def _context() -> ssl.SSLContext:
    """Certificates checked against the system's store."""
    return ssl.create_default_context()
