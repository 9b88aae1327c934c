"""Reading a game from the store: its rules and state, its row, its seats and their names."""
from __future__ import annotations

from ..db.models import Game, Seat
from ..db.prepared import Prepared
from ..errors import Refusal
from ..games import RULES
from ..games.base import _


class NotFound(Refusal):
    status = 404


def rules_of(game: Game):
    try:
        return RULES[game.rules]
    except KeyError:
        raise NotFound(f"game {game.id} uses rules {game.rules!r}, which this server lacks")


def state_of(game: Game):
    return rules_of(game).load(game.state)


GAME_BY_ID = Prepared(Game, lambda game_id: Game.select().where(Game.id == game_id).limit(1))
SEATS_OF_GAME = Prepared(Seat, lambda game_id: Seat.select().where(Seat.game == game_id)
                         .order_by(Seat.index))


def find_game(game_id) -> Game | None:
    """The game, or None when there is none of that id."""
    try:
        return get_game(game_id)
    except NotFound:
        return None


def get_game(game_id) -> Game:
    game = (GAME_BY_ID.first(game_id) if type(game_id) is int
            else Game.get_or_none(Game.id == game_id))
    if game is None:
        raise NotFound(f"no game {game_id}")
    return game


def seats_of(game: Game) -> list[Seat]:
    """The game's seats in seat order: one query that a page can share among all it shows."""
    return SEATS_OF_GAME.models(game.id)


def names_of(game: Game, seats: list[Seat] | None = None) -> list[str]:
    return [seat_name(seat) for seat in (seats_of(game) if seats is None else seats)]


def seat_name(seat: Seat) -> str:
    """The seat's name as pages and mails show it: a computer's in the language spoken."""
    if getattr(seat, "bot_level", None) is None:
        return seat.name
    return computer_name(seat.bot_level)


def computer_name(level: int) -> str:
    return _("Computer (level {level})").replace("{level}", str(level))
