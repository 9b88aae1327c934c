"""Pieces of Euphrat & Tigris: the card game (rulebook: "Tartalom", "Előkészületek")."""
from __future__ import annotations

# ---- The four colours, their leaders and their civilization cards -------------------------
COLOURS = ("black", "green", "red", "blue")
LEADERS = {"black": "king", "green": "trader", "red": "priest", "blue": "farmer"}
CARD_NAMES = {"black": "population", "green": "trade", "red": "temple", "blue": "agriculture"}
DYNASTIES = ("bow", "lion", "bull", "vase")

# ---- 193 civilization cards: 8 treasures first, then 40 black, 40 green, 65 red, 40 blue ----
TREASURES = 8
CARD_COUNTS = (("black", 40), ("green", 40), ("red", 65), ("blue", 40))
TOTAL_CARDS = TREASURES + sum(n for _, n in CARD_COUNTS)
TREASURE = "treasure"  # a treasure card is a red temple card with a treasure mark


def _card_colours() -> tuple[str, ...]:
    colours = ["red"] * TREASURES
    for colour, count in CARD_COUNTS:
        colours += [colour] * count
    return tuple(colours)


CARD_COLOUR = _card_colours()


def colour_of(card: int) -> str:
    """The card's colour; a treasure card counts as red."""
    return CARD_COLOUR[card]


def is_treasure(card: int) -> bool:
    return card < TREASURES


def face_of(card: int) -> str:
    """What a player sees: the colour, or "treasure" for a treasure card."""
    return FACE[card]


FACE = tuple(TREASURE if is_treasure(card) else CARD_COLOUR[card] for card in range(TOTAL_CARDS))


# ---- Ships: blue with one other colour -----------------------------------------------------
SHIPS = ("blue-black", "blue-green", "blue-red")


def ship_colours(ship: str) -> tuple[str, str]:
    return tuple(ship.split("-"))  # type: ignore[return-value]


def ships_for_run(colour: str) -> tuple[str, ...]:
    """A blue run may buy any ship; a black, green or red run only the blue ship of its colour."""
    return SHIPS if colour == "blue" else ("blue-" + colour,)


# ---- Numbers of the rulebook ----------------------------------------------------------------
HAND_SIZE = 8
ACTIONS_PER_TURN = 2
COLUMN_LIMIT = 8          # civilization cards below a treasure* [ruling: one named constant]
CONNECT_MINIMUM = 3       # cards below both treasures* before a connecting card may go between
SHIP_RUN = 4              # cards of one colour directly one below another buy a ship
REMOVED_WITH_TWO = 30     # cards counted off the deck unseen with two players
COLUMNS = TREASURES
GAPS = TREASURES - 1
COLOUR_ORDER = COLOURS    # the order conflicts and offers are listed in
