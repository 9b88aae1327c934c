"""The table: treasures* in a row, a column under each, connecting cards in the gaps.

A slot is a dict: {"card": id} or {"ship": name}, with "leader": [seat, colour] when a leader
stands on it; a connecting card also has "face_down". A position is {"column": c, "row": r}
(row 0 is the treasure*) or {"gap": g} (between columns g and g+1). Columns never have holes,
so a kingdom is always a run of neighbouring columns joined by filled gaps.
"""
from __future__ import annotations

from .cards import COLOURS, COLUMNS, colour_of, is_treasure


# ---- Positions and slots --------------------------------------------------------------------
def slot_at(st: dict, pos: dict) -> dict | None:
    if "gap" in pos:
        return st["gaps"][pos["gap"]]
    column = st["columns"][pos["column"]]
    return column[pos["row"]] if pos["row"] < len(column) else None


def positions(st: dict, first: int = 0, last: int = COLUMNS - 1, cut: int | None = None):
    """Every filled position of columns first..last and the gaps between them (not gap `cut`)."""
    for c in range(first, last + 1):
        for r in range(len(st["columns"][c])):
            yield {"column": c, "row": r}
        if c < last and c != cut and st["gaps"][c] is not None:
            yield {"gap": c}


def remove_at(st: dict, pos: dict) -> dict:
    """Take a slot off the table; the cards below slide up with their leaders and ships."""
    if "gap" in pos:
        slot, st["gaps"][pos["gap"]] = st["gaps"][pos["gap"]], None
        return slot
    return st["columns"][pos["column"]].pop(pos["row"])


def is_treasure_star(pos: dict) -> bool:
    """The first card of a column: a treasure card or the red card that replaced it."""
    return "row" in pos and pos["row"] == 0


def is_civilization_card(slot: dict | None) -> bool:
    return slot is not None and "card" in slot


def card_colour(slot: dict) -> str | None:
    return colour_of(slot["card"]) if "card" in slot else None


# ---- Kingdoms -------------------------------------------------------------------------------
def kingdom_span(st: dict, column: int, cut: int | None = None) -> tuple[int, int]:
    """The columns of the kingdom holding `column` (gap `cut` counted as empty)."""
    gaps = st["gaps"]
    first = column
    while first > 0 and first - 1 != cut and gaps[first - 1] is not None:
        first -= 1
    last = column
    while last < COLUMNS - 1 and last != cut and gaps[last] is not None:
        last += 1
    return first, last


def span_of(st: dict, pos: dict) -> tuple[int, int]:
    return kingdom_span(st, pos["column"] if "column" in pos else pos["gap"])


def kingdom_positions(st: dict, span: tuple[int, int], cut: int | None = None) -> list[dict]:
    return list(positions(st, span[0], span[1], cut))


def leaders_in(st: dict, span: tuple[int, int], cut: int | None = None) -> dict[str, tuple]:
    """colour -> (seat, position) of the leaders standing in the kingdom."""
    found = {}
    for pos in positions(st, span[0], span[1], cut):
        leader = slot_at(st, pos).get("leader")
        if leader:
            found[leader[1]] = (leader[0], pos)
    return found


def count_colour(st: dict, span: tuple[int, int], colour: str, cut: int | None = None) -> int:
    """Cards of `colour` in the kingdom (treasures* count as red); ships count for nothing."""
    return sum(1 for pos in positions(st, span[0], span[1], cut)
               if card_colour(slot_at(st, pos)) == colour)


def real_treasure_columns(st: dict, span: tuple[int, int] = (0, COLUMNS - 1)) -> list[int]:
    return [c for c in range(span[0], span[1] + 1) if is_treasure(st["columns"][c][0]["card"])]


def ships_in(st: dict, span: tuple[int, int]) -> list[str]:
    return [slot["ship"] for c in range(span[0], span[1] + 1)
            for slot in st["columns"][c] if "ship" in slot]


def kingdoms(st: dict) -> list[tuple[int, int]]:
    spans, column = [], 0
    while column < COLUMNS:
        span = kingdom_span(st, column)
        spans.append(span)
        column = span[1] + 1
    return spans


# ---- Leaders --------------------------------------------------------------------------------
def find_leader(st: dict, seat: int, colour: str) -> dict | None:
    for pos in positions(st):
        if slot_at(st, pos).get("leader") == [seat, colour]:
            return pos
    return None


def leaders_on_table(st: dict, seat: int) -> dict[str, dict]:
    found = {}
    for pos in positions(st):
        leader = slot_at(st, pos).get("leader")
        if leader and leader[0] == seat:
            found[leader[1]] = pos
    return found


def supply(st: dict, seat: int) -> list[str]:
    """The seat's leaders standing in front of him (not on the table)."""
    placed = leaders_on_table(st, seat)
    return [colour for colour in COLOURS if colour not in placed]


def send_home(st: dict, pos: dict) -> None:
    slot_at(st, pos).pop("leader", None)
