"""The outbox: what to send, written in the same transaction as the change that causes it.

A row names its recipient, its template and the template's context (JSON: a link's token, the
move it was asked at, the messages it carries), never a rendered body: building a mail (the
templates, the board picture) happens outside the game's lock. When the outermost transaction
of a use case commits, the rows it queued are handed to the renderer that the mail layer
registers (`set_renderer`); whatever is not rendered then (a crash, no renderer) the mail
worker renders before sending. Nothing is mailed from a change that did not commit.
"""
from __future__ import annotations

import secrets
from contextlib import contextmanager
from contextvars import ContextVar
from urllib.parse import urlsplit

from flask import current_app

from ..db.database import write_transaction
from ..db.models import Game, Outbox, db, utcnow
from ..db.prepared import create_whole
from . import optout

_queued: ContextVar[list | None] = ContextVar("pbem_outbox_queued", default=None)
RENDERER = "pbem.outbox.renderer"


def set_renderer(app, render) -> None:
    """`render(ids)` is called with the ids of the rows a use case queued, once it commits."""
    app.extensions[RENDERER] = render


@contextmanager
def transaction():
    """A use case's write transaction; the mails it queued are rendered once the outermost one
    commits (a nested call joins the caller's transaction and its mails)."""
    if _queued.get() is not None:
        with write_transaction():
            yield
        return
    queued: list[int] = []
    token = _queued.set(queued)
    try:
        with write_transaction():
            yield
    finally:
        _queued.reset(token)
    if queued:
        _hand_over(queued)


def _hand_over(ids: list[int]) -> None:
    """Give committed rows to the renderer; whatever goes wrong there, the change stands and
    the worker renders the rows before sending them."""
    render = current_app.extensions.get(RENDERER)
    if render is None:
        return
    try:
        render(list(ids))
    except Exception:  # noqa: BLE001 - committed already: the worker renders them later
        current_app.logger.exception("rendering mails %s after the commit failed", ids)


def queue(game: Game | None, seat_index: int | None, kind: str, recipient: str,
          template: str, language: str, subject: str = "", **context) -> Outbox | None:
    """One mail to send: `template` (emails/<template>.txt and .html) with `context`, in the
    recipient's `language`. Nothing for an address that opted out."""
    if not recipient or optout.is_opted_out(recipient):
        return None
    row = create_whole(     # Outbox.create, its SQL built once: every move queues mail
        Outbox, message_id=message_id(game, kind, seat_index), game=game, seat=seat_index,
        kind=kind, recipient=recipient, subject=(subject or default_subject(game))[:300],
        template=template, context=context, language=language, rendered=False)
    queued = _queued.get()
    if queued is not None:
        queued.append(row.id)
    elif not db.in_transaction():        # queued outside any use case: render at once
        _hand_over([row.id])
    return row


def default_subject(game: Game | None) -> str:
    """The subject until the mail is rendered (the renderer writes it in the recipient's
    language, with the game's name translated)."""
    return f"[pbem] {game.title}" if game is not None else "[pbem]"


def domain() -> str:
    return urlsplit(current_app.config["BASE_URL"]).hostname or "localhost"


def thread_root(game: Game, seat: int | None, domain_name: str | None = None) -> str:
    """The Message-ID of a game's first mail to a seat (its invitation; the host's page mail
    for seat None): made from the game alone, so that no column keeps it."""
    who = "host" if seat is None else f"seat{seat}"
    return f"<pbem.{game.id}.{who}.{game.created_at:%Y%m%d%H%M%S}@{domain_name or domain()}>"


def message_id(game: Game | None, kind: str, seat_index: int | None = None) -> str:
    name = domain()
    if game is not None and kind in ("invite", "host"):
        # the first mail of a game to someone: the one every later mail refers to
        root = thread_root(game, seat_index, name)
        if not Outbox.select().where(Outbox.message_id == root).exists():
            return root
    game_part = game.id if game is not None else 0
    return f"<pbem.{game_part}.{kind}.{secrets.token_hex(12)}@{name}>"


def retry(mail_ids, game: Game | None = None) -> int:
    """Queue mails not sent yet (failed for good, or waiting for a later try) to be sent at
    once, after the host or the operator fixed what failed; only `game`'s when given; the
    count. The attempts start afresh: a retried mail gets the whole backoff again, rather
    than failing for good at its next refusal."""
    ids = list(mail_ids)
    if not ids:
        return 0
    query = Outbox.id.in_(ids) & Outbox.sent_at.is_null()
    if game is not None:
        query &= Outbox.game == game
    with write_transaction():
        return (Outbox.update(failed_at=None, next_try_at=utcnow(), claimed_until=None,
                              attempts=0).where(query).execute())
