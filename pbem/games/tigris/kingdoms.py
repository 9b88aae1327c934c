"""The regions and kingdoms of a position, worked out once per position.

Every rule that asks "which kingdom is this in?", "may a leader stand here?" or "how many
kingdoms would this tile join?" reads a `Regions` map. A map holds sets of squares as integers,
bit i standing for square i (row * 16 + col): a region, the free squares, the face-up temples.
"The squares next to a set" is then four shifts (`around`), and "next to two kingdoms" a few
ands and ors, instead of a walk over the board square by square.

Working a map out from the board means looking at all 176 squares, so `regions_of(state)` keeps
the map of each recent position (by the state's id, checked against the board, the leaders and
the monuments, so a state changed in place is never read with a stale map), and `apply` hands a
position's map on to the next one when a tile or a leader is simply added (`Regions.joined`)
or a leader leaves (`Regions.without`), instead of looking at the board again.
"""
from __future__ import annotations

import functools
from collections import OrderedDict

from .board import (CATASTROPHE, COLORS, COLS, NEIGHBOURS, RIVER, ROWS, SQUARES, TEMPLE,
                    block_squares)

TILE_COLORS = frozenset(COLORS)
MAPS_KEPT = 64             # positions whose map is kept: a search walks back and forth a little

# --- sets of squares as integers ----------------------------------------------------------

BIT = tuple(1 << i for i in range(SQUARES))
ALL = (1 << SQUARES) - 1
RIVER_SET = sum(BIT[i] for i in RIVER)
LAND_SET = ALL & ~RIVER_SET
NOT_FIRST_COLUMN = sum(BIT[i] for i in range(SQUARES) if i % COLS != 0)
NOT_LAST_COLUMN = sum(BIT[i] for i in range(SQUARES) if i % COLS != COLS - 1)
NEXT_TO = tuple(sum(BIT[n] for n in NEIGHBOURS[i]) for i in range(SQUARES))
BYTES = (SQUARES + 7) // 8
_BITS_OF_BYTE = tuple(tuple(j for j in range(8) if b >> j & 1) for b in range(256))


def around(squares: int) -> int:
    """The squares orthogonally next to any of `squares` (some of them may be among them)."""
    return (((squares << 1) & NOT_FIRST_COLUMN) | ((squares >> 1) & NOT_LAST_COLUMN)
            | ((squares << COLS) & ALL) | (squares >> COLS))


def spread(seed: int, within: int) -> int:
    """The squares of `within` joined orthogonally to the square(s) `seed`."""
    region = seed
    while True:
        grown = region | ((((region << 1) & NOT_FIRST_COLUMN) | ((region >> 1) & NOT_LAST_COLUMN)
                           | (region << COLS) | (region >> COLS)) & within)
        if grown == region:
            return region
        region = grown


def pieces(squares: int) -> list[int]:
    """`squares` cut into its orthogonally joined pieces, lowest square first."""
    out = []
    while squares:
        piece = spread(squares & -squares, squares)
        out.append(piece)
        squares ^= piece
    return out


def squares_of(squares: int) -> list[int]:
    """The squares of a set, in board order."""
    out = []
    for k, byte in enumerate(squares.to_bytes(BYTES, "little")):
        if byte:
            base = 8 * k
            out += [base + j for j in _BITS_OF_BYTE[byte]]
    return out


def relabel(label: list[int], squares: int, rid: int) -> None:
    """label[i] = rid for the squares of a set (square by square for a few)."""
    if squares.bit_count() > 8:
        for i in squares_of(squares):
            label[i] = rid
        return
    while squares:
        low = squares & -squares
        label[low.bit_length() - 1] = rid
        squares ^= low


def set_of(squares) -> int:
    """The set of the given squares (a list of them, a few), as an integer."""
    out = 0
    for i in squares:
        out |= BIT[i]
    return out


