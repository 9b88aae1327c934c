"""Public pages: the list of games, a new game, each game's spectator page and record."""
from __future__ import annotations

from flask import Blueprint, abort, jsonify, render_template, request
from flask_babel import gettext as _

from .. import clock, notify, store, validate
from ..games import RULES, IllegalAction
from ..games.base import current_language
from ..models import Game, utcnow
from ..present import results
from ..present import presenter_for

bp = Blueprint("games", __name__)

LANGUAGES = {"en": "English", "hu": "Magyar"}


@bp.get("/")
def index():
    running = Game.select().where(Game.status == "running").order_by(Game.id.desc()).limit(50)
    return render_template("index.html", running=running, rules=RULES)


@bp.get("/games")
def archive():
    finished = Game.select().where(Game.status == "over").order_by(Game.finished_at.desc())
    return render_template("archive.html", finished=finished, rules=RULES)


@bp.get("/games/<int:game_id>")
def spectate(game_id):
    game = _game(game_id)
    rules = store.rules_of(game)
    state = rules.load(game.state)
    names = store.names_of(game)
    language = current_language()
    log = [(e, notify.fill_names(e.text(language), names), False)
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
    response = jsonify(store.export(game))
    response.headers["Content-Disposition"] = f'attachment; filename="pbem-game-{game.id}.json"'
    return response


@bp.route("/new", methods=["GET", "POST"])
def new():
    form = request.form
    if request.method == "GET":
        return render_template("new.html", rules=RULES, languages=LANGUAGES, form={}, error=None)
    try:
        game, host_token = _create(form)
    except ValueError as exc:   # IllegalAction is a ValueError too
        return render_template("new.html", rules=RULES, languages=LANGUAGES, form=form,
                               error=str(exc)), 400
    return render_template("created.html", game=game, host_link=notify.host_url(host_token))


def _create(form):
    rules_name = form.get("rules", "")
    if rules_name not in RULES:
        raise ValueError(_("Choose a game."))
    players = []
    for i in range(8):
        name, email = form.get(f"name{i}", "").strip(), form.get(f"email{i}", "").strip()
        if not name and not email:
            continue
        language = form.get(f"language{i}", "en")
        players.append({"name": name, "email": email,
                        "language": language if language in LANGUAGES else "en"})
    players = validate.players(players, email_required=True)
    options = {key: _option(form, key, default) for key, default in RULES[rules_name].options.items()}
    return store.create_game(rules_name, players, options, title=validate.title(form.get("title")),
                             host_email=validate.host_email(form.get("host_email"), required=False),
                             pace=pace_of_form(form))


def pace_of_form(form) -> dict:
    """The pace chosen on /new: days per decision (empty: no limit), the policy, drop-after."""
    raw_days, raw_drop = form.get("pace", "").strip(), form.get("drop_after", "").strip() or "3"
    try:
        days = float(raw_days) if raw_days else None
        if days is not None and not (0 < days <= clock.MAX_PACE_DAYS):
            raise ValueError
    except ValueError:
        raise ValueError(_("Days per decision must be a positive number.")) from None
    if form.get("on_timeout", "wait") not in clock.POLICIES:
        raise ValueError(_("Choose what happens at a missed deadline."))
    if not raw_drop.isascii() or not raw_drop.isdigit() or \
            not 1 <= int(raw_drop) <= clock.MAX_DROP_AFTER:
        raise ValueError(_("The number of missed deadlines must be a whole number from 1 to 100."))
    return clock.check_pace(days, form.get("on_timeout", "wait"), int(raw_drop))


def _option(form, key, default):
    raw = form.get(f"option_{key}")
    if isinstance(default, bool):
        return raw in ("1", "on", "true")
    if isinstance(default, int):
        try:
            return int(raw) if raw not in (None, "") else default
        except ValueError:
            raise IllegalAction(_("option %(key)s takes a whole number", key=key)) from None
    return raw if raw is not None else default


def _game(game_id) -> Game:
    game = Game.get_or_none(Game.id == game_id)
    if game is None:
        abort(404, _("There is no such game."))
    return game
