"""Duel: a small game that exercises the server (it lives in tests only, never in production).

Each player holds 3 hidden cards. On your turn you attack the next player with a card; they
block with a higher card (1 point to them) or yield (the card's value to you). A defender with
no higher card can only yield: a forced move. Played cards go under the deck. After `rounds`
rounds the most points win.
"""
from __future__ import annotations

import copy
import random

from pbem.games.base import IllegalAction

HAND = 3


class Duel:
    name = "duel"
    title = "Duel (test game)"
    version = 1
    min_players = 2
    max_players = 3
    options = {"rounds": 2, "open_hands": False}

    def setup(self, players, seed, options=None):
        options = {**self.options, **(options or {})}
        deck = list(range(1, 6 * players + 7))
        random.Random(seed).shuffle(deck)
        hands = [sorted(deck[HAND * i:HAND * (i + 1)]) for i in range(players)]
        return {"players": players, "deck": deck[HAND * players:], "hands": hands,
                "scores": [0] * players, "active": 0, "turn": 0, "attack": None,
                "rounds": options["rounds"], "open_hands": options["open_hands"], "over": False}

    def to_act(self, s):
        if s["over"]:
            return []
        if s["attack"] is not None:
            return [self._defender(s)]
        return [s["active"]]

    def _defender(self, s):
        return (s["active"] + 1) % s["players"]

    def legal_actions(self, s, seat):
        if seat not in self.to_act(s):
            return []
        if s["attack"] is None:
            return [{"type": "attack", "card": c} for c in s["hands"][seat]]
        blocks = [{"type": "block", "card": c} for c in s["hands"][seat] if c > s["attack"]]
        return blocks + [{"type": "yield"}]

    def apply(self, s, seat, action):
        if action not in self.legal_actions(s, seat):
            raise IllegalAction(f"{action!r} is not a legal action for seat {seat} now")
        s = copy.deepcopy(s)
        if action["type"] == "attack":
            s["hands"][seat].remove(action["card"])
            s["attack"] = action["card"]
            return s
        attacker = s["active"]
        s["deck"].append(s["attack"])
        if action["type"] == "block":
            s["hands"][seat].remove(action["card"])
            s["deck"].append(action["card"])
            s["scores"][seat] += 1
        else:
            s["scores"][attacker] += s["attack"]
        s["attack"] = None
        for who in (attacker, seat):
            while len(s["hands"][who]) < HAND and s["deck"]:
                s["hands"][who].append(s["deck"].pop(0))
            s["hands"][who].sort()
        s["turn"] += 1
        s["active"] = (attacker + 1) % s["players"]
        if s["turn"] >= s["rounds"] * s["players"] or not s["hands"][s["active"]]:
            s["over"] = True
        return s

    def view(self, s, seat):
        show_all = s["over"] or s["open_hands"]
        return {
            "seat": seat, "to_act": self.to_act(s), "over": s["over"],
            "hand": s["hands"][seat] if seat is not None else None,
            "hands": s["hands"] if show_all else None,
            "hand_sizes": [len(h) for h in s["hands"]],
            "scores": s["scores"], "deck": len(s["deck"]), "attack": s["attack"],
            "prompt": self._prompt(s, seat),
        }

    def _prompt(self, s, seat):
        if seat not in self.to_act(s):
            return None
        return "Your turn: attack" if s["attack"] is None else f"Defend against a {s['attack']}"

    def result(self, s):
        if not s["over"]:
            return None
        by_score = sorted(set(s["scores"]), reverse=True)
        ranking = [[i for i, sc in enumerate(s["scores"]) if sc == v] for v in by_score]
        return {"ranking": ranking, "scores": s["scores"]}

    def describe(self, s, seat, action):
        if action["type"] == "attack":
            return f"{{p{seat}}} attacked {{p{self._defender(s)}}} with a {action['card']}."
        if action["type"] == "block":
            return f"{{p{seat}}} blocked with a {action['card']} and scored 1 point."
        return f"{{p{seat}}} yielded: {{p{s['active']}}} scored {s['attack']} points."

    def dump(self, s):
        return copy.deepcopy(s)

    def load(self, data):
        return copy.deepcopy(data)

    def determinize(self, view, seat, rng):
        """A state whose view for `seat` is `view`: the cards it cannot see (the other hands,
        the deck) dealt at random from `rng` (the leak test redraws a seat's secrets so)."""
        players = len(view["hand_sizes"])
        shown = view["hands"] or [view["hand"] if s == seat else None for s in range(players)]
        known = {card for hand in shown if hand for card in hand} | {view["attack"]}
        unseen = [card for card in range(1, 6 * players + 7) if card not in known]
        rng.shuffle(unseen)
        hands = []
        for other, size in enumerate(view["hand_sizes"]):
            hands.append(list(shown[other]) if shown[other] is not None
                         else sorted(unseen[:size]))
            unseen = unseen[0 if shown[other] is not None else size:]
        waiting = view["to_act"][0] if view["to_act"] else 0
        active = waiting if view["attack"] is None else (waiting - 1) % players
        return {"players": players, "deck": unseen, "hands": hands, "scores": list(view["scores"]),
                "active": active, "turn": 0, "attack": view["attack"], "rounds": 99,
                "open_hands": view["hands"] is not None and not view["over"],
                "over": view["over"]}

    def default_action(self, s, seat):
        """At a deadline: attack with the lowest card; a defender yields."""
        if s["attack"] is None:
            return {"type": "attack", "card": s["hands"][seat][0]}
        return {"type": "yield"}


rules = Duel()
