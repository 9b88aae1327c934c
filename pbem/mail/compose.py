"""Outbox rows -> mails: the subject and both bodies, rendered outside the game's lock.

A row says what to send (pbem/play/outbox.py): its template, the recipient's language and a
context of plain values (a link's token, the move the mail was asked at, the range of messages
it carries). Rendering reads the game as it stood at that move, so a mail says the same whether
it is rendered right after its transaction committed or later by the mail worker.

Each kind of mail has its builder in kinds.py; what every template is given is context.py's,
the links urls.py's, and what a sent mail keeps redaction.py's.
"""
from __future__ import annotations

from flask import current_app, g, has_request_context, render_template

from ..db.database import is_sqlite
from ..db.models import Outbox, db
from ..log import store
from ..play import home, outbox
from ..present.times import reading_in
from .context import in_language
from .kinds import TEMPLATES
from .urls import game_url, home_url, optout_url


class Unrenderable(Exception):
    """A row whose mail cannot be built (its game is gone, its template fails)."""


def init_app(app) -> None:
    """Rows are rendered as soon as their use case commits: at once in commands and workers,
    after the response has gone in a web request (a move's answer never waits for the other
    players' mails). Whatever is left the mail worker renders before sending."""
    outbox.set_renderer(app, after_commit)

    @app.after_request
    def render_after_response(response):
        ids = g.pop("pbem_unrendered", None)
        if ids:
            app_object = current_app._get_current_object()

            def render_them():
                with app_object.app_context():
                    db.connect(reuse_if_open=True)
                    try:
                        render_ids(ids)
                    except Exception:  # noqa: BLE001 - the worker renders them before sending
                        app_object.logger.exception("rendering mails %s failed", ids)
                    finally:
                        if not is_sqlite() and not db.is_closed():
                            db.close()      # back to the pool, as after a request
            response.call_on_close(render_them)
        return response


def after_commit(ids: list[int]) -> None:
    if has_request_context():
        g.setdefault("pbem_unrendered", []).extend(ids)
    else:
        render_ids(ids)


def render_ids(ids: list[int]) -> None:
    """Render the rows that are still unrendered; a failure is left for the worker, which
    marks the row failed if it fails again.

    The rows are read in full before the first is written: an open SELECT keeps SQLite's read
    snapshot, and a write from inside it fails at once ("database is locked", no busy wait) when
    another connection wrote since."""
    rows = list(Outbox.select().where(Outbox.id.in_(ids), Outbox.rendered == False))  # noqa: E712
    for row in rows:
        try:
            render(row)
        except Exception:  # noqa: BLE001 - the worker tries again before sending
            current_app.logger.exception("mail %s could not be rendered yet", row.id)


def render(row: Outbox) -> Outbox:
    """Fill in the row's subject and bodies from its template and context, and save them."""
    if row.rendered:
        return row
    build = TEMPLATES.get(row.template)
    if build is None:
        raise Unrenderable(f"no such mail template {row.template!r}")
    context = dict(row.context or {})
    game = store.find_game(row.game_id) if row.game_id is not None else None
    if row.game_id is not None and game is None:
        raise Unrenderable("the game of this mail is gone")
    with in_language(row.language), reading_in(home.time_zone_of(row.recipient)):
        mail_subject, values = build(row, game, context)
        if row.kind == "webhook":       # a chat post: one sentence, no mail around it
            text = html = values["sentence"]
        else:
            values.update(game=game, base_url=current_app.config["BASE_URL"],
                          optout_link=optout_url(row.recipient, row),
                          home_link=home_url(row.recipient))
            values.setdefault("game_link", game_url(game) if game is not None else None)
            text = render_template(f"emails/{row.template}.txt", **values)
            html = render_template(f"emails/{row.template}.html", **values)
    (Outbox.update(subject=mail_subject[:300], body_text=text, body_html=html, rendered=True)
     .where(Outbox.id == row.id, Outbox.rendered == False).execute())  # noqa: E712
    row.subject, row.body_text, row.body_html, row.rendered = mail_subject[:300], text, html, True
    return row
