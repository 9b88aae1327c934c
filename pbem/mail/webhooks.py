"""Delivering chat posts (outbox rows of kind "webhook", pbem/play/webhooks.py) over HTTPS.

The body is JSON with "text" and "content" holding the same sentence: Slack, Mattermost,
Rocket.Chat and Matrix hookshot read "text", Discord reads "content", ntfy-style receivers take
the body as it is. The host's address is resolved and checked again before each post (a name
may point elsewhere since it was set), and the connection goes to the address that was checked
(no second lookup between the check and the connection). Redirects are never followed: a 3xx is
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
import io
import json
import socket
import ssl
import time
from urllib.parse import urlsplit

from flask import current_app

from ..db.models import Outbox
from ..play import webhooks

USER_AGENT = "pbem-webhook/1"
RETRYABLE = {408, 425, 429}   # answers that ask to try again later
KIND = webhooks.KIND


class PostFailed(Exception):
    """The receiver did not take the post; `permanent` when trying again cannot help."""

    def __init__(self, message: str, permanent: bool):
        super().__init__(message)
        self.permanent = permanent


class Deadline:
    """A moment on the monotonic clock, `seconds` from now."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.at = time.monotonic() + seconds

    def left(self) -> float:
        """The seconds left; TimeoutError once there are none."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"past the deadline of {self.seconds:g} s")
        return left


class _TimedSocket:
    """A connection's socket whose every operation may wait only the time left before the
    post's deadline (a socket's own timeout counts each read afresh). It offers what
    http.client uses of a socket: sendall, makefile and close; like a socket, it closes only
    once the answer's reader is closed too (http.client closes the connection before it reads
    the body of an answer that ends the connection)."""

    def __init__(self, sock: socket.socket, deadline: Deadline):
        self._sock, self._deadline = sock, deadline
        self._readers, self._closed = 0, False

    def sendall(self, data) -> None:
        view = memoryview(data).cast("B")
        while view:
            self._sock.settimeout(self._deadline.left())
            view = view[self._sock.send(view):]

    def makefile(self, mode: str = "rb", *args, **kwargs) -> io.BufferedReader:
        self._readers += 1
        return io.BufferedReader(_TimedReader(self))

    def readinto(self, buffer) -> int:
        self._sock.settimeout(self._deadline.left())
        return self._sock.recv_into(buffer)

    def reader_closed(self) -> None:
        self._readers -= 1
        if self._closed and not self._readers:
            self._sock.close()

    def close(self) -> None:
        self._closed = True
        if not self._readers:
            self._sock.close()


class _TimedReader(io.RawIOBase):
    """The answer as http.client reads it, each read waiting only the time left."""

    def __init__(self, sock: _TimedSocket):
        super().__init__()
        self._sock = sock

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        return self._sock.readinto(buffer)

    def close(self) -> None:
        if not self.closed:
            self._sock.reader_closed()
        super().close()


class _PinnedConnection(http.client.HTTPConnection):
    """HTTP to `host` over a socket to `address`, the one checked (no second lookup); with
    `tls` (https) the socket is wrapped for `host`: SNI, and its certificate checked against
    that name by the context. Plain HTTP only passes check_url with PBEM_WEBHOOK_ALLOW_PRIVATE.
    Connecting, the handshake and every read and write end by `deadline`."""

    def __init__(self, host: str, port: int, address: str, tls: ssl.SSLContext | None,
                 deadline: Deadline):
        super().__init__(host, port)
        self._address, self._tls, self._deadline = address, tls, deadline

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self._deadline.left())
        try:
            if self._tls is not None:
                sock.settimeout(self._deadline.left())      # the whole handshake (CPython's
                sock = self._tls.wrap_socket(sock, server_hostname=self.host)  # ssl: one deadline)
        except BaseException:
            sock.close()
            raise
        self.sock = _TimedSocket(sock, self._deadline)


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
    connection = _PinnedConnection(parts.hostname, port, address,
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
