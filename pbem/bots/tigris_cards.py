"""Euphrat & Tigris: the card game for the search: its own scoring ("A győztes"), the weakest
colour of a seat's scored cards with treasures wild, plus log(1 + n) of every colour: a
concave sum, so that of two colours tied at the bottom raising one is already worth something
(with weights on the sorted colours, [0, 0, 8, 12] gained almost nothing from a first black
card and the bot left two colours empty)."""
from __future__ import annotations

import math

from pbem.games.tigris_cards.scoring import colour_counts, strength_key, with_treasures

from .heuristic import Heuristic



def values(state) -> list[float]:
    out = []
    for pile in state["piles"]:
        colours = strength_key(with_treasures(colour_counts(pile)))
        out.append(colours[0] + sum(math.log1p(v) for v in colours))
    return out


HEURISTIC = Heuristic(
    values=values, scale=1.5, depth=10,
    weights={"card": 4.0, "leader": 1.5, "catastrophe": 0.1, "pass": 0.05,
             "score": 3.0, "no_score": 1.0, "ship": 3.0, "no_ship": 1.0})
