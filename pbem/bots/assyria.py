"""Assyria for the search: the points so far plus the game end's (+1 a ziggurat piece, +1 a
plow held, +1 for two camels), all of them public."""
from __future__ import annotations

from pbem.games.assyria.engine import final_points

from .heuristic import Heuristic


def values(state) -> list[float]:
    if state["final"] is not None:          # already counted into the score
        return [float(v) for v in state["score"]]
    return [state["score"][seat] + sum(final_points(state, seat).values())
            for seat in range(state["players"])]


HEURISTIC = Heuristic(
    values=values, scale=4.0, depth=12,
    weights={"well": 3.0, "end_wells": 1.0, "build": 3.0, "extend": 3.0, "dignitary": 2.0,
             "offering": 1.0, "buy_food": 0.5, "buy_plow": 0.5, "end_actions": 0.3})
