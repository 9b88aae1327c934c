"""Public pages: the list of games, each game's spectator page and record (a new game: signup.py)."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, jsonify, make_response, render_template, request
from flask_babel import gettext as _

from ..play import clock
from ..log import store
from ..games import RULES
from ..games.base import current_language
from ..play import records
from ..present import listings
from ..present import seat as seat_view
from ..inputs import ascii_int
from . import conditional

bp = Blueprint("games", __name__)


@bp.get("/")
def index():
    return render_template("index.html", running=listings.running(), rules=RULES)


@bp.get("/favicon.ico")
def favicon():
    """Browsers ask for it on every site: a small icon rather than a 404 in every log."""
    response = current_app.send_static_file("favicon.ico")
    response.headers["Cache-Control"] = "public, max-age=604800"
    return response


ARCHIVE_PAGE = 50        # finished games a page of /games lists (1,024 on one page: 1.1 s)


@bp.get("/games")
def archive():
    """The finished games, newest first, ARCHIVE_PAGE a page (`?page=2` the next ones)."""
    try:
        number = ascii_int(request.args.get("page", "1"), low=1)
    except ValueError:
        abort(404, _("There is no such page."))
    shown = listings.finished(offset=(number - 1) * ARCHIVE_PAGE, limit=ARCHIVE_PAGE + 1)
    if not shown and number > 1:
        abort(404, _("There is no such page."))
    return render_template("archive.html", finished=shown[:ARCHIVE_PAGE], rules=RULES,
                           page=number, more=len(shown) > ARCHIVE_PAGE)


@bp.get("/games/<int:game_id>")
def spectate(game_id):
    """A running game's page shows its clocks (they move with time): rendered each time; a
    finished one only changes with the game's record, so the browser's copy is asked for."""
    game = _game(game_id)
    etag = conditional.validator(game) if game.status == "over" else None
    if etag and (unchanged := conditional.not_modified(etag)):
        return unchanged
    board = seat_view.board(game, None)
    page = render_template("game.html", **board,
                           log=listings.public_log(board["game"], board["names"],
                                                   current_language()),
                           clocks=clock.clocks(board["game"], board["to_act"]))
    return conditional.tagged(make_response(page), etag) if etag else page


@bp.get("/games/<int:game_id>/record.json")
def record(game_id):
    game = _game(game_id)
    if game.status != "over":
        abort(403, _("A game's record is published when the game is over."))
    response = jsonify(records.export_game(game, messages=False))  # table talk stays the players'
    response.headers["Content-Disposition"] = f'attachment; filename="pbem-game-{game.id}.json"'
    return response


def _game(game_id):
    game = store.find_game(game_id)
    if game is None:
        abort(404, _("There is no such game."))
    return game
