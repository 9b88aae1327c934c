"""Table talk from the pages: a message posted from any link the seat was sent."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request
from flask_babel import gettext as _

from ..play import links, talk
from . import turn
from .common import check_newest

bp = Blueprint("talk", __name__)


@bp.errorhandler(links.LinkError)
def link_error(exc: links.LinkError):
    return turn.link_error(exc)


@bp.post("/turn/<token>/messages")
def post(token):
    """Keep the message, then back to where the seat stands (its turn or its read-only page)."""
    access = check_newest(token)     # an older link only reads
    try:
        talk.post(access.game_id, access.seat, request.form.get("text", ""))
    except talk.TalkError as exc:
        why = {400: _("The message was not kept: write between 1 and %(n)s characters of "
                      "plain text.", n=talk.MAX_LENGTH),
               429: _("The message was not kept: you wrote several in the last minutes. "
                      "Please wait a little.")}[exc.status]
        return render_template("error.html", title=_("Message not sent"), description=why,
                               back=f"/turn/{token}/done#talk"), exc.status
    return redirect(f"/turn/{token}/done#talk", code=303)
