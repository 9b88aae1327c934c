"""End of turn: the active player refills first, then those who committed tiles, in turn order."""
from pbem.games.tigris import rules
from pbem.games.tigris.rules import step_end_turn


def test_committers_refill_clockwise_from_the_active_player_not_in_commit_order():
    state = rules.setup(4, seed=3)
    state["turn"].update(active=1, committers=[0, 3, 2])   # the order they happened to commit
    for seat in (0, 2, 3):
        state["hands"][seat]["red"] -= 1 if state["hands"][seat]["red"] else 0
        while sum(state["hands"][seat].values()) > 5:
            colour = next(c for c, n in state["hands"][seat].items() if n)
            state["hands"][seat][colour] -= 1
    state["bag"] = ["red", "blue", "green"] + state["bag"][3:]
    before = {seat: dict(state["hands"][seat]) for seat in (0, 2, 3)}
    step_end_turn(state)
    gained = {seat: next(c for c in state["hands"][seat]
                         if state["hands"][seat][c] > before[seat][c]) for seat in (0, 2, 3)}
    assert gained == {2: "red", 3: "blue", 0: "green"}