class BySquare:
    """One thing per square (an action naming it), listed for a set of squares in board
    order without a step per square: a table of what each byte of the set stands for, built
    on first use (the tables of every kind of action take 0.2 s, which every `pbem` command
    paid at its start, most of them never listing a Tigris action)."""

    __slots__ = ("things", "chunks")

    def __init__(self, things):
        self.things = tuple(things)
        self.chunks = None

    def _tables(self) -> tuple:
        things = self.things
        self.chunks = tuple(
            tuple(tuple(things[8 * k + j] for j in _BITS_OF_BYTE[byte] if 8 * k + j < SQUARES)
                  for byte in range(256))
            for k in range(BYTES))
        return self.chunks

    def __call__(self, squares: int) -> list:
        out = []
        chunks = self.chunks or self._tables()
        for k, byte in enumerate(squares.to_bytes(BYTES, "little")):
            if byte:
                out += chunks[k][byte]
        return out

    def patched(self, listed: list, was: int, squares: int) -> list:
        """`self(squares)`, made from `listed` = `self(was)` (for a few squares that differ:
        a step each). `listed` itself is left as it was."""
        changed = was ^ squares
        listed, things = listed[:], self.things
        while changed:                      # from the last square down: the places below
            i = changed.bit_length() - 1    # stay where `was` puts them
            bit = BIT[i]
            changed ^= bit
            if was & bit:
                del listed[(was & (bit - 1)).bit_count()]
            else:
                listed.insert((was & (bit - 1)).bit_count(), things[i])
        return listed


PATCH_MOST = 8      # squares a list of actions is patched for; more: listed afresh


def _ring(i: int) -> tuple[int, ...]:
    """The 8 squares around square i, clockwise from the one above (-1: off the board)."""
    r, c = divmod(i, COLS)
    steps = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
    return tuple((r + dr) * COLS + c + dc if 0 <= r + dr < ROWS and 0 <= c + dc < COLS else -1
                 for dr, dc in steps)


RING = tuple(tuple(BIT[j] if j != -1 else 0 for j in _ring(i)) for i in range(SQUARES))


def stays_whole(region: int, at: int) -> bool:
    """True when `region` surely holds together without square `at`: its squares next to
    `at` touch one another around it (clockwise, with the corners between)."""
    inside = [bool(region & bit) for bit in RING[at]]
    runs = 0                # runs of region squares around `at` holding a side square
    for k in range(0, 8, 2):
        if inside[k] and not (inside[k - 1] and inside[k - 2]):
            runs += 1
    return runs <= 1


_LEFT_BEHIND: dict[tuple, tuple[int, ...]] = {}


def kingdoms_left(region: int, at: int, stay: tuple[int, ...]) -> tuple[int, ...]:
    """The squares next to each kingdom a leader lifted from square `at` leaves behind in its
    kingdom `region`, where leaders stand on the squares `stay` (the same kingdom, lifts and
    leaders come back again and again in a game and in a search: kept)."""
    key = (region, at, stay)
    left = _LEFT_BEHIND.get(key)
    if left is None:
        rest = region & ~BIT[at]
        parts = [rest] if stays_whole(region, at) else [
            part for part in pieces(rest) if any(part & BIT[j] for j in stay)]
        left = tuple(map(around, parts))
        if len(_LEFT_BEHIND) >= 20_000:
            _LEFT_BEHIND.clear()
        _LEFT_BEHIND[key] = left
    return left


# --- what a map is made from ----------------------------------------------------------------

def leader_squares(state: dict) -> dict[int, tuple[int, str]]:
    """Square -> (seat, colour) of every leader on the board."""
    return {i: (seat, color) for seat, leaders in enumerate(state["leaders"])
            for color, i in leaders.items() if i is not None}


def face_down_squares(state: dict) -> frozenset[int]:
    """The tiles turned face down under monuments: they connect but have no colour."""
    return _face_down(tuple(state["monuments"].values()))


@functools.lru_cache(maxsize=4096)
def _face_down(top_lefts: tuple) -> frozenset[int]:
    return frozenset(i for top_left in top_lefts if top_left is not None
                     for i in block_squares(top_left))


@functools.lru_cache(maxsize=4096)
def treasure_set(treasures: tuple[int, ...]) -> int:
    """The squares of the treasures (a tuple of them), as a set."""
    return set_of(treasures)


def snapshot(state: dict) -> tuple:
    """What a map depends on, copied: the board, where each leader stands, the monuments."""
    return (state["board"][:], [leaders.copy() for leaders in state["leaders"]],
            state["monuments"].copy())


def still(seen: tuple | None, state: dict) -> bool:
    """Whether `state` still has the board, leaders and monuments of the snapshot `seen`."""
    return (seen is not None and seen[0] == state["board"] and seen[1] == state["leaders"]
            and seen[2] == state["monuments"])


