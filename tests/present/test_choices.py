"""The turn page's choices: every legal action with its taps, its Choice object made only when
a page reads it (a Tigris turn offers ~400 and its page lists none of them)."""
from __future__ import annotations

import random

from pbem import present
from pbem.games import RULES
from pbem.present import presenter_for


def tigris_turn(moves: int = 40, seed: int = 3):
    rules = RULES["tigris"]
    state, rng = rules.setup(3, seed), random.Random(seed)
    for _ in range(moves):
        seat = rules.to_act(state)[0]
        state = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
    seat = rules.to_act(state)[0]
    view, actions = rules.view(state, seat), rules.legal_actions(state, seat)
    presenter = presenter_for("tigris")
    choices = present.choices(presenter, actions, view, lambda action: action["type"])
    return presenter, actions, view, choices


def test_every_action_is_a_choice_with_its_taps_in_the_engines_order():
    presenter, actions, view, choices = tigris_turn()
    assert len(choices) == len(actions) > 40
    assert [c.action for c in choices] == actions
    assert [c.taps for c in choices] == [presenter.taps(a, view) for a in actions]
    assert choices[0].action == actions[0] and choices[-1].action == actions[-1]
    assert [c.action for c in choices[2:5]] == actions[2:5]
    assert choices.tapping == len(choices.tapped) == sum(1 for a in actions
                                                       if presenter.taps(a, view))
    assert [c.action for c in choices.buttons] == [a for a in actions
                                                   if not presenter.taps(a, view)]


def test_groups_tree_and_tokens_come_from_the_taps():
    presenter, actions, view, choices = tigris_turn()
    taps = [presenter.taps(a, view) for a in actions]
    firsts = {}
    for t in taps:
        if t:
            firsts.setdefault(t[0], []).append(t)
    assert {first: [c.taps for c in group] for first, group in choices.groups.items()} == firsts
    assert choices.tree() == {first: [" ".join(t[1:]) for t in group]
                              for first, group in firsts.items()}
    assert choices.tokens == {token for t in taps for token in t}
    assert choices.two_steps()          # hundreds of tile and leader moves, a few pieces
    assert choices.listed(None) == []
    first = next(iter(firsts))
    assert [c.taps for c in choices.listed(first)] == firsts[first]
    for t in firsts[first]:
        assert choices.by_taps(t).taps == t
    assert choices.by_taps(["no:such"]) is None and choices.by_taps([]) is None


def test_a_choice_is_made_only_when_read_and_then_once():
    *_, choices = tigris_turn()
    made = lambda: sum(1 for c in choices._made if c is not None)       # noqa: E731
    assert made() == len(choices.buttons)       # the buttons: the page shows each
    choices.tree(), choices.tokens, choices.two_steps(), choices.listed(None)
    first = next(iter(choices.firsts))
    assert first in choices.firsts and made() == len(choices.buttons)
    listed = choices.listed(first)
    assert made() == len(choices.buttons) + len(listed)
    assert listed[0] is choices.listed(first)[0] is choices.groups[first][0]
