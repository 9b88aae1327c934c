"""Replay: any step of a game rebuilt from the log, from the nearest checkpoint at or before it
that the database keeps (store.state_at: shared by every worker, so a step applies fewer than
store.CHECKPOINT_EVERY events in a game of any length), and the log lines around it."""
from __future__ import annotations

from ..db.models import Event, Game
from ..log import lines, store
from . import fill_names

CHECKPOINT = store.CHECKPOINT_EVERY
WINDOW = 6                 # moves listed on each side of the current one


# -- rebuilding a step -----------------------------------------------------------------------------

def state_at(game: Game, step: int):
    """(state after event `step`, that event), rebuilt from the nearest checkpoint."""
    rebuilt = store.state_at(game, step)
    return rebuilt.state, rebuilt.event


def nearby(game: Game, lo: int, hi: int, names: list[str], language: str) -> list:
    """(seq, line) of the moves from `lo` to `hi`."""
    events = list(game.events.where(Event.seq >= lo, Event.seq <= hi).order_by(Event.seq))
    return [(e.seq, fill_names(text, names))
            for e, text in zip(events, lines.texts(game, events, language))]


def line(game: Game, event: Event, names: list[str], language: str) -> str:
    """The event's line in `language`, names filled in."""
    return fill_names(lines.text(game, event, language), names)
