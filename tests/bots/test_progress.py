"""Between moves the search values alike, the computer makes progress (issue: two level-2
players of the card game moved leaders about for thousands of actions, the deck never moving,
because each valued that a little over placing a card)."""
from __future__ import annotations

import dataclasses
import random

from pbem.bots import heuristic_for
from pbem.bots.search import ALIKE, Policy, Search
from pbem.games import RULES


def searched(means: dict[str, float], progress=("card", "catastrophe", "score")):
    """A search of a card game's first decision whose root children have these mean rewards
    (by action kind; the leader move the most chosen)."""
    rules = RULES["tigris_cards"]
    state = rules.setup(2, 1)
    seat = rules.to_act(state)[0]
    actions = rules.legal_actions(state, seat)
    heuristic = dataclasses.replace(heuristic_for(rules), progress=progress)
    search = Search(rules, rules.view(state, seat), seat, actions, random.Random(1), heuristic,
                    Policy())
    picked = {}
    for key, action in search.root_moves:
        if action["type"] in means and action["type"] not in picked:
            picked[action["type"]] = action
            child = search.root.children[key] = type(search.root)(seat, action)
            child.visits = 60 if action["type"] == "leader" else 30
            child.reward = means[action["type"]] * child.visits
    return search, picked


def test_a_card_valued_alike_wins_over_moving_a_leader():
    search, picked = searched({"leader": 0.52, "card": 0.52 - ALIKE / 2})
    assert search.best() == picked["card"]


def test_a_card_clearly_worse_does_not():
    search, picked = searched({"leader": 0.52, "card": 0.52 - 3 * ALIKE})
    assert search.best() == picked["leader"]


def test_a_game_without_progress_kinds_keeps_the_most_chosen():
    search, picked = searched({"leader": 0.52, "card": 0.52}, progress=())
    assert search.best() == picked["leader"]
