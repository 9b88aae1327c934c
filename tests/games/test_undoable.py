"""Undo within a turn, engine by engine: after a quiet action the seat may take it
back, and the undo restores exactly what every seat could do and see before it; a draw, a
question to another seat or the end of the turn closes the stretch. Seeded random playouts
through `undo.Replay`, the log's own replay."""
from __future__ import annotations

import random

import pytest

from pbem.games import RULES
from pbem.log import undo

ENGINES = ("tigris", "tigris_cards", "assyria")
HIDDEN = {"tigris": lambda s: len(s["bag"]), "tigris_cards": lambda s: len(s["deck"]),
          "assyria": lambda s: (len(s["food_deck"]), len(s["expansion_deck"]), s["shuffles"])}


def seen(rules, state, players):
    """What every seat (and a spectator) may do and see."""
    return [(rules.legal_actions(state, seat), rules.view(state, seat))
            for seat in range(players)] + [rules.view(state, None)]


def playouts(name, players, seeds=range(4), moves=150):
    """(replay, seat, before, after, seq) for every move of seeded random games."""
    rules = RULES[name]
    for seed in seeds:
        rng = random.Random(seed)
        replay = undo.Replay(rules)
        replay.step(0, None, {"players": players, "seed": seed, "options": {}})
        for seq in range(1, moves):
            before = replay.state
            waiting = rules.to_act(before)
            if not waiting:
                break
            seat = waiting[0]
            replay.step(seq, seat, rng.choice(rules.legal_actions(before, seat)))
            yield replay, seat, before, replay.state, seq


@pytest.mark.parametrize("name", ENGINES)
def test_undo_after_a_quiet_action_restores_every_seats_actions_and_views(name):
    rules, players, checked = RULES[name], 3, 0
    for replay, seat, before, after, _seq in playouts(name, players):
        if not undo.may_undo(rules, replay.stretch, after, seat):
            continue
        restored, _left = undo.undone(rules, replay.stretch, after, seat)
        assert seen(rules, restored, players) == seen(rules, before, players)
        assert rules.dump(restored) == rules.dump(before)
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("name", ENGINES)
def test_undo_goes_back_step_by_step_to_the_start_of_the_turn(name):
    rules, deepest = RULES[name], 0
    for replay, seat, _before, after, _seq in playouts(name, 2):
        if not undo.may_undo(rules, replay.stretch, after, seat):
            continue
        stretch, state, depth = replay.stretch, after, 0
        while undo.may_undo(rules, stretch, state, seat):
            state, stretch = undo.undone(rules, stretch, state, seat)
            depth += 1
        assert depth == len(replay.stretch["states"])
        assert rules.dump(state) == replay.stretch["states"][0]
        deepest = max(deepest, depth)
    assert deepest >= 2


@pytest.mark.parametrize("name", ENGINES)
def test_undo_is_refused_after_a_draw_and_after_another_seat_was_asked(name):
    rules, drew, asked = RULES[name], 0, 0
    hidden = HIDDEN[name]
    for replay, seat, before, after, _seq in playouts(name, 2):
        if hidden(before) != hidden(after):
            assert not undo.may_undo(rules, replay.stretch, after, seat)
            assert replay.stretch is None
            drew += 1
        if rules.to_act(after) and rules.to_act(after) != [seat]:
            assert replay.stretch is None        # the other seat is asked: nothing to undo
            asked += 1
    assert drew and asked


@pytest.mark.parametrize("name", ENGINES)
def test_each_engine_says_when_undo_stops(name):
    doc = RULES[name].undoable.__doc__
    assert "Undo stops" in doc and ("drawn" in doc or "draw" in doc)


def test_an_engine_without_the_hook_has_no_undo():
    rules = RULES["tigris"]
    state = rules.setup(2, 1, {})
    seat = rules.to_act(state)[0]

    class NoUndo:
        def __getattr__(self, name):
            if name == "undoable":
                raise AttributeError(name)
            return getattr(rules, name)
    after = rules.apply(state, seat, rules.legal_actions(state, seat)[0])
    assert undo.after_step(NoUndo(), None, state, after, seat) is None