class Regions:
    """The regions of the board: tiles and leaders joined orthogonally.

    `lifted` leaves one leader out (a leader being moved); `absent` leaves one square out (the
    unification tile, to find each side of a war). Each region has a number: `label[i]` is
    square i's (-1: none), `regions[r]` the squares of region r (a set as an integer) and
    `leaders[r]` the (seat, colour, square) of its leaders, for the regions with a leader: the
    kingdoms. `free`: squares with no tile, catastrophe or leader; `temples`: the face-up
    temples; `down`: the face-down squares (a set, and `down_set`).
    """

    __slots__ = ("leader_at", "leader_set", "down", "down_set", "label", "regions",
                 "leaders", "nears", "numbers", "free", "temples", "catastrophes", "key",
                 "found", "lists", "shared", "sides")
    # key: the snapshot of the position the map was kept for (see `still`); found: what was
    # worked out from the map (where each leader may move); shared, sides: see
    # shared_squares and temple_sides (None: not worked out yet); nears[r]: the
    # squares next to region r, once worked out; numbers: the next region number; lists: key
    # -> (squares, the actions listed for them), this position's or an earlier one's, which
    # `listed` patches

    def __init__(self, state: dict, lifted: int | None = None, absent: int | None = None):
        board = state["board"]
        leader_at = self.leader_at = leader_squares(state)
        if lifted is not None:
            leader_at.pop(lifted, None)
        self.down = face_down_squares(state)
        self.down_set = set_of(self.down)
        self.key, self.found, self.lists, self.shared, self.sides = None, {}, {}, None, None
        tiles = temples = catastrophes = 0
        for i, piece in enumerate(board):
            if piece:
                if piece == CATASTROPHE:
                    catastrophes |= BIT[i]
                else:
                    tiles |= BIT[i]
                    if piece == TEMPLE:
                        temples |= BIT[i]
        self.leader_set = set_of(leader_at)
        self.temples = temples & ~self.down_set
        self.catastrophes = catastrophes
        self.free = ALL & ~(tiles | catastrophes | self.leader_set)
        connects = tiles | self.leader_set
        if absent is not None:
            connects &= ~BIT[absent]
        label = self.label = [-1] * SQUARES
        self.regions = dict(enumerate(pieces(connects)))
        for rid, region in self.regions.items():
            for i in squares_of(region):
                label[i] = rid
        self.numbers = len(self.regions)
        self.leaders, self.nears = {}, {}
        for i, (seat, color) in leader_at.items():
            self.leaders.setdefault(label[i], []).append((seat, color, i))

    def region_of(self, i: int) -> int:
        """The number of square i's region (-1: none)."""
        return self.label[i]

    def region_squares(self, i: int) -> int:
        """The squares of square i's region (0: none)."""
        rid = self.label[i]
        return self.regions[rid] if rid != -1 else 0

    def kingdoms_next_to(self, i: int) -> set[int]:
        """The kingdoms (regions with a leader) orthogonally next to square i."""
        label, leaders = self.label, self.leaders
        return {label[n] for n in NEIGHBOURS[i] if label[n] in leaders}

    def kingdom_leaders(self, i: int) -> list[tuple[int, str, int]]:
        """(seat, colour, square) of the leaders in square i's region."""
        return self.leaders.get(self.label[i], [])

    # --- the next position's map, when a piece is added or a leader leaves ----------------

    def _next(self) -> Regions:
        new = Regions.__new__(Regions)
        new.down, new.down_set, new.key, new.found, new.lists = (
            self.down, self.down_set, None, {}, dict(self.lists))
        new.shared = new.sides = None
        new.leader_at, new.leader_set = self.leader_at, self.leader_set
        new.temples, new.catastrophes = self.temples, self.catastrophes
        new.label, new.regions = self.label[:], dict(self.regions)
        new.leaders, new.nears, new.numbers = dict(self.leaders), dict(self.nears), self.numbers
        return new

    def joined(self, board: list, i: int, leader: tuple[int, str] | None = None) -> Regions:
        """The map once a tile (on `board`, the new position's) or a `leader` (seat, colour)
        stands on square i, joining the regions next to it."""
        new = self._next()
        bit = BIT[i]
        new.free = self.free & ~bit
        if leader is None:
            if board[i] == TEMPLE:
                new.temples = self.temples | bit
        else:
            new.leader_at = dict(self.leader_at)
            new.leader_at[i] = leader
            new.leader_set = self.leader_set | bit
        label, regions, leaders, nears = new.label, new.regions, new.leaders, new.nears
        joining = {label[n] for n in NEIGHBOURS[i]}
        joining.discard(-1)
        if joining:                         # the biggest keeps its number
            rid = max(joining, key=lambda r: regions[r].bit_count())
            joining.discard(rid)
            near = nears.get(rid)
        else:
            rid, new.numbers = self.numbers, self.numbers + 1
            regions[rid] = near = 0
        region, kept = regions[rid] | bit, leaders.get(rid, [])
        kept = kept + [leader + (i,)] if leader is not None else kept
        for other in joining:
            squares = regions.pop(other)
            region |= squares
            relabel(label, squares, rid)
            kept = kept + leaders.pop(other, [])
            if near is not None:
                near = near | nears.pop(other) if other in nears else None
            else:
                nears.pop(other, None)
        label[i], regions[rid] = rid, region
        if kept:
            leaders[rid] = kept
        if near is None:
            nears.pop(rid, None)
        else:
            nears[rid] = near | NEXT_TO[i]
        return new

    def without(self, at: int) -> Regions:
        """The map once the leader on square `at` has left it (moved, withdrawn, sent home)."""
        new = self._next()
        bit = BIT[at]
        new.free = self.free | bit
        new.leader_at = dict(self.leader_at)
        del new.leader_at[at]
        new.leader_set = self.leader_set & ~bit
        self._take_out(new, at)
        return new

    def struck(self, i: int) -> Regions:
        """The map once a catastrophe falls on square i: empty, or a tile it destroys."""
        new = self._next()
        bit = BIT[i]
        new.catastrophes = self.catastrophes | bit
        if self.label[i] == -1:
            new.free = self.free & ~bit
        else:
            new.free, new.temples = self.free, self.temples & ~bit
            self._take_out(new, i)
        return new

    def _take_out(self, new: Regions, at: int) -> None:
        """Square `at` leaves its region in `new` (a copy of this map): what is left of the
        region may fall apart, each piece a kingdom if it holds a leader."""
        label, regions, leaders, nears = new.label, new.regions, new.leaders, new.nears
        rid = label[at]
        region, here = regions.pop(rid), leaders.pop(rid, [])
        nears.pop(rid, None)
        label[at] = -1
        rest = region & ~BIT[at]
        parts = ([rest] if rest else []) if stays_whole(region, at) else pieces(rest)
        for number, part in enumerate(parts):
            if number:
                part_id, new.numbers = new.numbers, new.numbers + 1
                relabel(label, part, part_id)
            else:
                part_id = rid
            regions[part_id] = part
            kept = [leader for leader in here if leader[2] != at and part & BIT[leader[2]]]
            if kept:
                leaders[part_id] = kept

    def near(self, rid: int) -> int:
        """The squares next to region `rid` (some of its own among them)."""
        squares = self.nears.get(rid)
        if squares is None:
            squares = self.nears[rid] = around(self.regions[rid])
        return squares

    def listed(self, key, table: BySquare, squares: int) -> list:
        """`table(squares)`, kept under `key` (never changed once made: callers copy it), made
        from the list an earlier position kept under `key` when only a few squares differ."""
        known = self.lists.get(key)
        if known is None:
            listed = table(squares)
        elif known[0] == squares:
            return known[1]
        elif (known[0] ^ squares).bit_count() <= PATCH_MOST:
            listed = table.patched(known[1], known[0], squares)
        else:
            listed = table(squares)
        self.lists[key] = (squares, listed)
        return listed

    # --- where pieces may go (what legal_actions lists) ------------------------------------

    def shared_squares(self) -> tuple[int, int, int]:
        """The squares next to one or more kingdoms, two or more, and three or more."""
        shared = self.shared
        if shared is None:
            once = twice = thrice = 0
            for rid in self.leaders:
                near = self.near(rid)
                thrice |= twice & near
                twice |= once & near
                once |= near
            shared = self.shared = (once, twice, thrice)
        return shared

    def tile_squares(self, color: str) -> int:
        """Where a tile of `color` may go: a free square of its ground that would not join
        more than two kingdoms (blue on the river, the others on land)."""
        ground = RIVER_SET if color == "blue" else LAND_SET
        return self.free & ground & ~(self.shared or self.shared_squares())[2]

    def temple_sides(self) -> int:
        """Free land squares next to a face-up temple."""
        sides = self.sides
        if sides is None:
            sides = self.sides = around(self.temples) & self.free & LAND_SET
        return sides

    def leader_squares_from_supply(self) -> int:
        """Where a leader from the supply may stand: next to a face-up temple, joining no two
        kingdoms."""
        return (self.sides or self.temple_sides()) & ~(self.shared or self.shared_squares())[1]

    def leader_squares_moving(self, at: int) -> int:
        """Where the leader standing on `at` may move: lifted first, so its own kingdom may
        fall apart into pieces, each a kingdom only if it still holds a leader."""
        squares = self.found.get(at)        # found: square of a leader -> its moves
        if squares is not None:
            return squares
        rid, sides = self.label[at], self.sides or self.temple_sides()
        mine = self.nears.get(rid) or self.near(rid)
        if not mine & sides:                # nothing next to its kingdom changes
            squares = self.leader_squares_from_supply()
        else:
            # next to one (two) kingdoms besides this one: to one (two) in all and not next to
            # this one, or to two (three) in all and next to this one
            once, twice, thrice = self.shared or self.shared_squares()
            once, twice = (once & ~mine) | (twice & mine), (twice & ~mine) | (thrice & mine)
            here = self.leaders[rid]
            stay = tuple(leader[2] for leader in here if leader[2] != at) if len(here) > 1 else ()
            if stay:
                for near in kingdoms_left(self.regions[rid], at, stay):
                    twice |= once & near
                    once |= near
            squares = sides & ~twice
        self.found[at] = squares
        return squares

    def catastrophe_squares(self, treasures: list[int]) -> int:
        """Where a catastrophe may go: not on one, a leader, a treasure or a monument."""
        return ALL & ~(self.catastrophes | self.leader_set | treasure_set(tuple(treasures))
                       | self.down_set)


