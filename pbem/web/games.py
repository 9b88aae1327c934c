"""Public pages: the list of games, each game's spectator page and record (a new game: signup.py)."""
from __future__ import annotations

import datetime as dt

from flask import Blueprint, abort, current_app, jsonify, render_template
from flask_babel import format_timedelta
from flask_babel import gettext as _

from ..play import clock
from ..log import store
from ..games import RULES
from ..games.base import current_language
from ..db.models import Game, utcnow
from ..play import records
from ..present import fill_names, results
from ..present import presenter_for

bp = Blueprint("games", __name__)


@bp.get("/")
def index():
    running = Game.select().where(Game.status == "running").order_by(Game.id.desc()).limit(50)
    return render_template("index.html", running=[_listing(g) for g in running], rules=RULES)


def _listing(game: Game) -> dict:
    """What a list of games says of one: its players, who is to act (or who won), and how
    long it has waited since its last move, in words ("3 days")."""
    names = store.names_of(game)
    to_act, winners = [], []
    try:
        rules = store.rules_of(game)
    except store.NotFound:             # an imported game whose rules this server lacks
        rules = None
    if rules is not None:
        state = rules.load(game.state)
        to_act = rules.to_act(state)
        result = rules.result(state) if game.status == "over" else None
        ranking = (result or {}).get("ranking") or [[]]
        winners = [names[s] for s in ranking[0] if s < len(names)]
    last = (store.Event.select(store.Event.created_at)
            .where(store.Event.game == game, store.Event.seq == game.seq).scalar())
    waited = None
    if last:
        try:
            waited = utcnow() - dt.datetime.fromisoformat(last).replace(tzinfo=None)
        except ValueError:
            waited = None
    return {"game": game, "names": names, "to_act": [names[s] for s in to_act if s < len(names)],
            "winners": winners,
            "waited": format_timedelta(max(waited, dt.timedelta(0)), add_direction=False)
            if waited is not None else ""}


@bp.get("/favicon.ico")
def favicon():
    """Browsers ask for it on every site: a small icon rather than a 404 in every log."""
    response = current_app.send_static_file("favicon.ico")
    response.headers["Cache-Control"] = "public, max-age=604800"
    return response


@bp.get("/games")
def archive():
    finished = Game.select().where(Game.status == "over").order_by(Game.finished_at.desc())
    return render_template("archive.html", finished=[_listing(g) for g in finished], rules=RULES)


@bp.get("/games/<int:game_id>")
def spectate(game_id):
    game = _game(game_id)
    rules = store.rules_of(game)
    state = rules.load(game.state)
    names = store.names_of(game)
    language = current_language()
    log = [(e, fill_names(e.text(language), names), False)
           for e in game.events.order_by(store.Event.seq.desc()).limit(200)]
    result = rules.result(state)
    return render_template("game.html", game=game, rules=rules, names=names, log=log,
                           view=rules.view(state, None), to_act=rules.to_act(state),
                           result=result, summary=results.summary(result, names),
                           presenter=presenter_for(game.rules), seat=None, choices=[],
                           clocks=clock.clocks(game, rules.to_act(state), utcnow()),
                           payload={"seq": game.seq, "to_act": rules.to_act(state),
                                    "actions": [], "result": result})


@bp.get("/games/<int:game_id>/record.json")
def record(game_id):
    game = _game(game_id)
    if game.status != "over":
        abort(403, _("A game's record is published when the game is over."))
    response = jsonify(records.export_game(game, messages=False))  # table talk stays the players'
    response.headers["Content-Disposition"] = f'attachment; filename="pbem-game-{game.id}.json"'
    return response


def _game(game_id) -> Game:
    game = Game.get_or_none(Game.id == game_id)
    if game is None:
        abort(404, _("There is no such game."))
    return game
