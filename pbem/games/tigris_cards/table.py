"""The table: treasures* in a row, a column under each, connecting cards in the gaps.

A slot is a dict: {"card": id} or {"ship": name}, with "leader": [seat, colour] when a leader
stands on it; a connecting card also has "face_down". A position is {"column": c, "row": r}
(row 0 is the treasure*) or {"gap": g} (between columns g and g+1). Columns never have holes,
so a kingdom is always a run of neighbouring columns joined by filled gaps.

Columns and slots are shared between the states before and after an action (copying the
table on every action was most of its cost), so they are frozen (`Column`, `Slot`, `Leader`:
a list, a dict and a list that refuse changes) and a change puts a new one in place (`put_at`,
`set_column`). They compare, print and encode as the plain lists and dicts they are; `dump`
writes plain ones. The game flow's small dicts (the options, the pending decision, queued steps,
the conflict under way) are frozen the same way (`FrozenDict`, `FrozenList`, from `freeze`).
"""
from __future__ import annotations

from .cards import CARD_COLOUR, COLOURS, COLUMNS, colour_of, is_treasure


# ---- Frozen slots ----------------------------------------------------------------------------
def _refuse(self, *args, **kwargs):
    raise TypeError("a slot on the table is shared between states: put a new one (put_at)")


class Leader(list):
    """[seat, colour] of a leader standing on a slot, frozen."""
    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self):
        return Leader, (list(self),)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class Slot(dict):
    """A frozen slot: {"card": id} or {"ship": name}, maybe "leader" and "face_down"."""
    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    pop = popitem = clear = update = setdefault = _refuse

    def __reduce__(self):
        return Slot, (dict(self),)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class Column(list):
    """A frozen column: its slots, the treasure* first, all frozen. As it never changes, it
    keeps what it was asked about its leaders and ships (`column_leaders`, `free_rows`,
    `column_ships`), how views show it (`views.show_column`) and whether its slots hold only
    plain values and a leader (`thaw_column`)."""
    __slots__ = ("leader_rows", "free", "ship_names", "shown", "simple")
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self):
        return Column, (list(self),)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class FrozenList(list):
    """A frozen list inside the game flow's parts (a pending decision's colours, a conflict's
    played cards and sides): shared between states like the table."""
    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self):
        return FrozenList, (list(self),)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class FrozenDict(dict):
    """A frozen dict of the game flow: the pending decision, a queued step, the conflict under
    way, the options. A change puts a new one in place."""
    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    pop = popitem = clear = update = setdefault = _refuse

    def __reduce__(self):
        return FrozenDict, (dict(self),)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


def freeze(value):
    """JSON-like data as frozen dicts and lists (itself if frozen already): shared, not copied,
    by the states after it."""
    kind = type(value)
    if kind is dict:
        return FrozenDict({key: freeze(item) if type(item) in THAWED else item
                           for key, item in value.items()})
    if kind is list:
        return FrozenList([freeze(item) if type(item) in THAWED else item for item in value])
    return value


THAWED = (dict, list)


def thaw(value):
    """A plain deep copy in dicts and lists, frozen parts included (what `dump` writes). The
    other values are kept as they are, without a call each."""
    if isinstance(value, dict):
        return {key: thaw(item) if isinstance(item, THAWED) else item
                for key, item in value.items()}
    if isinstance(value, list):
        return [thaw(item) if isinstance(item, THAWED) else item for item in value]
    return value


def thaw_column(column: list) -> list:
    """`thaw(column)`, sooner for a frozen column whose slots hold only plain values and a
    leader of plain values (every column the engine makes): a copy of each slot, its leader a
    new list. A column keeps whether it is such a column (it never changes)."""
    if type(column) is Column:
        try:
            simple = column.simple
        except AttributeError:
            simple = column.simple = all(map(is_simple_slot, column))
        if simple:
            return [{**slot, "leader": list(slot["leader"])} if "leader" in slot else dict(slot)
                    for slot in column]
    return thaw(column)


def is_simple_slot(slot) -> bool:
    """A dict whose values are neither dicts nor lists, but for a "leader" list of such."""
    if not isinstance(slot, dict):
        return False
    for key, value in slot.items():
        if key == "leader":
            if not isinstance(value, list) or any(isinstance(item, THAWED) for item in value):
                return False
        elif isinstance(value, THAWED):
            return False
    return True


def frozen_column(slots: list) -> Column:
    """The column as a frozen one (itself if it is one)."""
    if type(slots) is Column:
        return slots
    return Column([slot if type(slot) is Slot else frozen(slot) for slot in slots])


def set_column(st: dict, column: int, slots: list) -> None:
    st["columns"][column] = frozen_column(slots)


def frozen(slot: dict) -> Slot:
    """The slot as a frozen one (itself if it is one), its fields in the same order."""
    if type(slot) is Slot:
        return slot
    if "leader" in slot:
        return Slot({**slot, "leader": Leader(slot["leader"])})
    return Slot(slot)


def changed(slot: dict, **fields) -> Slot:
    """A new slot: `slot` with `fields` set (None: taken off), the other fields in order."""
    copied = dict(slot)
    for key, value in fields.items():
        if value is None:
            copied.pop(key, None)
        else:
            copied[key] = value
    return frozen(copied)


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


