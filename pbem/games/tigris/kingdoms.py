"""The regions and kingdoms of a position, worked out once per position.

Every rule that asks "which kingdom is this in?", "may a leader stand here?" or "how many
kingdoms would this tile join?" reads a `Regions` map. Working one out means walking the whole
board, so `regions_of(state)` keeps the map of each recent position (by the state's id, checked
against the board, the leaders and the monuments, so a state changed in place is never read
with a stale map), and `apply` hands a position's map on to the next one when a tile or a
leader is simply added (`Regions.joined`), instead of walking the board again.
"""
from __future__ import annotations

from bisect import insort
from collections import OrderedDict
from itertools import chain, filterfalse

from .board import (COLORS, COLS, EMPTY, NEIGHBOURS, RIVER, ROWS, SQUARES, TEMPLE,
                    block_squares)

TILE_COLORS = frozenset(COLORS)
LAND = tuple(i for i in range(SQUARES) if i not in RIVER)
RIVER_SQUARES = tuple(sorted(RIVER))
MAPS_KEPT = 64             # positions whose map is kept: a search walks back and forth a little


def _ring(i: int) -> tuple[int, ...]:
    """The 8 squares around square i, clockwise from the one above (-1: off the board)."""
    r, c = divmod(i, COLS)
    steps = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
    return tuple((r + dr) * COLS + c + dc if 0 <= r + dr < ROWS and 0 <= c + dc < COLS else -1
                 for dr, dc in steps)


RING = tuple(_ring(i) for i in range(SQUARES))


def leader_squares(state: dict) -> dict[int, tuple[int, str]]:
    """Square -> (seat, colour) of every leader on the board."""
    return {i: (seat, color) for seat, leaders in enumerate(state["leaders"])
            for color, i in leaders.items() if i is not None}


