"""The Tigris & Euphrates board (16 x 11), its pieces and square names."""
from __future__ import annotations

from pathlib import Path

# --- The board ---------------------------------------------------------------

ROWS = 11
COLS = 16
SQUARES = ROWS * COLS
COLUMN_LETTERS = "ABCDEFGHIJKLMNOP"

BOARD_FILE = Path(__file__).parent / "data" / "tigris-board.txt"


def _read_board() -> list[str]:
    """The 11 rows of the board drawing ('.' land, '~' river, 'T'/'C' start temples)."""
    lines = [line for line in BOARD_FILE.read_text().splitlines()
             if line and not line.startswith("#")]
    if len(lines) != ROWS or any(len(line) != COLS for line in lines):
        raise ValueError("tigris-board.txt must hold 11 rows of 16 squares")
    return lines


BOARD_ROWS = _read_board()
RIVER = frozenset(r * COLS + c for r, row in enumerate(BOARD_ROWS)
                  for c, ch in enumerate(row) if ch == "~")
START_TEMPLES = tuple(r * COLS + c for r, row in enumerate(BOARD_ROWS)
                      for c, ch in enumerate(row) if ch in "TC")
CORNER_TREASURES = frozenset(r * COLS + c for r, row in enumerate(BOARD_ROWS)
                             for c, ch in enumerate(row) if ch == "C")


def _neighbours(i: int) -> tuple[int, ...]:
    r, c = divmod(i, COLS)
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < ROWS and 0 <= cc < COLS:
            out.append(rr * COLS + cc)
    return tuple(out)


NEIGHBOURS = tuple(_neighbours(i) for i in range(SQUARES))


def _blocks_of(i: int) -> tuple[int, ...]:
    """Top-left squares of every 2x2 block that holds square i."""
    r, c = divmod(i, COLS)
    return tuple(rr * COLS + cc for rr in (r - 1, r) for cc in (c - 1, c)
                 if 0 <= rr < ROWS - 1 and 0 <= cc < COLS - 1)


BLOCKS_OF = tuple(_blocks_of(i) for i in range(SQUARES))


def block_squares(top_left: int) -> tuple[int, int, int, int]:
    """The four squares of the 2x2 block whose top-left square is given."""
    return (top_left, top_left + 1, top_left + COLS, top_left + COLS + 1)


# --- Square names ------------------------------------------------------------

def label(i: int) -> str:
    """A square's human name: column letter A..P and row number 1..11, e.g. 'F4'."""
    if type(i) is int and 0 <= i < SQUARES:     # a square of the board: looked up
        return LABELS[i]
    r, c = divmod(i, COLS)
    return f"{COLUMN_LETTERS[c]}{r + 1}"


def to_rc(i: int) -> list[int]:
    """A square as [row, col] (0-based), the form actions use."""
    if type(i) is int and 0 <= i < SQUARES:
        return list(ROW_COLS[i])
    return list(divmod(i, COLS))


# Every view names each tile's square both ways: worked out once per square.
ROW_COLS = tuple(divmod(i, COLS) for i in range(SQUARES))
LABELS = tuple(f"{COLUMN_LETTERS[c]}{r + 1}" for r, c in ROW_COLS)


def from_rc(rc) -> int | None:
    """The square index of [row, col]; None if it is not a square of the board."""
    if type(rc) is list and len(rc) == 2:        # the usual case, quickly
        r, c = rc
        if type(r) is int and type(c) is int and 0 <= r < ROWS and 0 <= c < COLS:
            return r * COLS + c
    if not isinstance(rc, (list, tuple)) or len(rc) != 2:
        return None
    r, c = rc
    if (not isinstance(r, int) or not isinstance(c, int) or isinstance(r, bool)
            or isinstance(c, bool)):
        return None
    if 0 <= r < ROWS and 0 <= c < COLS:
        return r * COLS + c
    return None


# --- The pieces --------------------------------------------------------------

COLORS = ("red", "blue", "green", "black")
TILE_COUNTS = {"red": 57, "blue": 36, "green": 30, "black": 30}
TILES_TOTAL = sum(TILE_COUNTS.values())            # 153
HAND_SIZE = 6
CATASTROPHES_EACH = 2
TREASURES_TOTAL = len(START_TEMPLES)                # 10
TEMPLE = "red"
FARM = "blue"
MARKET = "green"
SETTLEMENT = "black"
CATASTROPHE = "catastrophe"
EMPTY = ""

LEADERS = {"black": "king", "red": "priest", "blue": "farmer", "green": "trader"}
LEADER_COLORS = {name: color for color, name in LEADERS.items()}
DYNASTIES = ("bow", "bull", "pot", "lion")

# The six monuments, one per colour pair, named "first/second".
MONUMENTS = ("red/black", "red/green", "blue/black", "blue/red", "green/blue", "green/black")


def monument_colors(name: str) -> tuple[str, str]:
    first, second = name.split("/")
    return first, second
