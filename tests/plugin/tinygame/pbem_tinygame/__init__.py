"""Higher card: a tiny trick-taking game with hidden hands, a game for pbem from outside it.

Each player is dealt `hand` cards (numbered 1 up) from a shuffled deck; the rest of the deck
stays hidden. The leader, drawn from the seed, plays a card face up, then each player in turn
order. The highest card takes the trick, and its player leads the next one. When the hands are
empty, the most tricks win (a tie shares the place). A player with one card left can only
play it: everyone sees how many cards each holds, so the server plays it at once (a forced
move that follows from public information). The cards played so far are public; `determinize`
deals the ones a seat cannot see at random (the computer players search with it, and pbem's
tests redraw a seat's secrets with it).

The actions: {"type": "play", "card": n}.
"""
from __future__ import annotations

import random

from pbem.games import IllegalAction
from pbem.games.base import _, copy_json

EXTRA_CARDS = 4     # cards left in the deck, never dealt: a hand cannot be told from the others


class HigherCard:
    name = "tinygame"
    title = "Higher card"
    version = 1
    min_players = 2
    max_players = 3
    options = {"hand": 3}

    def setup(self, players: int, seed: int, options: dict | None = None) -> dict:
        hand = {**self.options, **(options or {})}["hand"]
        if not 1 <= hand <= 5:
            raise IllegalAction(f"a hand is 1 to 5 cards, not {hand}")
        rng = random.Random(seed)
        deck = list(range(1, players * hand + EXTRA_CARDS + 1))
        rng.shuffle(deck)
        hands = [sorted(deck[seat * hand:(seat + 1) * hand]) for seat in range(players)]
        leader = rng.randrange(players)
        return {"players": players, "hands": hands, "deck": deck[players * hand:],
                "leader": leader, "active": leader, "trick": [], "last_trick": [],
                "tricks": [0] * players, "played": []}

    # -- whose turn, and what they may do ---------------------------------------------------------

    def is_over(self, state: dict) -> bool:
        return not any(state["hands"])

    def to_act(self, state: dict) -> list[int]:
        return [] if self.is_over(state) else [state["active"]]

    def legal_actions(self, state: dict, seat: int) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        return [{"type": "play", "card": card} for card in state["hands"][seat]]

    def default_action(self, state: dict, seat: int) -> dict:
        """At a deadline the lowest card is played: it gives away the least."""
        return {"type": "play", "card": min(state["hands"][seat])}

    # -- playing a card ------------------------------------------------------------------------------

    def apply(self, state: dict, seat: int, action: dict) -> dict:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(_("That card is not yours to play now."))
        state = copy_json(state)
        state["hands"][seat].remove(action["card"])
        state["trick"].append([seat, action["card"]])
        state["played"].append(action["card"])
        if len(state["trick"]) < state["players"]:
            state["active"] = (seat + 1) % state["players"]
            return state
        winner = self.trick_winner(state["trick"])
        state["tricks"][winner] += 1
        state["last_trick"], state["trick"] = state["trick"], []
        state["leader"] = state["active"] = winner
        return state

    def trick_winner(self, trick: list) -> int:
        """The seat whose card is the highest of the trick."""
        return max(trick, key=lambda played: played[1])[0]

    # -- what each seat sees ---------------------------------------------------------------------------

    def view(self, state: dict, seat: int | None) -> dict:
        over = self.is_over(state)
        seen = {"hand_sizes": [len(hand) for hand in state["hands"]], "trick": state["trick"],
                "last_trick": state["last_trick"], "tricks": state["tricks"],
                "leader": state["leader"], "to_act": self.to_act(state),
                "played": sorted(state["played"])}
        if seat is not None:
            seen["hand"] = list(state["hands"][seat])
            if seat in seen["to_act"]:
                seen["prompt"] = _("Play a card")
        if over:
            seen["deck"] = list(state["deck"])      # the undealt cards, shown at the end
        return seen

    def determinize(self, view: dict, seat: int | None, rng: random.Random) -> dict:
        """A state whose view for `seat` is `view`: the cards nobody played and `seat` does not
        hold (the others' hands, the undealt ones) are dealt at random from `rng`."""
        sizes, hand = view["hand_sizes"], view.get("hand", [])
        cards = range(1, sum(sizes) + len(view["played"]) + EXTRA_CARDS + 1)
        unseen = [card for card in cards if card not in hand and card not in view["played"]]
        rng.shuffle(unseen)
        hands = []
        for other, size in enumerate(sizes):
            hands.append(list(hand) if other == seat else sorted(unseen[:size]))
            unseen = unseen[size:]
        return {"players": len(sizes), "hands": hands, "deck": view.get("deck", unseen),
                "leader": view["leader"], "active": (view["to_act"] or [view["leader"]])[0],
                "trick": copy_json(view["trick"]), "last_trick": copy_json(view["last_trick"]),
                "tricks": list(view["tricks"]), "played": list(view["played"])}

    def result(self, state: dict) -> dict | None:
        if not self.is_over(state):
            return None
        counts = sorted(set(state["tricks"]), reverse=True)
        ranking = [[seat for seat, won in enumerate(state["tricks"]) if won == count]
                   for count in counts]
        return {"ranking": ranking, "scores": list(state["tricks"]),
                "undealt_cards": sorted(state["deck"])}

    def describe(self, state: dict, seat: int, action: dict) -> str:
        line = _("%(player)s plays %(card)s") % {"player": f"{{p{seat}}}", "card": action["card"]}
        trick = state["trick"] + [[seat, action["card"]]]
        if len(trick) == state["players"]:
            winner = self.trick_winner(trick)
            line += "; " + _("%(player)s takes the trick") % {"player": f"{{p{winner}}}"}
        return line

    def dump(self, state: dict) -> dict:
        return copy_json(state)

    def load(self, data: dict) -> dict:
        return copy_json(data)


rules = HigherCard()
