"""Opting out of all mail from this server, from the link in every mail's footer or the
mail client's own button (List-Unsubscribe-Post, RFC 8058). GET only asks; POST opts out.
The same link undoes it (POST .../undo): a mistaken tap must not cut a player off for good."""
from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask_babel import gettext as _

from ..play import choices, optout
from ..play.keys import keys

bp = Blueprint("optout", __name__)


def _address(token: str) -> str:
    try:
        email = keys().optout_address(token)
    except optout.Expired:
        abort(410, _("This opt-out link has expired: use the one in a newer mail, or the page "
                     "of all your games (ask for its link at /me)."))
    if email is None:
        abort(404, _("This opt-out link is not valid: open it again from the mail."))
    return email


@bp.get("/optout/<token>")
def ask(token):
    email = _address(token)
    return render_template("optout.html", email=email, done=optout.is_opted_out(email))


@bp.post("/optout/<token>")
def confirm(token):
    """One click, no form token: a mail client posts "List-Unsubscribe=One-Click" here."""
    email = _address(token)
    choices.opt_out(email)
    return render_template("optout.html", email=email, done=True)


@bp.post("/optout/<token>/undo")
def undo(token):
    email = _address(token)
    choices.opt_in(email)
    return render_template("optout.html", email=email, done=False, back=True)
