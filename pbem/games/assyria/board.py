"""The Assyria board: hexes, food symbols, regions, start hexes and well sites per player count."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

MAP_FILE = Path(__file__).with_name("data") / "assyria-map.json"
COLUMNS = {2: 6, 3: 8, 4: 10}          # the board is cut to q < COLUMNS[players]
RIVERS = ("river1", "river2")          # upper and lower river
NEIGHBOURS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def key(q: int, r: int) -> str:
    """The state's name of hex (q, r): "q,r"."""
    return f"{q},{r}"


def coords(hex_key: str) -> list[int]:
    """[q, r] of a hex key."""
    qr = _COORDS.get(hex_key) if type(hex_key) is str else None
    if qr is None:
        q, r = hex_key.split(",")
        qr = int(q), int(r)
        if type(hex_key) is str and len(_COORDS) < 10_000:
            _COORDS[hex_key] = qr
    return [qr[0], qr[1]]


_COORDS: dict[str, tuple[int, int]] = {}   # hex key -> (q, r): views ask for them by the hundred


@lru_cache(maxsize=None)
def _map() -> dict:
    return json.loads(MAP_FILE.read_text(encoding="utf-8"))


class Board:
    """The board for one player count; everything here is fixed for the whole game."""

    def __init__(self, players: int):
        data = _map()
        self.players = players
        self.hexes = {key(h["q"], h["r"]): {"food": h["food"], "region": h["region"]}
                      for h in data["hexes"] if h["q"] < COLUMNS[players]}
        self.order = list(self.hexes)  # file order: column by column, top to bottom
        self.starts = [key(q, r) for q, r in data["starting_spaces"][str(players)]]
        self.well_sites = [[key(q, r) for q, r in v["hexes"]] for v in data["well_vertices"]
                           if all(key(q, r) in self.hexes for q, r in v["hexes"])]
        self.neighbours = {h: [n for n in self._around(h) if n in self.hexes] for h in self.hexes}
        # lookups the move generation asks thousands of times a game
        self.index = {h: i for i, h in enumerate(self.order)}
        self.foods = {h: v["food"] for h, v in self.hexes.items()}
        self.regions = {h: v["region"] for h, v in self.hexes.items()}
        self.river_hexes = frozenset(h for h, v in self.hexes.items() if v["region"] in RIVERS)
        self.sites_at = {h: [i for i, site in enumerate(self.well_sites) if h in site]
                         for h in self.hexes}
        self.qr = {h: tuple(coords(h)) for h in self.hexes}   # list(...) of it for an action
        # what every view shows of the board, which never changes: (q, r), food, region of
        # each hex in board order, and the (q, r) of each well site's hexes
        self.cells = tuple((self.qr[h], self.foods[h], self.regions[h]) for h in self.order)
        self.site_qr = tuple(tuple(self.qr[h] for h in site) for site in self.well_sites)

    @staticmethod
    def _around(hex_key: str) -> list[str]:
        q, r = coords(hex_key)
        return [key(q + dq, r + dr) for dq, dr in NEIGHBOURS]

    def food(self, hex_key: str) -> str:
        return self.foods[hex_key]

    def region(self, hex_key: str) -> str:
        return self.regions[hex_key]

    def on_river(self, hex_key: str) -> bool:
        return hex_key in self.river_hexes

    def in_board_order(self, hex_keys) -> list[str]:
        """`hex_keys` (hexes on this board) in the board's order."""
        return sorted(hex_keys, key=self.index.__getitem__)


@lru_cache(maxsize=None)
def board(players: int) -> Board:
    """The (shared, read-only) board for a player count."""
    return Board(players)