def face_down_squares(state: dict) -> set[int]:
    """The tiles turned face down under monuments: they connect but have no colour."""
    return {i for top_left in state["monuments"].values() if top_left is not None
            for i in block_squares(top_left)}


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

    `lifted` leaves one leader out (a leader being moved); `absent` leaves one
    square out (the unification tile, to find each side of a war). `label[i]` is the
    region of square i (-1: none), `members[r]` its squares and `leaders[r]` the
    (seat, colour, square) of its leaders: a region with a leader is a kingdom.
    """

    __slots__ = ("board", "leader_at", "label", "members", "leaders", "down", "key", "found")
    # key: the snapshot of the position the map was kept for (see `still`)

    def __init__(self, state: dict, lifted: int | None = None, absent: int | None = None):
        board = self.board = state["board"]
        leader_at = self.leader_at = leader_squares(state)
        if lifted is not None:
            leader_at.pop(lifted, None)
        self.down = face_down_squares(state)
        self.key = None
        self.found = {}
        connects = {i for i in range(SQUARES) if board[i] in TILE_COLORS}
        connects.update(leader_at)
        connects.discard(absent)
        self.label = label = [-1] * SQUARES
        self.members = members = []
        for start in sorted(connects):
            if label[start] != -1:
                continue
            rid = len(members)
            label[start] = rid
            stack, squares = [start], []
            while stack:
                i = stack.pop()
                squares.append(i)
                for n in NEIGHBOURS[i]:
                    if label[n] == -1 and n in connects:
                        label[n] = rid
                        stack.append(n)
            members.append(squares)
        self.leaders = leaders = [[] for _ in members]
        for i, (seat, color) in leader_at.items():
            leaders[label[i]].append((seat, color, i))

    def kingdoms_next_to(self, i: int) -> set[int]:
        """The kingdoms (regions with a leader) orthogonally next to square i."""
        label, leaders = self.label, self.leaders
        return {label[n] for n in NEIGHBOURS[i] if label[n] != -1 and leaders[label[n]]}

    def kingdom_leaders(self, i: int) -> list[tuple[int, str, int]]:
        """(seat, colour, square) of the leaders in square i's region."""
        rid = self.label[i]
        return self.leaders[rid] if rid != -1 else []

    # --- the next position's map, when a piece is only added ---------------------------

    def joined(self, board: list, i: int, leader: tuple[int, str] | None = None) -> Regions:
        """The map once a tile (on `board`, the new position's) or a `leader` (seat, colour)
        stands on square i, joining the regions next to it."""
        new = Regions.__new__(Regions)
        new.board, new.down, new.key, new.found = board, self.down, None, {}
        label = new.label = self.label[:]
        members = new.members = self.members[:]
        leaders = new.leaders = self.leaders[:]
        new.leader_at = self.leader_at
        if leader is not None:
            new.leader_at = dict(self.leader_at)
            new.leader_at[i] = leader
        around = {label[n] for n in NEIGHBOURS[i] if label[n] != -1}
        self.hand_on(new, taken=i)
        if not around:
            label[i] = len(members)
            members.append([i])
            leaders.append([leader + (i,)] if leader else [])
            self.hand_on_frontiers(new, (), (label[i],))
            return new
        rid = max(around, key=lambda r: len(members[r]))
        squares, kept = members[rid] + [i], list(leaders[rid])
        for other in around:
            if other != rid:
                for j in members[other]:
                    label[j] = rid
                squares += members[other]
                kept += leaders[other]
                members[other], leaders[other] = [], []
        if leader is not None:
            kept.append(leader + (i,))
        label[i] = rid
        members[rid], leaders[rid] = squares, kept
        self.frontier_joined(new, around, rid, i)
        return new

    def hand_on(self, new: Regions, taken: int | None = None, freed: int | None = None) -> None:
        """Give the next position's map the lists of free squares worked out for this one,
        changed where square `taken` got a piece or square `freed` lost its leader."""
        found = self.found
        if "free" in found:
            land, river = found["free"]
            if taken is not None:
                if taken in RIVER:
                    river = river[:]
                    river.remove(taken)
                else:
                    land = land[:]
                    land.remove(taken)
            if freed is not None:
                land = land[:]
                insort(land, freed)
            new.found["free"] = (land, river)
        if "temple_sides" in found:
            sides = found["temple_sides"][:]
            if taken in sides:
                sides.remove(taken)
            if taken is not None and new.board[taken] == TEMPLE:
                board, leader_at = new.board, new.leader_at
                for n in NEIGHBOURS[taken]:
                    if (board[n] == EMPTY and n not in leader_at and n not in RIVER
                            and n not in sides):
                        insort(sides, n)
            if freed is not None and any(new.board[n] == TEMPLE and n not in new.down
                                         for n in NEIGHBOURS[freed]):
                insort(sides, freed)
            new.found["temple_sides"] = sides
        if "catastrophe" in found:
            treasures, squares = found["catastrophe"]
            if freed is not None:
                squares = squares[:]
                insort(squares, freed)
            elif taken in new.leader_at and taken in squares:
                squares = squares[:]
                squares.remove(taken)
            new.found["catastrophe"] = (treasures, squares)

    # --- where pieces may go (what legal_actions lists) ---------------------------------

    def hand_on_frontiers(self, new: Regions, gone, made) -> None:
        """Give the next position's map this one's kingdom frontiers, where the regions `gone`
        became the regions `made` (the others kept their squares and their frontiers)."""
        frontiers = self.found.get("frontiers")
        if frontiers is None:
            return
        frontiers = dict(frontiers)
        for rid in gone:
            frontiers.pop(rid, None)
        label, members = new.label, new.members
        for rid in made:
            if new.leaders[rid]:
                frontiers[rid] = {n for n in chain.from_iterable(
                    map(NEIGHBOURS.__getitem__, members[rid])) if label[n] == -1}
        new.found["frontiers"] = frontiers

    def frontier_joined(self, new: Regions, around: set[int], rid: int, i: int) -> None:
        """`hand_on_frontiers` when the piece on square i joined the regions `around` into
        region `rid`: its frontier is theirs, and the empty squares next to i, less i."""
        frontiers = self.found.get("frontiers")
        if frontiers is None:
            return
        frontiers = dict(frontiers)
        if new.leaders[rid]:
            label = self.label
            frontier = {n for n in NEIGHBOURS[i] if label[n] == -1}
            for r in around:
                if r in frontiers:
                    frontier |= frontiers[r]
                else:                   # a region without a leader joins a kingdom
                    frontier.update(n for n in chain.from_iterable(
                        map(NEIGHBOURS.__getitem__, self.members[r])) if label[n] == -1)
            frontier.discard(i)
        for r in around:
            frontiers.pop(r, None)
        if new.leaders[rid]:
            frontiers[rid] = frontier
        new.found["frontiers"] = frontiers

    def frontier_without(self, new: Regions, rid: int, at: int) -> None:
        """`hand_on_frontiers` when the leader on `at` left region `rid`, which holds
        together: `at` joins its frontier, the empty squares next only to `at` leave it."""
        frontiers = self.found.get("frontiers")
        if frontiers is None:
            return
        frontiers = dict(frontiers)
        if not new.leaders[rid]:
            frontiers.pop(rid, None)
        else:
            label = new.label
            frontier = set(frontiers[rid])
            frontier.add(at)
            for n in NEIGHBOURS[at]:
                if label[n] == -1 and not any(label[m] == rid for m in NEIGHBOURS[n]):
                    frontier.discard(n)
            frontiers[rid] = frontier
        new.found["frontiers"] = frontiers

    def frontiers(self) -> dict[int, set[int]]:
        """Kingdom -> the squares with no piece orthogonally next to it."""
        frontiers = self.found.get("frontiers")
        if frontiers is None:
            label, members = self.label, self.members
            frontiers = self.found["frontiers"] = {
                rid: {n for n in chain.from_iterable(map(NEIGHBOURS.__getitem__, members[rid]))
                      if label[n] == -1}
                for rid, here in enumerate(self.leaders) if here}
        return frontiers

    def shared_squares(self) -> tuple[set[int], set[int]]:
        """The squares with no piece next to two or more kingdoms, and those next to three or
        more (where the frontiers meet)."""
        shared = self.found.get("shared")
        if shared is None:
            frontiers = list(self.frontiers().values())
            doubles: set[int] = set()
            crowded: set[int] = set()
            for a, first in enumerate(frontiers):
                for b in range(a + 1, len(frontiers)):
                    both = first & frontiers[b]
                    if both:
                        doubles |= both
                        for third in frontiers[b + 1:]:
                            crowded |= both & third
            shared = self.found["shared"] = (doubles, crowded)
        return shared

    def free_squares(self) -> tuple[list[int], list[int]]:
        """(land, river) squares with no tile, catastrophe or leader, in board order."""
        free = self.found.get("free")
        if free is None:
            board, leader_at = self.board, self.leader_at
            free = self.found["free"] = (
                [i for i in LAND if board[i] == EMPTY and i not in leader_at],
                [i for i in RIVER_SQUARES if board[i] == EMPTY and i not in leader_at])
        return free

    def tile_squares(self, color: str) -> list[int]:
        """Where a tile of `color` may go: an empty square of its ground that would not join
        more than two kingdoms (blue on the river, the others on land)."""
        key = "river" if color == "blue" else "land"
        squares = self.found.get(key)
        if squares is None:
            land, river = self.free_squares()
            squares = river if key == "river" else land
            crowded = self.shared_squares()[1]
            if crowded:
                squares = list(filterfalse(crowded.__contains__, squares))
            self.found[key] = squares
        return squares

    def temple_sides(self) -> list[int]:
        """Empty land squares (no leader) next to a face-up temple, in board order."""
        sides = self.found.get("temple_sides")
        if sides is None:
            board, down, leader_at = self.board, self.down, self.leader_at
            near = set()
            for t in range(SQUARES):
                if board[t] == TEMPLE and t not in down:
                    near.update(NEIGHBOURS[t])
            sides = self.found["temple_sides"] = sorted(
                i for i in near if board[i] == EMPTY and i not in leader_at and i not in RIVER)
        return sides

    def leader_squares_from_supply(self) -> list[int]:
        """Where a leader from the supply may stand: next to a face-up temple, joining no two
        kingdoms."""
        squares = self.found.get("supply")
        if squares is None:
            doubles = self.shared_squares()[0]
            squares = self.temple_sides()
            if doubles:
                squares = list(filterfalse(doubles.__contains__, squares))
            self.found["supply"] = squares
        return squares

    def parts_without(self, at: int) -> list[list[int]]:
        """The pieces of the region of square `at` once the piece on `at` is lifted."""
        rid, label = self.label[at], self.label
        if self.stays_whole(at):
            rest = self.members[rid][:]
            rest.remove(at)
            return [rest] if rest else []
        seen, parts = {at}, []
        for start in self.members[rid]:
            if start in seen:
                continue
            seen.add(start)
            stack, squares = [start], []
            while stack:
                j = stack.pop()
                squares.append(j)
                for n in NEIGHBOURS[j]:
                    if label[n] == rid and n not in seen:
                        seen.add(n)
                        stack.append(n)
            parts.append(squares)
        return parts

    def stays_whole(self, at: int) -> bool:
        """True when the region of square `at` surely holds together without it: the pieces
        next to `at` touch one another around it (clockwise, with the corners between)."""
        rid, label = self.label[at], self.label
        inside = [j != -1 and label[j] == rid for j in RING[at]]
        runs = 0                # runs of region squares around `at` holding a side square
        for k in range(0, 8, 2):
            if inside[k] and not (inside[k - 1] and inside[k - 2]):
                runs += 1
        return runs <= 1

    def without(self, at: int) -> Regions:
        """The map once the leader on square `at` has left it (moved, withdrawn)."""
        new = Regions.__new__(Regions)
        new.board, new.down, new.key, new.found = self.board, self.down, None, {}
        new.leader_at = leader_at = dict(self.leader_at)
        del leader_at[at]
        rid = self.label[at]
        label = new.label = self.label[:]
        members = new.members = self.members[:]
        leaders = new.leaders = self.leaders[:]
        label[at] = -1
        self.hand_on(new, freed=at)
        parts = self.parts_without(at) or [[]]
        if len(parts) == 1:             # the rest holds together: the same region, less `at`
            members[rid] = parts[0]
            leaders[rid] = [here for here in self.leaders[rid] if here[2] != at]
            self.frontier_without(new, rid, at)
            return new
        for number, squares in enumerate(parts):
            part = rid if number == 0 else len(members)
            if number:
                members.append(squares)
                leaders.append([])
            for j in squares:
                label[j] = part
            members[part] = squares
            leaders[part] = [leader_at[j] + (j,) for j in squares if j in leader_at]
        self.hand_on_frontiers(new, (rid,), [rid] + list(range(len(self.members),
                                                               len(members))))
        return new

    def leader_squares_moving(self, at: int) -> list[int]:
        """Where the leader standing on `at` may move: lifted first, so its own kingdom may
        fall apart into pieces, each a kingdom only if it still holds a leader. Only the
        squares next to that kingdom are looked at again."""
        key = ("moving", at)
        squares = self.found.get(key)
        if squares is not None:
            return squares
        rid = self.label[at]
        frontier = self.frontiers()[rid]
        touching = sorted(frontier.intersection(self.temple_sides()))
        if not touching:
            squares = self.found[key] = self.leader_squares_from_supply()
            return squares
        squares = list(filterfalse(frontier.__contains__, self.leader_squares_from_supply()))
        (doubles, crowded), label = self.shared_squares(), self.label
        if len(self.leaders[rid]) == 1:         # lifted, it leaves no kingdom behind
            squares += [i for i in touching if i not in crowded]
        elif self.stays_whole(at):              # still one kingdom, without `at`
            for i in touching:
                if i not in doubles or (i not in crowded and not any(
                        label[n] == rid and n != at for n in NEIGHBOURS[i])):
                    squares.append(i)
        else:
            ruled: dict[int, int] = {}  # square -> its piece, for the pieces holding a leader
            for number, piece in enumerate(self.parts_without(at)):
                if any(j in self.leader_at for j in piece):
                    for j in piece:
                        ruled[j] = number
            for i in touching:
                pieces = {ruled[n] for n in NEIGHBOURS[i] if n in ruled}
                if len(pieces) + (i in doubles) + (i in crowded) <= 1:
                    squares.append(i)
        squares.sort()
        self.found[key] = squares
        return squares

    def catastrophe_squares(self, treasures: list[int]) -> list[int]:
        """Where a catastrophe may go: not on one, a leader, a treasure or a monument."""
        known = self.found.get("catastrophe")
        if known is None or known[0] != tuple(treasures):
            board, leader_at, down = self.board, self.leader_at, self.down
            blocked = set(treasures)
            blocked.update(leader_at)
            blocked.update(down)
            known = self.found["catastrophe"] = (tuple(treasures), [
                i for i in range(SQUARES) if board[i] != "catastrophe" and i not in blocked])
        return known[1]


_MAPS: OrderedDict[int, Regions] = OrderedDict()
# The maps of the states that `apply` is changing now, trusted without a check: every change
# of the board, a leader or a monument there either hands on the new map (`remember`) or drops
# it (`forget`). Keyed by id: such a state is `apply`'s own copy, which nobody else holds yet.
_WORKING: dict[int, Regions] = {}


def regions_of(state: dict) -> Regions:
    """The map of the position as it stands, worked out at most once per position."""
    regions = _WORKING.get(id(state))
    if regions is not None:
        return regions
    regions = _MAPS.get(id(state))
    if regions is None or not still(regions.key, state):
        regions = Regions(state)
        if id(state) in _WORKING:
            _WORKING[id(state)] = regions
        else:
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
        _WORKING[id(state)] = None
    _MAPS.pop(id(state), None)


def start_changing(state: dict, regions: Regions) -> None:
    """`state` (a fresh copy, with the map `regions`) is about to be changed by apply."""
    _WORKING[id(state)] = regions


def done_changing(state: dict) -> None:
    """Apply has finished with `state`: from now on its map is checked before each use."""
    regions = _WORKING.pop(id(state), None)
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
