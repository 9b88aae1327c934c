"""A full Assyria state built from one seat's view, for computer players' search.

Almost everything in Assyria is open: the board, the tracks, the dignitaries, every hand, the
farming columns and the draft lie face up, and every card that reaches the discard pile was
played or left over in the open. What nobody sees is the order of the food deck and of the
expansion deck, and the seed that orders later reshuffles of the discards.
"""
from __future__ import annotations

import random
from collections import Counter

from pbem.games.base import copy_json

from . import engine as R
from .board import key


def determinize(view: dict, rng: random.Random) -> dict:
    """A state whose view for the view's own seat is `view`, built from the view alone.

    Inferred (public): the pieces on the board and the tracks as shown; the food cards in
    hands, farming columns, draft and discard pile by their kinds (cards of one kind are
    interchangeable, so each gets the lowest free card ids of its kind); the food deck holds
    the 40 cards less all of those, the expansion deck the nine expansion cards less those
    showing and those discarded; the seats still to act in this phase follow from the phase,
    the turn order and the active seat.
    Drawn from `rng`: the order of the food deck, the order of the expansion deck, and the
    seed of later reshuffles (the view's own seed once the game is over).
    """
    players = view["players"]
    ids = {kind: [] for kind in map(R.kind, range(len(R.CARDS)))}
    for card_id in range(len(R.CARDS)):
        ids[R.kind(card_id)].append(card_id)

    def take(kinds: list[str]) -> list[int]:
        return [ids[kind].pop(0) for kind in kinds]

    hands = [sorted(take(s["hand"])) for s in view["seats"]]
    columns = [take(column) for column in view["columns"]]
    draft = take(view["draft"])
    discards = sorted(take(view["discard_pile"]))
    food_deck = sorted(card_id for free in ids.values() for card_id in free)
    expansion_deck = sorted((Counter(R.EXPANSION_DECK + (R.EXPANSION_FIRST,))
                             - Counter(view["expansion"])
                             - Counter(view["expansion_discards"])).elements())
    rng.shuffle(food_deck)
    rng.shuffle(expansion_deck)
    seed = view["seed"] if "seed" in view else rng.randrange(2 ** 63)
    seats = view["seats"]
    state = {
        "players": players, "seed": seed, "shuffles": 0,
        "reign": view["reign"], "turn": view["turn"], "phase": view["phase"],
        "active": view["active"], "queue": still_to_act(view),
        "order": list(view["order"]), "food_deck": food_deck, "discards": discards,
        "expansion_deck": expansion_deck, "expansion": list(view["expansion"]),
        "expansion_discards": list(view["expansion_discards"]), "bonus": view["bonus"],
        "columns": columns, "column_of": list(view["column_of"]), "leftover": view["leftover"],
        "draft": draft, "hands": hands, "plows": [s["plow"] for s in seats],
        "plow_pile": view["plow_pile"], "camels": [s["camels"] for s in seats],
        "score": [s["score"] for s in seats], "offering": [s["offering"] for s in seats],
        "huts": {key(*h["hex"]): h["seat"] for h in view["huts"]},
        "ziggurats": {key(*z["hex"]): [z["seat"], z["level"]] for z in view["ziggurats"]},
        "wells": list(view["wells"]),
        "dignitaries": {name: list(slots) for name, slots in view["dignitaries"].items()},
        "to_place": view["to_place"], "fed": [key(*h) for h in view["fed"]],
        "played": dict(view["played"]),
        "bought_food": [s["bought_food"] for s in seats],
        "offered": [s["offered"] for s in seats], "raised": [key(*h) for h in view["raised"]],
        "assur": copy_json(view["assur"]), "final": copy_json(view["final"]),
    }
    return state


def still_to_act(view: dict) -> list[int]:
    """The seats after the active one in this phase: the turn order, backwards in the draft."""
    if view["active"] is None:
        return []
    order = view["order"][::-1] if view["phase"] == "draft" else view["order"]
    return list(order[order.index(view["active"]) + 1:])