_MAPS: OrderedDict[int, Regions] = OrderedDict()
# The maps of the states that `apply` is changing now, trusted without a check: every change
# of the board, a leader or a monument there either hands on the new map (`remember`) or drops
# it (`forget`). Keyed by id: such a state is `apply`'s own copy, which nobody else holds yet.
_WORKING: dict[int, Regions] = {}


# The lists of actions of the maps `forget` dropped while `apply` changed a state: the next map
# of that state starts from them (any earlier list is a good start: see Regions.listed).
_DROPPED_LISTS: dict[int, dict] = {}


# Maps by what they are made from (the board, the leaders, the monuments): a computer player's
# search makes a new state for every guess at the hidden tiles (determinize), each with the
# board of the position it thinks about; they all share that position's map. A map is never
# changed once made, but for what it works out from itself (kept lists and sets).
_BY_CONTENT: OrderedDict[tuple, Regions] = OrderedDict()


def content_key(state: dict) -> tuple:
    return (tuple(state["board"]), tuple(tuple(leaders.items()) for leaders in state["leaders"]),
            tuple(state["monuments"].items()))


def regions_of(state: dict) -> Regions:
    """The map of the position as it stands, worked out at most once per position."""
    regions = _WORKING.get(id(state))
    if regions is not None:
        return regions
    regions = _MAPS.get(id(state))
    if regions is None or not still(regions.key, state):
        if id(state) in _WORKING:
            regions = _WORKING[id(state)] = Regions(state)
            regions.lists = _DROPPED_LISTS.pop(id(state), regions.lists)
            return regions
        key = content_key(state)            # the same board, leaders and monuments: the map
        regions = _BY_CONTENT.get(key)
        if regions is None:
            regions = Regions(state)
            keep_by_content(key, regions)
        keep(state, regions)
    return regions


