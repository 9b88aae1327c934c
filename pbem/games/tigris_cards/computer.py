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

from pbem.bots.heuristic import Heuristic

from .cards import CARD_COLOUR, COLOURS, TOTAL_CARDS, is_treasure
from .cards import colour_of
from .engine import strengths
from .table import column_leaders

LEADER_WORTH = 0.6      # a leader on the table, against a scored card's 1 + log terms


def leaders_out(state) -> list[int]:
    """How many leaders each seat has standing on the table."""
    out = [0] * state["players"]
    for column in state["columns"]:
        for _row, leader in column_leaders(column):     # kept by the frozen columns
            out[leader[0]] += 1
    for slot in state["gaps"]:
        if slot is not None and "leader" in slot:
            out[slot["leader"][0]] += 1
    return out


def pile_value(pile: list[int]) -> float:
    """The weakest colour of a pile (treasures wild) plus log(1 + n) of every colour."""
    counts = [0, 0, 0, 0]
    treasures = 0
    for card in pile:
        index = FACE_INDEX[card]
        if index < 0:
            treasures += 1
        else:
            counts[index] += 1
    for _ in range(treasures):  # as `with_treasures`: one by one onto the weakest colour
        counts[counts.index(min(counts))] += 1
    return min(counts) + sum(map(LOG1P.__getitem__, counts))


FACE_INDEX = tuple(-1 if is_treasure(card) else COLOURS.index(CARD_COLOUR[card])
                   for card in range(TOTAL_CARDS))
LOG1P = tuple(math.log1p(n) for n in range(TOTAL_CARDS + 1))


def values(state) -> list[float]:
    leaders = leaders_out(state)
    return [pile_value(pile) + LEADER_WORTH * leaders[seat]
            for seat, pile in enumerate(state["piles"])]


def lost(after, seat: int) -> bool:
    """A conflict the seat started as attacker (a leader placed beside its rival, a card
    joining two kingdoms) that it cannot win: its base and every card of the conflict's colour
    in its hand do not beat the defender's base alone (ties go to the defender)."""
    conflict = after.get("conflict")
    if not conflict or conflict["stage"] != "attack" or conflict["attacker"] != seat:
        return False
    attack, defence = conflict["base"]
    colour = conflict["colour"]
    held = sum(1 for card in after["hands"][seat] if colour_of(card) == colour)
    return attack + held <= defence


def sensible(state, seat: int, actions: list[dict]) -> list[dict]:
    """The commits to a conflict that can change its outcome (ties go to the defender; the
    winner keeps one card it played, on its victory pile, the others are discarded): the
    defender commits nothing, or just what wins (at least one card: it scores); a defence
    short of winning throws its cards away, a bigger one throws away the extra. The attacker,
    who commits first, keeps every count up to the one that wins whatever the defender holds
    (its base with a whole hand, the hand's size in view). Other decisions: as they are."""
    pending = state["pending"]
    if pending is None or pending["kind"] != "commit" or len(actions) < 2:
        return actions
    conflict = state["conflict"]
    attack, defence = strengths(conflict)
    if conflict["stage"] == "defend":
        keep = range(0, max(1, attack - defence) + 1, max(1, attack - defence))
    else:
        sure = defence + len(state["hands"][conflict["defender"]]) - attack + 1
        keep = range(0, max(1, sure) + 1)
    kept = [action for action in actions
            if action["type"] != "commit" or action["count"] in keep]
    return kept or actions


HEURISTIC = Heuristic(
    lost=lost, conflicts=("leader", "card"), sensible=sensible,
    progress=("card", "catastrophe", "score"),
    values=values, scale=1.5, depth=10,
    weights={"card": 4.0, "leader": 1.5, "catastrophe": 0.1, "pass": 0.05,
             "score": 3.0, "no_score": 1.0, "ship": 3.0, "no_ship": 1.0})
