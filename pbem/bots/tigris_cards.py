"""Euphrat & Tigris: the card game for the search: its own scoring ("A győztes"), the weakest
colour of a seat's scored cards with treasures wild, plus log(1 + n) of every colour: a
concave sum, so that of two colours tied at the bottom raising one is already worth something
(with weights on the sorted colours, [0, 0, 8, 12] gained almost nothing from a first black
card and the bot left two colours empty).

And the leaders a seat has on the table: points come only to a leader's owner ("a leader
scores the cards of its colour placed in its kingdom"), so a position with a leader out is
worth more than one without, long before the first point. A search of a few dozen iterations
with ten-action playouts could not see that: without this term the bot placed card after card
with no leader out, scoring for its opponent's leaders, and lost most games to a random player
(3 of 8 at 25 iterations a decision, 1 of 10 at 0.2 s on a loaded machine); with it, it won
every one of the same seeds (bench_bots prints the figures).
"""
from __future__ import annotations

import math

from pbem.games.tigris_cards.scoring import colour_counts, strength_key, with_treasures

from .heuristic import Heuristic

LEADER_WORTH = 0.6      # a leader on the table, against a scored card's 1 + log terms


def leaders_out(state) -> list[int]:
    """How many leaders each seat has standing on the table."""
    out = [0] * state["players"]
    for column in state["columns"]:
        for slot in column:
            leader = slot.get("leader")
            if leader:
                out[leader[0]] += 1
    for slot in state["gaps"]:
        leader = slot.get("leader") if slot else None
        if leader:
            out[leader[0]] += 1
    return out


def values(state) -> list[float]:
    out = []
    leaders = leaders_out(state)
    for seat, pile in enumerate(state["piles"]):
        colours = strength_key(with_treasures(colour_counts(pile)))
        out.append(colours[0] + sum(math.log1p(v) for v in colours)
                   + LEADER_WORTH * leaders[seat])
    return out


HEURISTIC = Heuristic(
    values=values, scale=1.5, depth=10,
    weights={"card": 4.0, "leader": 1.5, "catastrophe": 0.1, "pass": 0.05,
             "score": 3.0, "no_score": 1.0, "ship": 3.0, "no_ship": 1.0})
