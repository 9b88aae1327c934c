"""Euphrat & Tigris: the card game for the search: its own scoring ("A győztes"), the weakest
colour of a seat's scored cards with treasures wild, then the next colours."""
from __future__ import annotations

from pbem.games.tigris_cards.scoring import colour_counts, strength_key, with_treasures

from .heuristic import Heuristic

COLOUR_WEIGHTS = (1.0, 0.4, 0.15, 0.05)


def values(state) -> list[float]:
    out = []
    for pile in state["piles"]:
        colours = strength_key(with_treasures(colour_counts(pile)))
        out.append(sum(w * v for w, v in zip(COLOUR_WEIGHTS, colours)))
    return out


HEURISTIC = Heuristic(
    values=values, scale=1.5, depth=10,
    weights={"card": 4.0, "leader": 1.5, "catastrophe": 0.1, "pass": 0.05,
             "score": 3.0, "no_score": 1.0, "ship": 3.0, "no_ship": 1.0})
