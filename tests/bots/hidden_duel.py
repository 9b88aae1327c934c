"""The toy game with its hands hidden and a `determinize` of its own (tests only).

`tests/toygame.py`'s Duel hides the other hands and the deck's order; its view lacks the turn
and the number of rounds, which a determinization needs and every player knows, so this
variant shows them. Determinizing deals the cards the seat has not seen (all cards but its
own hand and the attacking card) to the other hands, by their public sizes, and to the deck.
"""
from __future__ import annotations

from pbem.games.base import copy_json
from tests.toygame import Duel


class Copyable(dict):
    """A state as Duel's `apply` gets it here: its `copy.deepcopy` copies the state's lists by
    their known shape (the rest is numbers and flags; a state of another shape is copied by
    `copy_json`): the same copy, several times sooner. The searches of these tests apply some
    100,000 moves, and the generic deep copy was most of their time."""
    __slots__ = ()
    SHAPE = {"players", "deck", "hands", "scores", "active", "turn", "attack", "rounds",
             "open_hands", "over"}

    def __deepcopy__(self, memo):
        copied = dict(self)
        if copied.keys() != self.SHAPE or not all(type(hand) is list for hand in copied["hands"]):
            return copy_json(copied)
        copied["deck"], copied["scores"] = copied["deck"][:], copied["scores"][:]
        copied["hands"] = [hand[:] for hand in copied["hands"]]
        return copied


class HiddenDuel(Duel):
    name = "hidden_duel"
    title = "Duel with hidden hands (test game)"

    def apply(self, s, seat, action):
        return super().apply(Copyable(s), seat, action)

    def view(self, s, seat):
        out = super().view(s, seat)
        out.update(players=s["players"], turn=s["turn"], rounds=s["rounds"],
                   active=s["active"])
        return out

    def determinize(self, view, seat, rng):
        players = view["players"]
        seen = set(view["hand"]) | ({view["attack"]} if view["attack"] is not None else set())
        unseen = [c for c in range(1, 6 * players + 7) if c not in seen]
        rng.shuffle(unseen)
        hands = []
        for s in range(players):
            if s == seat:
                hands.append(list(view["hand"]))
            else:
                size = view["hand_sizes"][s]
                hands.append(sorted(unseen[:size]))
                unseen = unseen[size:]
        return {"players": players, "deck": unseen, "hands": hands,
                "scores": list(view["scores"]), "active": view["active"], "turn": view["turn"],
                "attack": view["attack"], "rounds": view["rounds"], "open_hands": False,
                "over": view["over"]}


rules = HiddenDuel()
