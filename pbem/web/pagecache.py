"""A seat's turn page and its JSON twin, answered again without rendering while nothing they
depend on has moved.

Their validator (a weak ETag) is a digest of everything the answer is read from, never of the
answer itself: what pbem/present/freshness.py reads (the game's row, the seats', the
link's, the table talk, the seats' addresses' settings, days away and opt-outs, the minute),
the reader's language, the request's path and query, and the release and this process (new
templates). A browser that sends it back gets 304; the same validator in this worker's cache
gets the answer rendered before. A move changes the seq, a link spent or replaced changes the
link's row: a validator never outlives what it names. The link's row is in it, so one seat's
page is never another's. Pages with holdings stay out of shared caches (`private`)."""
from __future__ import annotations

import threading
from collections import OrderedDict

from flask import Response, current_app, make_response, request

from ..present import freshness
from . import conditional

ENTRIES = 200                   # rendered answers kept per worker ...
BYTES = 16 * 1024 * 1024        # ... and at most this many bytes of them
EXTENSION = "pbem.pages"


def seat_validator(game, link, seats) -> str:
    """The ETag of `link`'s seat's answer to this request: four small queries, and a digest
    of about the state's size (well under a millisecond)."""
    return conditional.digest(*freshness.marks(game, link, seats), request.full_path)


class Rendered:
    """The answers rendered last in this worker, by validator (least recently used first)."""

    def __init__(self, entries: int = ENTRIES, size: int = BYTES):
        self.entries, self.size = entries, size
        self.kept: OrderedDict[str, tuple[bytes, str]] = OrderedDict()
        self.bytes = 0
        self.lock = threading.Lock()        # gunicorn's threads share a worker's cache

    def get(self, etag: str) -> tuple[bytes, str] | None:
        with self.lock:
            found = self.kept.get(etag)
            if found is not None:
                self.kept.move_to_end(etag)
            return found

    def put(self, etag: str, body: bytes, mimetype: str) -> None:
        if len(body) > self.size // 4:
            return
        with self.lock:
            if etag in self.kept:
                return
            self.kept[etag] = (body, mimetype)
            self.bytes += len(body)
            while len(self.kept) > self.entries or self.bytes > self.size:
                _etag, (old, _kind) = self.kept.popitem(last=False)
                self.bytes -= len(old)


def rendered() -> Rendered:
    """This app's cache in this worker."""
    return current_app.extensions.setdefault(EXTENSION, Rendered())


def answer(etag: str, render) -> Response:
    """304 when the client holds `etag`; else the answer kept under it, or `render()`'s (a
    view's return value), kept when it is a 200."""
    unchanged = conditional.not_modified(etag, private=True)
    if unchanged is not None:
        return unchanged
    kept = rendered().get(etag)
    if kept is not None:
        body, mimetype = kept
        return conditional.tagged(Response(body, status=200, mimetype=mimetype), etag, True)
    response = make_response(render())
    if response.status_code == 200 and not response.direct_passthrough:
        rendered().put(etag, response.get_data(), response.mimetype)
    return conditional.tagged(response, etag, private=True)

