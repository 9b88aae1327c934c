"""The engine's fast paths answer as the slow ones did: apply's quick legality check finds
every listed action and nothing else, copies share only frozen slots, dump writes plain JSON."""
from __future__ import annotations

import json
import random

import pytest

from pbem.games.base import IllegalAction
from pbem.games.tigris_cards import rules
from pbem.games.tigris_cards.actions import canonical, is_listed, of_json_types
from pbem.games.tigris_cards.table import Column, FrozenDict, FrozenList, Leader, Slot

from .test_behaviour_fixture import choose, illegal_probes


def positions_of_games(players: int, seeds, chooser: str = "uniform", every: int = 3):
    """(state, seat) of every `every`-th position of seeded random games."""
    for seed in seeds:
        rng = random.Random(seed)
        st = rules.setup(players, seed)
        step = 0
        while rules.to_act(st):
            seat = rules.to_act(st)[0]
            if step % every == 0:
                yield st, seat
            st = rules.apply(st, seat, choose(rng, rules.legal_actions(st, seat), chooser))
            step += 1


class Text(str):
    """A str subclass: its JSON is a listed action's, though its type is not JSON's own."""


def probes(rng: random.Random, st, seat: int, actions: list[dict]) -> list[dict]:
    action = rng.choice(actions)
    found = [a for s, a in illegal_probes(rng, st, seat, action) if s == seat]
    found += [{**action, "type": Text(action["type"])}, {**action, "row": 0}, {**action, "gap": 0},
              {k: v for k, v in action.items() if k != "row"}, {"type": "pass", "colour": "red"}]
    for key in ("column", "row", "gap", "count"):
        if key in action:
            found += [{**action, key: n} for n in range(-1, 10)]
    for colour in ("red", "blue", "black", "green", "treasure"):
        found.append({**action, "colour": colour})
    return [p for p in found if isinstance(p, dict)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_apply_finds_every_listed_action_and_nothing_else_quickly(players):
    rng = random.Random(players)
    checked = 0
    # every other position: 290 to 370 a player count, some 10,000 probes and 40,000 listed
    # actions checked (every position checked twice as many, at twice the time)
    for st, seat in positions_of_games(players, range(3), "kinds", every=2):
        actions = rules.legal_actions(st, seat)
        listed = {canonical(a) for a in actions}
        for action in actions:
            assert is_listed(st, seat, action), action
        for probe in probes(rng, st, seat, actions):
            try:
                key = canonical(probe)
            except (TypeError, ValueError):
                key = None
            quick = is_listed(st, seat, probe)
            assert not quick or key in listed, probe
            if of_json_types(probe):  # a quick "no" is sure for JSON's own types
                assert quick == (key in listed), probe
            if key in listed:  # what is listed is accepted, whatever its Python types
                rules.apply(st, seat, probe)
            else:
                with pytest.raises(IllegalAction):
                    rules.apply(st, seat, probe)
            checked += 1
    assert checked > 1000


FROZEN = (Column, Slot, Leader, FrozenDict, FrozenList)


def every_container(value):
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from every_container(item)
    elif isinstance(value, list):
        yield value
        for item in value:
            yield from every_container(item)


@pytest.mark.parametrize("players", [2, 4])
def test_a_state_shares_nothing_that_can_change_with_the_state_before(players):
    for before, seat in positions_of_games(players, [7], every=37):
        kept = json.dumps(rules.dump(before))
        after = rules.apply(before, seat, random.Random(seat).choice(rules.legal_actions(before, seat)))
        old = {id(c) for c in every_container(before)}
        for container in every_container(after):
            if id(container) in old:  # shared: only frozen columns, slots and leaders
                assert type(container) in FROZEN
            elif type(container) in FROZEN:
                continue
            elif isinstance(container, dict):
                container["mutated"] = True
            else:
                container.append("mutated")
        assert json.dumps(rules.dump(before)) == kept


def test_a_frozen_slot_refuses_changes_and_copies_as_itself():
    import copy
    import pickle
    st = rules.setup(2, 3)
    st = rules.apply(st, rules.to_act(st)[0], {"type": "pass"})
    slot = st["columns"][0][0]
    assert type(slot) is Slot and slot == {"card": 0}
    for change in (lambda: slot.update(card=1), lambda: slot.pop("card"),
                   lambda: slot.__setitem__("leader", [0, "red"]), slot.clear):
        with pytest.raises(TypeError):
            change()
    leader = Leader([1, "red"])
    for frozen_list in (leader, st["columns"][0]):
        for change in (lambda: frozen_list.append(3), lambda: frozen_list.__setitem__(0, 2),
                       frozen_list.pop, frozen_list.clear):
            with pytest.raises(TypeError):
                change()
    assert type(st["columns"][0]) is Column
    assert copy.deepcopy(slot) is slot and pickle.loads(pickle.dumps(slot)) == slot
    assert pickle.loads(pickle.dumps(leader)) == [1, "red"]


@pytest.mark.parametrize("players", [2, 3])
def test_dump_writes_plain_dicts_and_lists_that_load_back_equal(players):
    for st, _seat in positions_of_games(players, [11], every=50):
        dumped = rules.dump(st)
        assert all(type(c) in (dict, list) for c in every_container(dumped))
        assert rules.load(json.loads(json.dumps(dumped))) == st
        assert rules.dump(rules.load(dumped)) == dumped


def test_a_turn_with_nothing_but_pass_offers_no_standing_answer_and_apply_refuses_one():
    from .helpers import position
    st = position("""
        T@0k - T@0g - T@0r - T@0b - T@1k - T@1g - T@1r - T@1b
    """, players=2, hands={})
    st["catastrophes"] = [False, False]
    assert rules.legal_actions(st, 0) == [{"type": "pass"}]
    standing = {"type": "standing", "decision": "score", "answer": "never"}
    assert not is_listed(st, 0, standing)
    with pytest.raises(IllegalAction):
        rules.apply(st, 0, standing)
    st["hands"][0] = [st["deck"].pop()]  # a card to place: a real choice, standing answers too
    assert standing in rules.legal_actions(st, 0) and is_listed(st, 0, standing)
