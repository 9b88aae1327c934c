"""The replay viewer: any move of a game, rebuilt from its log, one step per request.

Who sees what: a finished game shows everything (every seat's holdings); during a game a
player, from one of their turn links, replays the views of their own seat, and a spectator
the public view (seat None). States come from the log (`store.replay`'s way: setup from the
seed, then apply), from the nearest replay checkpoint the database keeps (every
store.CHECKPOINT_EVERY-th state, shared by every worker), so a step of a game of any length
costs fewer than that many applications.
"""
from __future__ import annotations

from flask import Blueprint, abort, make_response, render_template, request
from flask_babel import gettext as _

from ..play import links, talk
from ..log import store
from ..games.base import current_language
from ..present import replay as replaying
from ..present import seat as seat_view
from ..inputs import ascii_int
from ..play.keys import keys
from . import conditional

bp = Blueprint("replay", __name__)

# -- pages -------------------------------------------------------------------------------------------

@bp.errorhandler(links.LinkError)
def link_error(exc: links.LinkError):
    return render_template("link_error.html", error=exc, game=None, renewable=False), exc.status


@bp.get("/games/<int:game_id>/replay")
def spectator(game_id):
    game = store.find_game(game_id)
    if game is None:
        abort(404, _("There is no such game."))
    etag = conditional.validator(game, _step(game, game.seq))
    return conditional.not_modified(etag) or conditional.tagged(
        make_response(render(game, seat=None, base=f"/games/{game.id}/replay")), etag)


@bp.get("/replay/<token>")
def player(token):
    game_id, seat, upto = replay_access(token)
    game = store.find_game(game_id)
    if game is None:
        abort(404, _("There is no such game."))
    return render(game, seat=seat, base=f"/replay/{token}",
                  # an older link only reads: no talk of later days, no posting through it
                  talk_action=f"/turn/{token}/messages" if upto is None else None,
                  upto=upto if game.status == "running" else None)


def replay_access(token: str) -> tuple[int, int, int | None]:
    """(game, seat, last move) of any turn link this seat was sent, spent or not, within the
    link's maximum age from when it was issued: it replays what that seat saw, up to the move
    the link was spent at (None: a live link, the whole game), and never acts."""
    access = keys().check_readable(token)
    return access.game_id, access.seat, access.seen_upto


def _step(game, last: int) -> int:
    try:
        return min(ascii_int(request.args.get("step", ""), high=10**10), last)
    except ValueError:          # absent, negative or not ASCII digits: the start
        return 0


def render(game, seat: int | None, base: str, talk_action: str | None = None,
           upto: int | None = None):
    """`upto`: the last step shown (an old link's replay stops where its seat's view did)."""
    last = game.seq if upto is None else min(upto, game.seq)
    step = _step(game, last)
    state, event = replaying.state_at(game, step)
    board = seat_view.board(game, seat, state, seq=step)
    rules, names, view = board["rules"], board["names"], board["view"]
    language = current_language()
    over = game.status == "over"
    holdings = []
    if over:
        # a finished game shows everything: each seat's holdings at this step
        holdings = [(s, names[s], rules.view(state, s)) for s in range(game.players)]
    elif seat is not None:
        holdings = [(seat, names[seat], view)]
    lo, hi = max(0, step - replaying.WINDOW), min(last, step + replaying.WINDOW)
    nearby = replaying.nearby(game, lo, hi, names, language)
    playing = request.args.get("play") == "1" and step < last
    return render_template(
        "replay.html", **board, holdings=holdings, step=step, last=last, event=event,
        base=base, text=replaying.line(game, event, names, language) if event else "",
        nearby=nearby, over=over, playing=playing, talk_action=talk_action,
        messages=talk.listing(game, names) if talk_action else [],
        fragment=request.args.get("part") == "1",
        your_turn=seat is not None and seat in rules.to_act(store.state_of(game)))
