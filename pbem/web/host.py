"""The host's page of a game: links, mail that failed, and what a host may do about them."""
from __future__ import annotations

import datetime as dt

from flask import Blueprint, current_app, redirect, render_template, request
from flask_babel import gettext as _

from ..play import clock, links, optout, pace
from ..mail import notify
from ..log import store
from ..db.database import write_transaction
from ..db.models import Link, Outbox, Seat, utcnow

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
    rules, state = store.rules_of(game), store.state_of(game)
    seats = list(game.seats.order_by(Seat.index))
    live = {link.seat: link for link in
            Link.select().where(Link.game == game, Link.spent_at.is_null())}
    mail = list(Outbox.select().where(Outbox.game == game).order_by(Outbox.id.desc()).limit(100))
    to_act = rules.to_act(state)
    return render_template("host.html", game=game, seats=seats, live=live, mail=mail,
                           to_act=to_act, token=token, now=utcnow(),
                           opted_out=optout.opted_out(s.email for s in seats),
                           clocks=clock.clocks(game, to_act, utcnow()),
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
    game = _game(token)
    with write_transaction():
        links.spend(game, [seat], "revoked")
    return redirect(f"/host/{token}", code=303)


@bp.post("/<token>/resend/<int:seat>")
def resend(token, seat):
    """Mail a fresh link to a seat that is to act (spending its older links)."""
    game = _game(token)
    with write_transaction():
        game = store.locked_game(game.id)      # two resends at once: one mail
        rules, state = store.rules_of(game), store.state_of(game)
        seats = list(game.seats.order_by(Seat.index))
        if game.status == "running" and seat in rules.to_act(state):
            if _recent_link(game, seat):
                return _page(token, game, status=429, error=_(
                    "A link was emailed to this player a few minutes ago: "
                    "try again in %(minutes)s minutes.", minutes=_interval_minutes()))
            notify.send_turn_mail(game, rules, state, seats[seat], seats, kind="link")
    return redirect(f"/host/{token}", code=303)


def _recent_link(game, seat: int) -> bool:
    """A fresh link mailed to the seat within the renew interval, on the host's or the
    player's request: the host resends no more often than a player may ask for one."""
    since = utcnow() - dt.timedelta(seconds=current_app.config["RENEW_INTERVAL"])
    return (Outbox.select().where(Outbox.game == game, Outbox.seat == seat,
                                  Outbox.kind == "link", Outbox.created_at > since)
            .exists())


def _interval_minutes() -> int:
    return max(1, -(-current_app.config["RENEW_INTERVAL"] // 60))


@bp.post("/<token>/retry/<int:mail_id>")
def retry(token, mail_id):
    """Send a mail that failed for good once more (after the host fixed the address)."""
    game = _game(token)
    with write_transaction():
        (Outbox.update(failed_at=None, next_try_at=utcnow(), claimed_until=None)
         .where(Outbox.id == mail_id, Outbox.game == game, Outbox.sent_at.is_null())
         .execute())
    return redirect(f"/host/{token}", code=303)
