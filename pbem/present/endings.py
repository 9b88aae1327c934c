"""What a seat's page offers to end the game together (the rulings: pbem/log/ending.py): who
resigned, the proposal to abandon the game and who agreed, and the forms to resign, propose,
agree or decline, for the seat whose link may speak for it."""
from __future__ import annotations

from ..db.models import Game, Seat
from ..log import ending


def box(game: Game, seat: int, seats: list[Seat], names: list[str],
        may_speak: bool = True) -> dict | None:
    """The page's "End the game together" part for `seat`; None once the game is over.
    `may_speak`: the page's link may resign or answer (links.speaks_for_ending)."""
    if game.status != "running":
        return None
    now = ending.of(game.ending)
    computers = [s.index for s in seats if s.bot_level is not None]
    voters = ending.voters(now, game.players, computers)
    return {
        "resigned": [names[s] for s in now["resigned"]],
        "you_resigned": seat in now["resigned"],
        "proposed_by": names[now["agreed"][0]] if now["agreed"] else None,
        "agreed": [names[s] for s in now["agreed"]],
        "waiting": [names[s] for s in voters if s not in now["agreed"]] if now["agreed"] else [],
        "you_agreed": seat in now["agreed"],
        "may_answer": may_speak and seat in voters,
    }
