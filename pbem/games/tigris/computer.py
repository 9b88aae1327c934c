"""Tigris & Euphrates for the search: a seat is as strong as its weakest colour.

The value is the final score's own order (weakest colour after treasures, then the next ones)
folded into one number, plus a little for each leader on the board, which is what earns
points. Victory points the rules hide are whatever the determinization drew for them.
"""
from __future__ import annotations

from pbem.bots.heuristic import Heuristic

from .rules import TEMPLE, final_colors

# weakest colour first, each stronger colour counting for less (as in the tie-break):
# 1, 0.4, 0.15, 0.05
LEADER_ON_BOARD = 0.3


def values(state) -> list[float]:
    out = []
    for points, treasures, leaders in zip(state["points"], state["treasures_taken"],
                                          state["leaders"]):
        colours = final_colors(points, treasures)
        on_board = 4 - list(leaders.values()).count(None)
        out.append(colours[0] + 0.4 * colours[1] + 0.15 * colours[2] + 0.05 * colours[3]
                   + LEADER_ON_BOARD * on_board)
    return out


def lost(after, seat: int) -> bool:
    """A revolt the seat started (a leader placed or moved beside its rival) that it cannot
    win: its temples beside the leader and every red tile in its hand do not beat the
    defender's temples alone (ties go to the defender)."""
    pending = after.get("pending")
    if not pending or pending["kind"] != "revolt" or pending["attacker"] != seat:
        return False
    attack, defence = pending["strength"]
    return attack + after["hands"][seat][TEMPLE] <= defence


HEURISTIC = Heuristic(
    lost=lost, conflicts=("place_leader", "move_leader"),
    values=values, scale=1.5, depth=8,
    weights={"place_tile": 4.0, "place_leader": 2.0, "move_leader": 0.5,
             "withdraw_leader": 0.1, "place_catastrophe": 0.1, "swap": 0.2, "pass": 0.05,
             "build_monument": 3.0, "decline_monument": 1.0})
