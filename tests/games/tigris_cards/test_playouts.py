"""Seeded random games to the end with invariant checks after every action."""
import json
import random

import pytest

from pbem.games.base import is_forced
from pbem.games.tigris_cards import rules
from pbem.games.tigris_cards.cards import COLOURS, TOTAL_CARDS
from pbem.games.tigris_cards.table import kingdoms, leaders_in, positions, slot_at

from .helpers import all_cards

SEEDS = {2: (1, 2, 3, 4), 3: (5, 6, 7, 8), 4: (9, 10, 11, 12)}


def choose(rng: random.Random, actions: list[dict]) -> dict:
    """A random player who likes placing cards: first a kind of action, then one of that kind
    (standing answers rarely)."""
    kinds = sorted({a["type"] for a in actions if a["type"] != "standing"})
    if len(actions) > len(kinds) and rng.random() < 0.03 and any(
            a["type"] == "standing" for a in actions):
        kind = "standing"
    elif "card" in kinds and rng.random() < 0.5:
        kind = "card"
    else:
        kind = rng.choice(kinds)
    return rng.choice([a for a in actions if a["type"] == kind])


def check_invariants(st: dict) -> dict:
    """The invariants of one position; its dump (the next action's check that apply leaves
    its input alone starts from it: the state is the same)."""
    assert sorted(all_cards(st)) == list(range(TOTAL_CARDS)), "every card exactly once"
    on_table = [tuple(slot_at(st, pos)["leader"]) for pos in positions(st)
                if "leader" in slot_at(st, pos)]
    assert len(on_table) == len(set(on_table)), "each leader in one place"
    for column in st["columns"]:
        assert "card" in column[0] and len(column) <= 9
    waiting = rules.to_act(st)
    for seat in range(st["players"]):
        actions = rules.legal_actions(st, seat)
        assert bool(actions) == (seat in waiting), "only seats in to_act have legal actions"
    if st["pending"] and st["pending"]["kind"] == "action" and st["conflict"] is None:
        for span in kingdoms(st):  # at rest no kingdom holds two leaders of one colour
            colours = [slot_at(st, p)["leader"][1] for p in positions(st, *span)
                       if "leader" in slot_at(st, p)]
            assert len(colours) == len(set(colours))
            assert set(leaders_in(st, span)) <= set(COLOURS)
    dumped = rules.dump(st)
    assert rules.load(dumped) == st
    assert rules.dump(rules.load(json.loads(json.dumps(dumped)))) == dumped
    return dumped


def reshuffle_others(st: dict, seat: int, rng: random.Random) -> dict:
    """Other seats' hands, the deck and the removed cards dealt anew (same sizes)."""
    st = rules.load(rules.dump(st))
    others = [s for s in range(st["players"]) if s != seat]
    pool = st["deck"] + st["removed"] + [c for s in others for c in st["hands"][s]]
    rng.shuffle(pool)
    for s in others:
        n = len(st["hands"][s])
        st["hands"][s], pool = pool[:n], pool[n:]
    n = len(st["deck"])
    st["deck"], st["removed"] = pool[:n], pool[n:]
    return st


def redeal_own(st: dict, seat: int, rng: random.Random) -> dict:
    """The seat's own hand dealt anew from the cards it cannot see (same size)."""
    st = rules.load(rules.dump(st))
    pool = st["deck"] + st["removed"] + st["hands"][seat]
    rng.shuffle(pool)
    n = len(st["hands"][seat])
    st["hands"][seat], pool = pool[:n], pool[n:]
    n = len(st["deck"])
    st["deck"], st["removed"] = pool[:n], pool[n:]
    return st


def check_asked_alike(st: dict, rng: random.Random) -> None:
    """Whoever is to act would be asked, or answered for, the same with any other hand."""
    for seat in rules.to_act(st):
        twin = redeal_own(st, seat, rng)
        assert rules.to_act(twin) == rules.to_act(st)
        assert is_forced(rules, twin, seat, rules.legal_actions(twin, seat)) == \
            is_forced(rules, st, seat, rules.legal_actions(st, seat)), st["pending"]


def play(players: int, seed: int):
    rng = random.Random(seed * 7919)
    st = rules.setup(players, seed)
    log = []
    before = rules.dump(st)
    while rules.to_act(st):
        seat = rules.to_act(st)[0]
        action = choose(rng, rules.legal_actions(st, seat))
        assert isinstance(rules.describe(st, seat, action), str)
        new = rules.apply(st, seat, action)
        assert rules.dump(st) == before, "apply must not change the state it is given"
        log.append((seat, action))
        assert all(len(a) >= len(b) for a, b in zip(new["piles"], st["piles"])), \
            "victory piles only grow"
        st = new
        before = check_invariants(st)
        check_asked_alike(st, rng)
        if len(log) % 25 == 0 and not st["over"]:   # once over, everything may be shown
            for viewer in list(range(players)) + [None]:
                json.dumps(rules.view(st, viewer))
            viewer = rng.randrange(players)
            shuffled = reshuffle_others(st, viewer, rng)
            assert rules.view(shuffled, viewer) == rules.view(st, viewer)
        assert len(log) < 20000, "runaway game"
    return st, log


@pytest.mark.parametrize("players,seed", [(p, s) for p, seeds in SEEDS.items() for s in seeds])
def test_random_game_to_the_end(players, seed):
    st, log = play(players, seed)
    assert st["over"] and rules.result(st) is not None
    assert st["end"] in ("deck", "treasures", "stalled")
    ranking = rules.result(st)["ranking"]
    assert sorted(s for group in ranking for s in group) == list(range(players))
    # replay from the seed equals the live game
    replay = rules.setup(players, seed)
    for seat, action in log:
        replay = rules.apply(replay, seat, action)
    assert replay == st
    # after the end everything may be shown
    assert "hands" in rules.view(st, 0) and rules.legal_actions(st, 0) == []


def card_favouring(rng: random.Random, actions: list[dict]) -> dict:
    """A player who places a card, scores or exchanges whenever he can, else plays his
    catastrophe to open a place, else does anything."""
    actions = [a for a in actions if a["type"] != "standing"]
    for kinds in (("card", "score", "exchange"), ("catastrophe",)):
        preferred = [a for a in actions if a["type"] in kinds]
        if preferred:
            return rng.choice(preferred)
    return rng.choice(actions)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_card_favouring_games_end_by_the_rulebooks_ends_or_a_stalled_table(players):
    """No "table_full" any more: a full table ends a game only once a full round of turns has
    passed in which no card left any hand."""
    for seed in range(100, 104):
        rng, st, quiet = random.Random(seed), rules.setup(players, seed), 0
        while rules.to_act(st):
            seat = rules.to_act(st)[0]
            before = st["turn"]
            st = rules.apply(st, seat, card_favouring(rng, rules.legal_actions(st, seat)))
            if st["turn"] != before:
                quiet = quiet + 1 if st["quiet_turns"] else 0
                assert st["quiet_turns"] == quiet
        assert st["end"] in ("deck", "treasures", "stalled")
        if st["end"] == "stalled":
            assert st["quiet_turns"] == players and not any(st["catastrophes"])