def remember(state: dict, regions: Regions) -> None:
    """`regions` is the map of `state` as it stands now (`state` being changed by apply)."""
    if id(state) in _WORKING:
        _WORKING[id(state)] = regions
    else:
        keep(state, regions)


def forget(state: dict) -> None:
    """The board, a leader or a monument of `state` changed: its map must be worked out anew."""
    if id(state) in _WORKING:
        dropped = _WORKING[id(state)]
        if dropped is not None:
            _DROPPED_LISTS[id(state)] = dropped.lists
        _WORKING[id(state)] = None
    _MAPS.pop(id(state), None)


def start_changing(state: dict, regions: Regions) -> None:
    """`state` (a fresh copy, with the map `regions`) is about to be changed by apply."""
    _WORKING[id(state)] = regions


def done_changing(state: dict) -> None:
    """Apply has finished with `state`: from now on its map is checked before each use."""
    regions = _WORKING.pop(id(state), None)
    _DROPPED_LISTS.pop(id(state), None)
    if regions is not None:
        keep(state, regions)


def keep(state: dict, regions: Regions) -> None:
    regions.key = snapshot(state)
    _MAPS[id(state)] = regions
    _MAPS.move_to_end(id(state))
    while len(_MAPS) > MAPS_KEPT:
        try:
            _MAPS.popitem(last=False)
        except KeyError:        # another thread emptied it meanwhile
            break


def keep_by_content(key: tuple, regions: Regions) -> None:
    """Find `regions` for any state with the same board, leaders and monuments (`key`)."""
    _BY_CONTENT[key] = regions
    while len(_BY_CONTENT) > MAPS_KEPT:
        try:
            _BY_CONTENT.popitem(last=False)
        except KeyError:        # another thread emptied it meanwhile
            break
