"""Public pages answered "304 Not Modified" without rendering them again: a finished game's
page and any step of the spectators' replay depend only on what their validator names (the
game's moves, status, title and seats' names, the step, the reader's language, this process's
templates). The browser keeps the page and asks each time (`no-cache`); an unchanged game costs
one small query instead of a replay and a render. A seat's own pages (its turn, with its
holdings) are answered the same way, `private` (pbem/web/pagecache.py)."""
from __future__ import annotations

import hashlib
import json
import secrets

from flask import Response, request

from .. import __version__
from ..games.base import current_language
from ..log import store

PROCESS = secrets.token_hex(8)      # a new process may bring new templates: new validators


def digest(*parts) -> str:
    """A weak ETag from what an answer depends on, with this release, this process and the
    reader's language (weak: the same page compressed or not)."""
    key = json.dumps([__version__, PROCESS, current_language(), *parts], default=str,
                     sort_keys=True)
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def validator(game, *parts) -> str:
    """A weak ETag for a public page of `game`."""
    return digest(game.id, game.seq, game.status, game.title, store.names_of(game), request.path,
                  *parts)


def not_modified(etag: str, private: bool = False) -> Response | None:
    """The 304 answer when the browser's copy is current, else None (render the page)."""
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
        return tagged(response, etag, private)
    return None


def tagged(response, etag: str, private: bool = False):
    """`private`: a page with a seat's holdings, which no shared cache may keep."""
    response.set_etag(etag, weak=True)
    # keep it, but ask each time
    response.headers["Cache-Control"] = "private, no-cache" if private else "no-cache"
    return response
