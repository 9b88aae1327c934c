"""The host's page of a game: links, mail that failed, and what a host may do about them."""
from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request
from flask_babel import gettext as _

from ..play import fresh, limits, links, outbox, pace, webhooks
from ..log import store
from ..present import hosting

bp = Blueprint("host", __name__, url_prefix="/host")


@bp.errorhandler(links.LinkError)
def link_error(exc):
    return render_template("link_error.html", error=exc, game=None, renewable=False), exc.status


def _game(token):
    config = current_app.config
    return store.get_game(links.check_host(config["SECRET_KEY"], token,
                                           config["HOST_LINK_MAX_AGE"]))


@bp.get("/<token>")
def show(token):
    return _page(token, _game(token))


def _page(token, game, error=None, status=200):
    return render_template("host.html", **hosting.host_page(game), token=token,
                           created=request.args.get("created") == "1", error=error), status


PACE_ACTIONS = {"extend": pace.extend, "default": pace.play_default_once,
                "handover": pace.hand_over}


@bp.post("/<token>/pace/<what>/<int:seat>")
def pace_seat(token, what, seat):
    """A late seat: more time, its default move once, or default moves from now on."""
    game = _game(token)
    if what not in PACE_ACTIONS:
        return _page(token, game, error=_("Unknown request."), status=404)
    try:
        PACE_ACTIONS[what](game.id, seat)
    except pace.PaceError:
        return _page(token, game, error=_("That cannot be done now: the game has moved on."),
                     status=409)
    return redirect(f"/host/{token}", code=303)


@bp.post("/<token>/pause")
def pause(token):
    game = _game(token)
    try:
        pace.pause(game.id)
    except pace.PaceError:
        return _page(token, game, error=_("The game is over."), status=409)
    return redirect(f"/host/{token}", code=303)


@bp.post("/<token>/resume")
def resume(token):
    game = _game(token)
    try:
        pace.resume(game.id)
    except pace.PaceError:
        return _page(token, game, error=_("The game is over."), status=409)
    return redirect(f"/host/{token}", code=303)


@bp.post("/<token>/revoke/<int:seat>")
def revoke(token, seat):
    fresh.revoke(_game(token), seat)
    return redirect(f"/host/{token}", code=303)


@bp.post("/<token>/resend/<int:seat>")
def resend(token, seat):
    """Mail a fresh link to a seat that is to act (spending its older links)."""
    game = _game(token)
    try:
        fresh.resend(game.id, seat)
    except limits.Refused as refusal:
        return _page(token, game, status=refusal.status, error=refusal.reason)
    return redirect(f"/host/{token}", code=303)


@bp.post("/<token>/retry/<int:mail_id>")
def retry(token, mail_id):
    """Send a mail that failed for good once more (after the host fixed the address)."""
    game = _game(token)
    outbox.retry(game, mail_id)
    return redirect(f"/host/{token}", code=303)


@bp.post("/<token>/webhook")
def webhook(token):
    """Set, change or (an empty field) remove the game's chat webhook."""
    game = _game(token)
    try:
        webhooks.change(game, request.form.get("url", ""))
    except webhooks.WebhookError as refusal:
        return _page(token, game, error=str(refusal), status=400)
    return redirect(f"/host/{token}#webhook", code=303)
