"""A rematch: once a game is over, anyone at its table may ask for the same game again: the
same players (the computer's seats at their levels), options and pace, a new seed, the seats
shuffled, an invitation to each. At most one rematch a game (`Game.rematch_of`, unique): a
second asker, or two at once, are led to the same one."""
from __future__ import annotations

import random

from flask_babel import gettext as _

from ..db.models import Game, Seat
from ..errors import Refusal
from ..log import store
from . import creation, outbox

SHUFFLE = random.SystemRandom()


class RematchRefused(Refusal):
    status = 409


def rematch_of(game_id: int) -> Game | None:
    """The rematch already made of game `game_id`, if any."""
    return Game.get_or_none(Game.rematch_of == game_id)


def ask(game_id: int, seat: int) -> tuple[Game, bool]:
    """The rematch of finished game `game_id`, asked by the player of `seat`: (the game,
    whether this request made it). The new game's host is the old one's (else the asker)."""
    with outbox.transaction():
        game = store.locked_game(game_id)       # two askers at once: one makes it
        if game.status != "over":
            raise RematchRefused(_("A rematch can be asked for once the game is over."))
        made = rematch_of(game.id)
        if made is not None:
            return made, False
        seats = list(Seat.select().where(Seat.game == game).order_by(Seat.index))
        players = [_player(s) for s in seats]
        SHUFFLE.shuffle(players)
        asker = seats[seat].email if 0 <= seat < len(seats) else ""
        new, _host = creation.create_game(
            game.rules, players, dict(game.options or {}), host_email=game.host_email or asker,
            pace={"days": game.pace_days, "on_timeout": game.on_timeout,
                  "drop_after": game.drop_after, "quiet_hours": game.quiet_hours,
                  "bank": game.bank})
        Game.update(rematch_of=game.id).where(Game.id == new.id).execute()
        return store.get_game(new.id), True


def _player(seat: Seat) -> dict:
    if seat.bot_level is not None:
        return {"computer": seat.bot_level, "language": seat.language}
    return {"name": seat.name, "email": seat.email, "language": seat.language}
