"""Ending a game as its players decide: a player resigns, or they agree to abandon the game
(the rulings: pbem/log/ending.py). One transaction each, as a move: lock the game, record the
event, then what follows from it: a resigned seat's links spent and its moves played for it
from now on, the others asked to agree, or the game over and everyone told.
"""
from __future__ import annotations

import datetime as dt

from flask_babel import gettext as _

from ..db.models import Game, Seat, utcnow
from ..errors import Refusal
from ..games import IllegalAction
from ..log import ending, store
from . import announce, clock, links, outbox, pace


class EndingRefused(Refusal):
    """The seat may not resign or answer now (the reason says why)."""

    status = 409


def resign(game_id: int, seat: int, now: dt.datetime | None = None) -> Game:
    """`seat` resigns (see pbem/log/ending.py); the game, after it."""
    return _end(game_id, seat, dict(ending.RESIGN), now)


def abandon(game_id: int, seat: int, agree: bool, now: dt.datetime | None = None) -> Game:
    """`seat` proposes or agrees to abandon the game (`agree`), or declines; the game after."""
    return _end(game_id, seat, {"type": "abandon", "agree": bool(agree)}, now)


def _end(game_id: int, seat: int, action: dict, now: dt.datetime | None) -> Game:
    now = now or utcnow()
    with outbox.transaction():
        game = store.locked_game(game_id)
        if game.status != "running":
            raise EndingRefused(_("The game is over."))
        rules = store.rules_of(game)
        state = rules.load(game.state)
        seats = store.seats_of(game)
        store.reads(game, seats)
        before = rules.to_act(state)
        proposed = bool(ending.of(game.ending)["agreed"])
        try:
            store.end_together(game, rules, seat, action, [s.index for s in seats
                                                           if s.bot_level is not None])
        except IllegalAction as exc:
            raise EndingRefused(str(exc)) from None
        store.save(game, rules, state)
        if game.status == "over":
            clock.after_change(game, [], before, set(), now, seats)
            announce.after_change(game, rules, state, before=before, seats=seats, at=now)
        elif action["type"] == "resign":
            _played_for_from_now(game, seats[seat], now)
        elif action["agree"] and not proposed:
            announce.asked_to_abandon(game, seats, seat)
    return store.get_game(game_id)


def _played_for_from_now(game: Game, seat: Seat, now: dt.datetime) -> None:
    """A resigned seat: its links spent, its moves played by its defaults from now on (by the
    computer where the game's timeout policy is the computer), at once where it is asked."""
    links.spend(game, [seat.index], "resigned", by="resigned")
    Seat.update(dropped=True, handed_over=False, late_at=None).where(Seat.id == seat.id).execute()
    seat.dropped, seat.handed_over, seat.late_at = True, False, None
    pace.settle(store.get_game(game.id), now)
