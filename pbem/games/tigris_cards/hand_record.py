"""What a careful player writes down of the other hands (rules version 3): for a seat and a
colour, at most how many cards of it the seat holds, if its answers meant what they say.

A seat that declines a point or a won conflict's card of a colour ("no_score"), or loses a
defence with what it committed, most likely holds no more of that colour: the record notes 0;
one that refuses the trader's exchange (a treasure for a red card) most likely holds no red.
Each card it draws afterwards may be of that colour (+1), each card of that colour it then
plays in view leaves its hand (-1); a bound of a whole hand (HAND_SIZE) says nothing and is
dropped, and a card played that the bound says it cannot hold proves the reading wrong (the
note is dropped too). Declining and having none look alike by our ruling, so this is a belief,
not a fact: a player may keep a card for a conflict to come. The determinization weighs it
(`determinize.BELIEF`); the page shows it as "counted from the log".

Everything here is public: the answers, the cards drawn (hand sizes), the cards played face
up. A connecting card is placed face down, so it does not count against the bound (a bound
stays true when any card leaves a hand).
"""
from __future__ import annotations

from .cards import HAND_SIZE

RECORD = "at_most"      # the state's and the view's key: per seat, colour -> at most n in hand


def new_record(players: int) -> list[dict]:
    return [{} for _ in range(players)]


def believes_none(st: dict, seat: int, colour: str) -> None:
    """The seat declined a card of `colour`, or lost a defence in it."""
    if RECORD in st:
        st[RECORD][seat][colour] = 0


def played_in_view(st: dict, seat: int, colour: str) -> None:
    """A card of `colour` left the seat's hand face up."""
    if RECORD not in st:
        return
    bounds = st[RECORD][seat]
    most = bounds.get(colour)
    if most is None:
        return
    if most > 0:
        bounds[colour] = most - 1
    else:                       # it held one after all: the reading was wrong
        del bounds[colour]


def drew(st: dict, seat: int, cards: int) -> None:
    """The seat drew `cards` cards: each may be of any colour noted."""
    if RECORD not in st or not cards:
        return
    bounds = st[RECORD][seat]
    for colour, most in list(bounds.items()):
        if most + cards >= HAND_SIZE:
            del bounds[colour]
        else:
            bounds[colour] = most + cards
