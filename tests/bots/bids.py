"""Bids: a test game whose seats decide at once, each bid hidden until all have bid.

Every round each seat secretly bids 1..3 (`to_act` names every seat yet to bid). The highest
bid that no one else made scores its value; a seat that bid 1 while nobody bid 1 scores 1
more. After `rounds` rounds the most points win. `determinize` draws the bids the seat has
not seen.
"""
from __future__ import annotations

from pbem.games.base import IllegalAction

BIDS = (1, 2, 3)


class Bids:
    name = "bids"
    title = "Bids (test game)"
    version = 1
    min_players = 2
    max_players = 3
    options = {"rounds": 3}

    def setup(self, players, seed, options=None):
        options = {**self.options, **(options or {})}
        return {"players": players, "bids": [None] * players, "scores": [0] * players,
                "round": 0, "rounds": options["rounds"]}

    def to_act(self, s):
        if s["round"] >= s["rounds"]:
            return []
        return [seat for seat, bid in enumerate(s["bids"]) if bid is None]

    def legal_actions(self, s, seat):
        if seat not in self.to_act(s):
            return []
        return [{"type": "bid", "bid": b} for b in BIDS]

    def apply(self, s, seat, action):
        if action not in self.legal_actions(s, seat):
            raise IllegalAction(f"{action!r} is not legal for seat {seat}")
        s = {**s, "bids": list(s["bids"]), "scores": list(s["scores"])}
        s["bids"][seat] = action["bid"]
        if None not in s["bids"]:
            self._score(s)
            s["bids"] = [None] * s["players"]
            s["round"] += 1
        return s

    @staticmethod
    def _score(s):
        bids = s["bids"]
        unique = [b for b in bids if bids.count(b) == 1]
        if unique:
            s["scores"][bids.index(max(unique))] += max(unique)
        if 1 in unique:
            s["scores"][bids.index(1)] += 1

    def view(self, s, seat):
        return {"players": s["players"], "round": s["round"], "rounds": s["rounds"],
                "scores": list(s["scores"]), "to_act": self.to_act(s),
                "bid": s["bids"][seat] if seat is not None else None,
                "has_bid": [b is not None for b in s["bids"]]}

    def determinize(self, view, seat, rng):
        bids = [rng.choice(BIDS) if done else None for done in view["has_bid"]]
        bids[seat] = view["bid"]
        return {"players": view["players"], "bids": bids, "scores": list(view["scores"]),
                "round": view["round"], "rounds": view["rounds"]}

    def result(self, s):
        if self.to_act(s):
            return None
        by_score = sorted(set(s["scores"]), reverse=True)
        return {"ranking": [[i for i, v in enumerate(s["scores"]) if v == top]
                            for top in by_score]}

    def describe(self, s, seat, action):
        return f"{{p{seat}}} bid."

    def dump(self, s):
        return {**s, "bids": list(s["bids"]), "scores": list(s["scores"])}

    def load(self, data):
        return self.dump(data)

    def default_action(self, s, seat):
        return {"type": "bid", "bid": 1}


rules = Bids()
