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
    """The finished games, newest first, ARCHIVE_PAGE a page: `?older=ID` the ones after
    finished game ID, `?newer=ID` the ones before it (`?page=N`, the N-th page, still answers
    the links of earlier releases)."""
    shown, newer, older = _archive_page(request.args)
    return render_template("archive.html", finished=shown, rules=RULES, newer=newer, older=older)


def _archive_page(args) -> tuple[list[dict], int | None, int | None]:
    """The page's listings and the games its "newer" and "older" links start from (None: no
    such link); 404 for a page that is not there."""
    given = [name for name in ("older", "newer", "page") if name in args]
    try:
        if len(given) > 1:
            raise ValueError("one of older, newer and page")
        number = ascii_int(args[given[0]] if given else "1", low=1)
    except ValueError:
        abort(404, _("There is no such page."))
    if given and given[0] != "page":
        older = given[0] == "older"
        found = listings.finished_around(number, older, ARCHIVE_PAGE + 1)
        if not found:
            abort(404, _("There is no such page."))
        more = len(found) > ARCHIVE_PAGE        # one game beyond the page, on the far side
        shown = found[:ARCHIVE_PAGE] if older else found[-ARCHIVE_PAGE:]
        more_older, more_newer = (more, True) if older else (True, more)
    else:
        found = listings.finished(offset=(number - 1) * ARCHIVE_PAGE, limit=ARCHIVE_PAGE + 1)
        if not found and number > 1:
            abort(404, _("There is no such page."))
        shown, more_older, more_newer = found[:ARCHIVE_PAGE], len(found) > ARCHIVE_PAGE, number > 1
    newer = shown[0]["game"].id if shown and more_newer else None
    older = shown[-1]["game"].id if shown and more_older else None
    return shown, newer, older


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
