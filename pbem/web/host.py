"""The host's page of a game: links, mail that failed, and what a host may do about them.

Every choice answers with a redirect to the page, which then says what the choice did
(`?done=<what>&seat=<n>`: read from the game as it stands, never from the query's words)."""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request
from flask_babel import gettext as _

from ..play import fresh, home, limits, links, outbox, pace, webhooks
from ..play import hosting as host_actions
from ..log import store
from ..present import hosting
from ..present import times
from ..present.times import when
from ..play.keys import keys

bp = Blueprint("host", __name__, url_prefix="/host")


@bp.errorhandler(links.LinkError)
def link_error(exc):
    return render_template("link_error.html", error=exc, game=None, renewable=False), exc.status


def _game(token):
    return store.get_game(keys().check_host(token))


@bp.get("/<token>")
def show(token):
    return _page(token, _game(token), done=(request.args.get("done", ""),
                                            request.args.get("seat", "")))


def _page(token, game, error=None, status=200, done=None):
    page = hosting.host_page(game)
    with times.reading_in(home.time_zone_of(game.host_email)):     # the host's own zone
        return render_template("host.html", **page, token=token,
                               created=request.args.get("created") == "1", error=error,
                               done=_done(page, *done) if done else None), status


def _when(moment) -> str:
    return when(moment)


def _told(seat, opted_out) -> str:
    if seat.email in opted_out:
        return _("%(name)s opted out of all mail and was not told.", name=seat.name)
    return _("%(name)s was told by email.", name=seat.name)


def _done(page: dict, what: str, seat_raw: str) -> str | None:
    """What the host's last choice did, as the page following it says (from the game as it
    stands: the query only names the choice and the seat)."""
    if what in ("paused", "resumed", "retried"):
        return {"paused": _("The game is paused: every clock stands still until you resume it."),
                "resumed": _("The game runs again: each deadline moved later by the time the "
                             "game stood still."),
                "retried": _("The mail will be sent again.")}[what]
    seat = None
    if seat_raw.isascii() and seat_raw.isdigit() and len(seat_raw) <= 3:
        seat = next((s for s in page["seats"] if s.index == int(seat_raw)), None)
    if seat is None:
        return None
    opted_out = page["opted_out"]
    if what == "extended":
        deadline = next((c.deadline for c in page["clocks"] if c.seat == seat.index), None)
        if deadline is None:
            return None
        return _("%(name)s has more time: the new deadline is %(when)s (UTC).", name=seat.name,
                 when=_when(deadline)) + " " + _told(seat, opted_out)
    if what == "default":
        return _("%(name)s's default move was played; the game's log says you played it for "
                 "them.", name=seat.name)
    if what == "handover":
        return _("From now on %(name)s's default moves are played for them as soon as they are "
                 "asked, until they act again or you undo it.", name=seat.name) + " " + \
            _told(seat, opted_out)
    if what == "undone":
        return _("%(name)s plays their own moves again.", name=seat.name) + " " + \
            _told(seat, opted_out)
    if what == "resent":
        return _("A fresh link was emailed to %(name)s.", name=seat.name)
    if what == "revoked":
        return _("%(name)s's links were revoked.", name=seat.name)
    return None


def _too_early(refusal: host_actions.TooEarly) -> str:
    if refusal.held == "away":
        return _("%(name)s is away: their clock stands still, so this cannot be done now.",
                 name=refusal.name)
    if refusal.held:
        return _("The game is paused: %(name)s's clock stands still, so this cannot be done "
                 "now.", name=refusal.name)
    if refusal.paced:
        return _("%(name)s's deadline has not passed: this can be done from %(when)s (UTC).",
                 name=refusal.name, when=_when(refusal.when))
    return _("This game has no deadlines: this can be done once %(name)s has had the move "
             "for %(days)s days, from %(when)s (UTC).", name=refusal.name,
             days="%g" % host_actions.host_wait_days(), when=_when(refusal.when))


PACE_ACTIONS = {"extend": (host_actions.extend, "extended"), "default": (host_actions.play_default_once, "default"),
                "handover": (host_actions.hand_over, "handover"), "undo": (host_actions.undo_hand_over, "undone")}


@bp.post("/<token>/pace/<what>/<int:seat>")
def pace_seat(token, what, seat):
    """A late seat: more time, its default move once, or default moves from now on (and back)."""
    game = _game(token)
    if what not in PACE_ACTIONS:
        return _page(token, game, error=_("Unknown request."), status=404)
    action, done = PACE_ACTIONS[what]
    try:
        action(game.id, seat)
    except host_actions.TooEarly as refusal:
        return _page(token, game, error=_too_early(refusal), status=409)
    except pace.PaceError:
        return _page(token, store.get_game(game.id),
                     error=_("That cannot be done now: the game has moved on."), status=409)
    return redirect(f"/host/{token}?done={done}&seat={seat}", code=303)


@bp.post("/<token>/pause")
def pause(token):
    game = _game(token)
    try:
        host_actions.pause(game.id)
    except pace.PaceError:
        return _page(token, game, error=_("The game is over."), status=409)
    return redirect(f"/host/{token}?done=paused", code=303)


@bp.post("/<token>/resume")
def resume(token):
    game = _game(token)
    try:
        host_actions.resume(game.id)
    except pace.PaceError:
        return _page(token, game, error=_("The game is over."), status=409)
    return redirect(f"/host/{token}?done=resumed", code=303)


@bp.post("/<token>/revoke/<int:seat>")
def revoke(token, seat):
    fresh.revoke(_game(token), seat)
    return redirect(f"/host/{token}?done=revoked&seat={seat}", code=303)


@bp.post("/<token>/resend/<int:seat>")
def resend(token, seat):
    """Mail a fresh link to a seat that is to act (spending its older links)."""
    game = _game(token)
    try:
        fresh.resend(game.id, seat)
    except limits.Refused as refusal:
        return _page(token, game, status=refusal.status, error=refusal.reason)
    return redirect(f"/host/{token}?done=resent&seat={seat}", code=303)


@bp.post("/<token>/retry/<int:mail_id>")
def retry(token, mail_id):
    """Send a mail that failed for good once more (after the host fixed the address)."""
    game = _game(token)
    outbox.retry([mail_id], game)
    return redirect(f"/host/{token}?done=retried", code=303)


@bp.post("/<token>/webhook")
def webhook(token):
    """Set, change or (an empty field) remove the game's chat webhook."""
    game = _game(token)
    try:
        webhooks.change(game, request.form.get("url", ""))
    except webhooks.WebhookError as refusal:
        return _page(token, game, error=str(refusal), status=400)
    return redirect(f"/host/{token}#webhook", code=303)
