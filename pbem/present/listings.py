"""Lists of games: the running ones on the front page, the archive of finished ones, and a
game's public log."""
from __future__ import annotations

import datetime as dt
import operator
from functools import reduce

from flask_babel import format_timedelta

from ..db.models import Event, Game, Seat, utcnow
from ..log import lines, store
from . import fill_names

RUNNING_SHOWN = 50
PUBLIC_LOG_LINES = 200


def running() -> list[dict]:
    games = list(Game.select().where(Game.status == "running")
                 .order_by(Game.id.desc()).limit(RUNNING_SHOWN))
    return listings_of(games)


def finished(offset: int = 0, limit: int | None = None) -> list[dict]:
    """Finished games, newest first: `limit` of them from the `offset`-th on (a page). The
    page's ids come from the index on (status, finished_at, id) alone; only its rows are read.
    The archive pages by `finished_around` (an offset walks the index up to its page)."""
    ids = (Game.select(Game.id).where(Game.status == "over")
           .order_by(Game.finished_at.desc(), Game.id.desc()).offset(offset))
    return _listed([row.id for row in (ids.limit(limit) if limit is not None else ids)])


def finished_around(game_id: int, older: bool, limit: int) -> list[dict] | None:
    """Up to `limit` finished games just older (or just newer) than finished game `game_id`,
    newest first: a page found from its neighbour's place in the index on (status,
    finished_at, id), whose cost does not grow with the pages before it. None: `game_id` is
    no finished game."""
    mark = (Game.select(Game.finished_at).where(Game.id == game_id, Game.status == "over")
            .tuples().first())
    if mark is None or mark[0] is None:
        return None
    when = mark[0]
    if older:      # the first term lets the index seek to the page; the second breaks ties
        beyond = (Game.finished_at <= when) & (
            (Game.finished_at < when) | (Game.id < game_id))
        order = (Game.finished_at.desc(), Game.id.desc())
    else:
        beyond = (Game.finished_at >= when) & (
            (Game.finished_at > when) | (Game.id > game_id))
        order = (Game.finished_at.asc(), Game.id.asc())
    ids = [row.id for row in Game.select(Game.id).where(Game.status == "over", beyond)
           .order_by(*order).limit(limit)]
    return _listed(ids if older else ids[::-1])


def _listed(ids: list[int]) -> list[dict]:
    by_id = {game.id: game for game in Game.select().where(Game.id.in_(ids))} if ids else {}
    return listings_of([by_id[i] for i in ids if i in by_id])


def listings_of(games: list[Game]) -> list[dict]:
    """The listings of `games`, with their seats and their last moves' times read in one
    query each (never one a listed game)."""
    if not games:
        return []
    seats: dict[int, list[Seat]] = {game.id: [] for game in games}
    for seat in Seat.select().where(Seat.game.in_(list(seats))).order_by(Seat.game, Seat.index):
        seats[seat.game_id].append(seat)
    # one (game, seq) pair each, as ORed equalities: SQLite searches its (game, seq) index for
    # each, where a row-value IN list scanned the whole event table (a hundred at a time: an
    # expression nests no deeper than SQLite allows)
    last_moves = {}
    for start in range(0, len(games), 100):
        last = reduce(operator.or_, [(Event.game == g.id) & (Event.seq == g.seq)
                                     for g in games[start:start + 100]])
        last_moves.update((event.game_id, event.created_at) for event in
                          Event.select(Event.game, Event.created_at).where(last))
    return [listing(game, seats[game.id], last_moves.get(game.id)) for game in games]


def public_log(game: Game, names: list[str], language: str) -> list:
    """The latest public lines, newest first, as the turn page's log has them."""
    events = list(game.events.order_by(Event.seq.desc()).limit(PUBLIC_LOG_LINES))
    return [(e, fill_names(text, names), False)
            for e, text in zip(events, lines.texts(game, events, language))]


def listing(game: Game, seats: list[Seat] | None = None, last: str | None = None) -> dict:
    """What a list of games says of one: its players, who is to act (or who won), and how
    long it has waited since its last move, in words ("3 days"). `seats` and `last` (the time
    of its last event) when the caller read them for many games at once."""
    names = store.names_of(game, seats)
    to_act, winners = [], []
    try:
        rules = store.rules_of(game)
    except store.NotFound:             # an imported game whose rules this server lacks
        rules = None
    if rules is not None:
        state = rules.load(game.state)
        to_act = store.to_act_of(game, state, rules)
        result = store.result_of(game, state, rules) if game.status == "over" else None
        ranking = (result or {}).get("ranking") or [[]]
        winners = [names[s] for s in ranking[0] if s < len(names)]
    if last is None and seats is None:
        last = (Event.select(Event.created_at)
                .where(Event.game == game, Event.seq == game.seq).scalar())
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
