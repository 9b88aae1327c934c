"""Assyria for the search: the points so far, the game end's (+1 a ziggurat piece, +1 a plow
held, +1 for two camels, counted smoothly as half a point a camel), and the prestige a seat's
huts and ziggurats will score at the next income (worth half: huts on a river are lost at the
flood, and the others may be). All of it is public."""
from __future__ import annotations

from pbem.games.assyria.engine import REIGNS, TURNS_PER_REIGN, final_points, prestige

from .heuristic import Heuristic

NEXT_PRESTIGE = 0.5


def values(state) -> list[float]:
    if state["final"] is not None:          # already counted into the score
        return [float(v) for v in state["score"]]
    last_turn = (state["reign"], state["turn"], state["phase"]) == \
        (REIGNS, TURNS_PER_REIGN[REIGNS], "actions")      # no income is left to come
    out = []
    for seat in range(state["players"]):
        end = final_points(state, seat)
        value = state["score"][seat] + end["ziggurat_pieces"] + end["plow"]
        value += state["camels"][seat] / 2
        if not last_turn:
            value += NEXT_PRESTIGE * prestige(state, seat)
        out.append(value)
    return out


HEURISTIC = Heuristic(
    values=values, scale=4.0, depth=12,
    weights={"well": 3.0, "end_wells": 1.0, "build": 3.0, "extend": 3.0, "dignitary": 2.0,
             "offering": 1.0, "buy_food": 0.5, "buy_plow": 0.5, "end_actions": 0.3})
