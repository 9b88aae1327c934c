"""Game records: export a game (with the players' table talk, or without it for the public
record) and import one, replayed into a new game with its messages, in one transaction."""
from __future__ import annotations

from ..db.models import Game
from ..log import chain, store
from . import clock, outbox, talk


def export_game(game: Game, messages: bool = True) -> dict:
    """The game's JSON record (`store.export`), with its table talk unless `messages` is
    False (the public record: table talk stays the players')."""
    record = store.export(game)
    if messages:
        record["messages"] = talk.export(game)
    return record


def import_game(record: dict) -> Game:
    """Replay an exported record into a new game; ValueError if it does not replay exactly
    (nothing is written then)."""
    if not isinstance(record, dict):
        raise ValueError(f"not a pbem game record (format {chain.EXPORT_FORMAT!r} expected)")
    pace = clock.check_pace(**clock.pace_of_record(record.get("pace")))
    with outbox.transaction():
        game = store.import_record(record, pace)
        talk.restore(game, record.get("messages"))
    return game
