"""Replay: any step of a game rebuilt from the log, from the nearest checkpoint this process
keeps, and the log lines around it."""
from __future__ import annotations

import threading
from collections import OrderedDict

from ..db.models import Event, Game
from ..log import store
from . import fill_names

CHECKPOINT = 50
CACHED_GAMES = 32
WINDOW = 6                 # moves listed on each side of the current one
_checkpoints: OrderedDict[int, dict[int, tuple[str, dict]]] = OrderedDict()
_lock = threading.Lock()


# -- rebuilding a step -----------------------------------------------------------------------------

def _cached(game_id: int) -> dict[int, tuple[str, dict]]:
    with _lock:
        points = _checkpoints.setdefault(game_id, {})
        _checkpoints.move_to_end(game_id)
        while len(_checkpoints) > CACHED_GAMES:
            _checkpoints.popitem(last=False)
        return points


def state_at(game: Game, step: int):
    """(state after event `step`, that event), rebuilt from the nearest kept checkpoint."""
    rules = store.rules_of(game)
    points = _cached(game.id)
    base = max((s for s in list(points) if s <= step), default=None)
    state, event = None, None
    if base is not None:
        events = list(game.events.where(Event.seq >= base, Event.seq <= step)
                      .order_by(Event.seq))
        known_hash, dumped = points.get(base, (None, None))
        if events and events[0].seq == base and events[0].hash == known_hash:
            state, event, events = rules.load(dumped), events[0], events[1:]
        else:                               # another game under this id (a new database)
            points.clear()
            base = None
    if base is None:
        events = list(game.events.where(Event.seq <= step).order_by(Event.seq))
    for event in events:
        state = store.after_event(rules, state, event)
        if event.seq % CHECKPOINT == 0 and event.seq not in points:
            points[event.seq] = (event.hash, rules.dump(state))
    return state, event


def nearby(game: Game, lo: int, hi: int, names: list[str], language: str) -> list:
    """(seq, line) of the moves from `lo` to `hi`."""
    return [(e.seq, fill_names(e.text(language), names))
            for e in game.events.where(Event.seq >= lo, Event.seq <= hi).order_by(Event.seq)]