def put_at(st: dict, pos: dict, slot: dict) -> None:
    """Put a slot in place of the one at `pos`."""
    if "gap" in pos:
        st["gaps"][pos["gap"]] = frozen(slot)
    else:
        cells = list(st["columns"][pos["column"]])
        cells[pos["row"]] = slot
        set_column(st, pos["column"], cells)


def remove_at(st: dict, pos: dict) -> dict:
    """Take a slot off the table; the cards below slide up with their leaders and ships."""
    if "gap" in pos:
        slot, st["gaps"][pos["gap"]] = st["gaps"][pos["gap"]], None
        return slot
    cells = list(st["columns"][pos["column"]])
    slot = cells.pop(pos["row"])
    set_column(st, pos["column"], cells)
    return slot


def is_treasure_star(pos: dict) -> bool:
    """The first card of a column: a treasure card or the red card that replaced it."""
    return "row" in pos and pos["row"] == 0


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


def slots_in(st: dict, first: int = 0, last: int = COLUMNS - 1, cut: int | None = None):
    """(column, row, slot) of every filled position of `positions(st, first, last, cut)`, in
    the same order; a gap's row is None and its column the gap's number."""
    columns, gaps = st["columns"], st["gaps"]
    for c in range(first, last + 1):
        for r, slot in enumerate(columns[c]):
            yield c, r, slot
        if c < last and c != cut and gaps[c] is not None:
            yield c, None, gaps[c]


def position_of(column: int, row: int | None) -> dict:
    return {"gap": column} if row is None else {"column": column, "row": row}


def column_leaders(column: list) -> tuple:
    """(row, [seat, colour]) of the leaders in a column, top down (kept by a frozen column)."""
    try:
        return column.leader_rows
    except AttributeError:
        rows = tuple((r, slot["leader"]) for r, slot in enumerate(column) if "leader" in slot)
        if type(column) is Column:
            column.leader_rows = rows
        return rows


def free_rows(column: list) -> tuple:
    """The rows of a column's unoccupied civilization cards (not a ship), top down."""
    try:
        return column.free
    except AttributeError:
        rows = tuple(r for r, slot in enumerate(column) if "card" in slot and "leader" not in slot)
        if type(column) is Column:
            column.free = rows
        return rows


def column_ships(column: list) -> tuple:
    """The ships in a column, top down (kept by a frozen column)."""
    try:
        return column.ship_names
    except AttributeError:
        names = tuple(slot["ship"] for slot in column if "ship" in slot)
        if type(column) is Column:
            column.ship_names = names
        return names


def leaders_at(st: dict, first: int = 0, last: int = COLUMNS - 1,
               cut: int | None = None) -> list[tuple[int, int | None, list]]:
    """(column, row, [seat, colour]) of the leaders on `positions(st, first, last, cut)`, in
    that order (a gap's row is None). One plain loop: kingdoms are asked for their leaders
    several times an action."""
    columns, gaps, found = st["columns"], st["gaps"], []
    for c in range(first, last + 1):
        for r, leader in column_leaders(columns[c]):
            found.append((c, r, leader))
        if c < last and c != cut:
            gap = gaps[c]
            if gap is not None and "leader" in gap:
                found.append((c, None, gap["leader"]))
    return found


def leaders_in(st: dict, span: tuple[int, int], cut: int | None = None) -> dict[str, tuple]:
    """colour -> (seat, position) of the leaders standing in the kingdom."""
    return {leader[1]: (leader[0], position_of(c, r))
            for c, r, leader in leaders_at(st, span[0], span[1], cut)}


def count_colour(st: dict, span: tuple[int, int], colour: str, cut: int | None = None) -> int:
    """Cards of `colour` in the kingdom (treasures* count as red); ships count for nothing."""
    return sum(1 for _, _, slot in slots_in(st, span[0], span[1], cut)
               if "card" in slot and CARD_COLOUR[slot["card"]] == colour)


def real_treasure_columns(st: dict, span: tuple[int, int] = (0, COLUMNS - 1)) -> list[int]:
    return [c for c in range(span[0], span[1] + 1) if is_treasure(st["columns"][c][0]["card"])]


def ships_in(st: dict, span: tuple[int, int]) -> list[str]:
    columns = st["columns"]
    return [ship for c in range(span[0], span[1] + 1) for ship in column_ships(columns[c])]


def kingdoms(st: dict) -> list[tuple[int, int]]:
    spans, column = [], 0
    while column < COLUMNS:
        span = kingdom_span(st, column)
        spans.append(span)
        column = span[1] + 1
    return spans


# ---- Leaders --------------------------------------------------------------------------------
def find_leader(st: dict, seat: int, colour: str) -> dict | None:
    wanted = [seat, colour]
    for c, r, leader in leaders_at(st):
        if leader == wanted:
            return position_of(c, r)
    return None


def supplies(st: dict) -> list[list[str]]:
    """The leaders standing in front of each seat (not on the table), from one look at it."""
    placed = {(leader[0], leader[1]) for _, _, leader in leaders_at(st)}
    return [[colour for colour in COLOURS if (seat, colour) not in placed]
            for seat in range(st["players"])]


def send_home(st: dict, pos: dict) -> None:
    slot = slot_at(st, pos)
    if "leader" in slot:
        put_at(st, pos, changed(slot, leader=None))
