"""The turn page: GET only renders (mail scanners fetch links), POST acts."""
from __future__ import annotations

import datetime as dt
import json

from flask import Blueprint, current_app, redirect, render_template, request

from .. import links, notify, store
from ..database import write_transaction
from ..games import IllegalAction
from ..models import Link, Seat, utcnow
from ..games.base import current_language
from . import present
from .common import check_link, check_link_to_act, parse_seq, turn_payload
from .present import presenter_for

bp = Blueprint("turn", __name__)


@bp.errorhandler(links.LinkError)
def link_error(exc: links.LinkError):
    return render_link_error(exc), exc.status


def render_link_error(exc: links.LinkError):
    game, renewable = None, False
    if exc.game_id is not None:
        game = store.Game.get_or_none(store.Game.id == exc.game_id)
    if game is not None and exc.status == 410 and game.status == "running":
        renewable = exc.seat in store.rules_of(game).to_act(store.state_of(game))
    return render_template("link_error.html", error=exc, game=game, renewable=renewable)


def page(game, seat, state=None, message=None, error=None, status=200):
    payload = turn_payload(game, seat, state)
    names = store.names_of(game)
    rules = store.rules_of(game)
    state = rules.load(game.state) if state is None else state
    presenter = presenter_for(game.rules)
    choices = present.choices(
        presenter, payload["actions"], payload["view"],
        lambda a: notify.fill_names(rules.describe(state, seat, a), names))
    seen = Seat.get(Seat.game == game, Seat.index == seat).seen_seq
    language = current_language()
    log = [(e, notify.fill_names(e.text(language), names), e.seq > seen)
           for e in game.events.order_by(store.Event.seq.desc()).limit(60)]
    return render_template("turn.html", game=game, seat=seat, names=names, payload=payload,
                           view=payload["view"], presenter=presenter, choices=choices,
                           log=log, message=message, error=error,
                           token=request.view_args["token"]), status


@bp.get("/turn/<token>")
def show(token):
    access = check_link(token)
    return page(store.get_game(access.game_id), access.seat)


@bp.post("/turn/<token>")
def act(token):
    access = check_link(token) if "seq" not in request.form else None
    try:
        seq = parse_seq(request.form.get("seq"))
        action = json.loads(request.form.get("action", ""))
    except (ValueError, json.JSONDecodeError):
        access = access or check_link(token)
        return page(store.get_game(access.game_id), access.seat, status=400,
                    error="The form was incomplete: choose an action.")
    try:
        access = check_link_to_act(token, seq)
    except store.StaleSeq:
        return render_template("played.html"), 409
    game = store.get_game(access.game_id)
    try:
        applied = store.append(access.game_id, access.seat, action, seq, link_id=access.link.id)
    except store.StaleSeq:
        return page(game, access.seat, status=409,
                    error="This move was already played (perhaps from another tab). "
                          "Here is the game as it stands now.")
    except IllegalAction as exc:
        return page(game, access.seat, error=f"That action is not allowed: {exc}", status=422)
    link = Link.get_by_id(access.link.id)
    if link.spent_at is None:
        return redirect(f"/turn/{token}", code=303)
    return page(applied.game, access.seat, applied.state,
                message="Your move is recorded. We will email you when it is your turn again.")


@bp.post("/turn/<token>/renew")
def renew(token):
    """Email a fresh link to a seat that is still to act (its old link expired or was spent)."""
    config = current_app.config
    found = links.identify(config["SECRET_KEY"], token)
    if found is None:
        raise links.LinkError(403, "tampered", "This link is not valid.")
    with write_transaction():
        game = store.get_game(found[0])
        rules, state = store.rules_of(game), store.state_of(game)
        seat = Seat.get_or_none(Seat.game == game, Seat.index == found[1])
        if seat is None or game.status != "running" or seat.index not in rules.to_act(state):
            return render_template("renew.html", game=game, sent=False,
                                   reason="It is not this seat's turn: there is nothing to do."), 409
        recent = (Link.select().where(Link.game == game, Link.seat == seat.index,
                                      Link.created_at > utcnow() - dt.timedelta(seconds=config["RENEW_INTERVAL"]))
                  .exists())
        if recent:
            return render_template("renew.html", game=game, sent=False,
                                   reason="A link was emailed a few minutes ago: "
                                          "please look for it in your inbox."), 429
        notify.send_turn_mail(game, rules, state, seat, list(game.seats.order_by(Seat.index)),
                              kind="link")
    return render_template("renew.html", game=game, sent=True, reason=None)

