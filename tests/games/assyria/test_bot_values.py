"""The computer player's judgement of Assyria positions (pbem/games/assyria/computer.py): it counts what
the rules will still pay for what lies on the board, not only the points so far."""
from __future__ import annotations

import pytest

from pbem.games.assyria.computer import NEAR_WELL, values
from pbem.games.base import copy_json

from .helpers import position


def value(state, seat=0):
    return values(state)[seat]


def test_a_ziggurat_piece_is_worth_more_early_than_in_the_last_turn():
    early = position(2, "0,3:R 5,0:G", phase="actions", reign=1, turn=1)
    late = position(2, "0,3:R 5,0:G", phase="actions", reign=3, turn=3)
    bigger_early, bigger_late = copy_json(early), copy_json(late)
    bigger_early["ziggurats"]["0,3"][1] = 2
    bigger_late["ziggurats"]["0,3"][1] = 2
    gain_early = value(bigger_early) - value(early)
    gain_late = value(bigger_late) - value(late)
    assert gain_late == pytest.approx(1)            # the game end's point, no income left
    assert gain_early > 5                           # and one at each of the 7 incomes to come


def test_an_offering_counts_its_multiplier_times_the_seat_s_ziggurats():
    state = position(2, "0,3:R 2,1:R 5,0:G", phase="actions", camels=[6, 6])
    offered = copy_json(state)
    offered["offering"][0], offered["camels"][0] = 3, 3          # multiplier 2, two ziggurats
    assert value(offered) - value(state) == pytest.approx(2 * 2 - 3 * 0.5)


def test_the_seat_leading_in_assur_counts_a_share_of_the_cards():
    state = position(2, "0,3:R 5,0:G", phase="actions", camels=[4, 4])
    leading = copy_json(state)
    leading["dignitaries"]["highest"][0], leading["camels"][0] = 0, 0
    assert value(leading) > value(state)
    assert values(leading)[1] == values(state)[1]


def test_an_inside_hut_the_cards_cannot_feed_counts_for_less_at_this_income():
    fed = position(2, "0,3:R 5,0:G 1,2:r", phase="harvest", active=0, hands=[[], []],
                   plows=[True, False])
    hungry = copy_json(fed)
    hungry["plows"][0] = False
    assert value(fed) - value(hungry) > 2           # the prestige of 2, and the plow's point


def test_two_huts_at_a_free_well_site_before_the_expansion_count_a_share_of_the_well():
    free = position(2, "5,0:G 3,3:R 0,4:r 0,5:r", phase="harvest", active=0)
    blocked = position(2, "5,0:G 3,3:R 0,4:r 0,5:r 1,4:g", phase="harvest", active=0)
    assert value(free) - value(blocked) == pytest.approx(NEAR_WELL * 6)
