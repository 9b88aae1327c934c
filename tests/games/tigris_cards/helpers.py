"""A small text-drawing helper to build card-game positions for tests.

The first line of a drawing is the top row: 8 treasures* with the 7 gaps between them
(15 tokens); each further line holds one token per column (8 tokens), top to bottom.
Tokens: T treasure, R red card in a treasure's place, k g r b black/green/red/blue card,
Sk Sg Sr the blue-black/-green/-red ship, "-" an empty gap, "." no card.
A leader is "@" + seat + colour letter after the card: "r@1g" = seat 1's trader on a red card.
"""
from __future__ import annotations

import random

from pbem.games.tigris_cards import rules
from pbem.games.tigris_cards.cards import (CARD_COLOUR, COLOURS, SHIPS, TOTAL_CARDS,
                                           TREASURES, face_of)

LETTER = {"k": "black", "g": "green", "r": "red", "b": "blue"}
SHIP_LETTER = {"Sk": "blue-black", "Sg": "blue-green", "Sr": "blue-red"}


class Pool:
    """Card ids by colour, handed out so that every card exists exactly once."""

    def __init__(self):
        self.free = {colour: [c for c in range(TREASURES, TOTAL_CARDS) if CARD_COLOUR[c] == colour]
                     for colour in COLOURS}
        self.treasures = list(range(TREASURES))

    def take(self, colour: str) -> int:
        return self.free[colour].pop(0)

    def rest(self) -> list[int]:
        return [c for colour in COLOURS for c in self.free[colour]]


def parse_slot(token: str, pool: Pool, ships: list) -> dict | None:
    if token in ("-", "."):
        return None
    card, _, leader = token.partition("@")
    if card in SHIP_LETTER:
        ships.append(SHIP_LETTER[card])
        slot = {"ship": SHIP_LETTER[card]}
    elif card == "T":
        slot = {"card": pool.treasures.pop(0)}
    elif card == "R":
        slot = {"card": pool.take("red")}
    else:
        slot = {"card": pool.take(LETTER[card])}
    if leader:
        slot["leader"] = [int(leader[0]), LETTER[leader[1]]]
    return slot


def position(drawing: str, players: int = 4, hands: dict | None = None, active: int = 0,
             actions_left: int = 2, deck: int | None = None, options: dict | None = None,
             seed: int = 1, version: int | None = None) -> dict:
    """A quiet position (the active seat is about to act) built from a drawing (rules
    `version`: None for the current one)."""
    st = rules.setup(players, seed, options, version=version)
    pool, ships = Pool(), []
    lines = [line.split() for line in drawing.strip().splitlines() if line.strip()]
    top = lines[0]
    assert len(top) == 15, top
    columns = [[parse_slot(top[2 * c], pool, ships)] for c in range(8)]
    gaps = [parse_slot(top[2 * g + 1], pool, ships) for g in range(7)]
    for line in lines[1:]:
        assert len(line) == 8, line
        for c, token in enumerate(line):
            slot = parse_slot(token, pool, ships)
            if slot is not None:
                columns[c].append(slot)
    hands = hands or {}
    st_hands = [[pool.take(LETTER[ch]) for ch in hands.get(seat, "")] for seat in range(players)]
    rest = pool.rest()
    random.Random(seed).shuffle(rest)
    rest = rest + pool.treasures  # unused treasures (none in a full row) stay accounted for
    keep = len(rest) if deck is None else deck
    st.update(columns=columns, gaps=gaps, hands=st_hands, deck=rest[:keep],
              removed=rest[keep:], discard=[], destroyed=[], piles=[[] for _ in range(players)],
              ships=[s for s in SHIPS if s not in ships], active=active,
              actions_left=actions_left, pending={"kind": "action", "seat": active}, queue=[])
    return st


def act(st: dict, seat: int, **action) -> dict:
    return rules.apply(st, seat, action)


def pile(st: dict, seat: int) -> list[str]:
    return [face_of(card) for card in st["piles"][seat]]


def hand(st: dict, seat: int) -> list[str]:
    return sorted(face_of(card) for card in st["hands"][seat])


def column(st: dict, c: int) -> list[str]:
    """A column as tokens again: T/R, colour letters, ships, with leaders."""
    out = []
    for row, slot in enumerate(st["columns"][c]):
        out.append(token(slot, row))
    return out


def token(slot: dict | None, row: int | None = None) -> str:
    if slot is None:
        return "-"
    if "ship" in slot:
        text = {v: k for k, v in SHIP_LETTER.items()}[slot["ship"]]
    elif row == 0:
        text = "T" if slot["card"] < TREASURES else "R"
    else:
        text = {v: k for k, v in LETTER.items()}[CARD_COLOUR[slot["card"]]]
    if "leader" in slot:
        seat, colour = slot["leader"]
        text += f"@{seat}{ {v: k for k, v in LETTER.items()}[colour]}"
    return text


def pending(st: dict) -> dict | None:
    return st["pending"]


def all_cards(st: dict) -> list[int]:
    """Every civilization card wherever it is (table, hands, deck, removed, discard, piles)."""
    cards = list(st["deck"]) + list(st["removed"]) + list(st["destroyed"]) + list(st["discard"])
    for h in st["hands"]:
        cards += h
    for p in st["piles"]:
        cards += p
    for col in st["columns"]:
        cards += [slot["card"] for slot in col if "card" in slot]
    cards += [slot["card"] for slot in st["gaps"] if slot is not None]
    if st["conflict"]:
        for played in st["conflict"]["played"]:
            cards += played
    return cards


def faces(cards) -> list[str]:
    return sorted(face_of(c) for c in cards)
