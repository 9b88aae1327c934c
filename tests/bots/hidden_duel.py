"""The toy game with its hands hidden and a `determinize` of its own (tests only).

`tests/toygame.py`'s Duel hides the other hands and the deck's order; its view lacks the turn
and the number of rounds, which a determinization needs and every player knows, so this
variant shows them. Determinizing deals the cards the seat has not seen (all cards but its
own hand and the attacking card) to the other hands, by their public sizes, and to the deck.
"""
from __future__ import annotations

from tests.toygame import Duel


class HiddenDuel(Duel):
    name = "hidden_duel"
    title = "Duel with hidden hands (test game)"

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
