"""Determinization: a full state a seat's view could have come from, for computer players that
search the game tree over states they cannot see whole (`TigrisCards.determinize`).

Built from the view alone, so it never depends on what the seat cannot see. What is inferred:
- every card the view shows: the table (a treasure showing in column c is treasure card c, the
  one dealt there), face-up connecting cards, the seat's own hand, the destroyed cards, the
  discarded ones (each lay face up before it went, so the view counts them by face; no rule
  reads their order), the top card of each victory pile and every pile's cards by colour (each
  card is placed on a pile in view: the view counts them, with or without "open piles"; after
  the end: everything the end shows), the cards played in the conflict under
  way (their number on each side is shown, their colour is the conflict's);
- where the treasures no longer on the table are: on victory piles (only the trader's exchange
  takes a treasure off the table, onto a pile), so they go to unseen pile places;
- the game flow: the decision asked, the conflict, the steps still queued and the turn's
  counters, all public, as the view shows them; the rules version (views of versions 2 and
  3 show "quiet_turns", of version 3 also "at_most"; version 1 views neither).
What is drawn at random (from `rng`): which cards lie in the places the seat cannot see — the
other players' hands (their sizes are shown), the order of the deck, the cards counted off the
deck with two players, the order of the cards under each pile's top card, a connecting card
lying face down for this seat — all dealt from the cards of each
colour that exist (40 black, 40 green, 65 red, 40 blue) minus the ones the view shows; the
treasures off the table are spread over the piles' unseen places. Not drawn: the other
players' standing answers, which the seat cannot see, are "ask" (they decide each time), and the
seed, which no later draw uses (the deck is already shuffled), is drawn from `rng`.
What is believed (rules version 3): where the view's "at_most" says that a rival, by its own
answers, holds at most n cards of a colour (hand_record.py), its hand is dealt that way in
BELIEF of the drawings: n counts the cards drawn since it held none, so all but n places of
its hand, drawn at random, hold none of that colour (their cards of it swapped with deck cards
of other colours). Only a belief (a player may decline a point and keep the card for a conflict), so the
other drawings leave the hand as dealt.
"""
from __future__ import annotations

import random

from .cards import CARD_COLOUR, COLOURS, TOTAL_CARDS, TREASURE, TREASURES
from .engine import STANDING, copy_columns, copy_gaps, copy_record
from .hand_record import RECORD

# The share of drawings that take a rival's answers at their word. How often they are true,
# measured in bench games of level 2's search seeing every hand (2026-12-04): with 3 players, 79
# of 97 declined cards and 58 of 89 lost defences came from a seat holding no more of the
# colour (74% in all); with 2 players, 23 of 37 declines (62%). A hand of 8 drawn blind holds
# none of a colour a few times in a hundred.
BELIEF = 0.7


IDS = {colour: tuple(c for c in range(TREASURES, TOTAL_CARDS) if CARD_COLOUR[c] == colour)
       for colour in COLOURS}


class Cards:
    """The civilization card ids not placed yet, by colour. Cards of one colour are alike, so a
    shown card takes the next free id of its colour; the unseen ones are shuffled."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.free = {colour: list(ids) for colour, ids in IDS.items()}
        self.free[TREASURE] = []  # treasures are placed by the column they were dealt to

    def take(self, face: str) -> int:
        if not self.free[face]:
            raise ValueError(f"the view shows more {face} cards than the game has")
        return self.free[face].pop()

    def unseen(self) -> list[int]:
        """Every civilization card still free, shuffled."""
        rest = [card for colour in COLOURS for card in self.free[colour]]
        self.rng.shuffle(rest)
        return rest


class Unknown:
    """Where the cards the seat cannot see go: whole zones (a hand, the deck) of so many cards,
    and single places (a pile's card under its top, a face-down connecting card)."""

    def __init__(self):
        self.zones: list[tuple[list, int]] = []
        self.places: list[tuple[list | dict, int | str]] = []

    def zone(self, size: int) -> list:
        zone: list = []
        self.zones.append((zone, size))
        return zone

    def count(self) -> int:
        return sum(size for _, size in self.zones) + len(self.places)


def determinize(view: dict, seat: int, rng: random.Random) -> dict:
    """A full state whose `view(state, seat)` is `view` (see the module's docstring)."""
    if view.get("seat") != seat:
        raise ValueError(f"that view is seat {view.get('seat')!r}'s, not seat {seat!r}'s")
    cards, unknown = Cards(rng), Unknown()
    players, over = view["players"], view["over"]
    columns = [[table_slot(shown, c, r, cards) for r, shown in enumerate(column)]
               for c, column in enumerate(view["columns"])]
    gaps = [None if shown is None else gap_slot(shown, cards) for shown in view["gaps"]]
    hands = hands_of(view, seat, cards, unknown)
    destroyed = [cards.take(face) for face in view["destroyed"]]
    on_table = {c for c, column in enumerate(columns) if column[0]["card"] < TREASURES}
    treasures = [t for t in range(TREASURES) if t not in on_table]
    piles, pile_holes = piles_of(view, cards, treasures, rng)
    conflict = conflict_of(view["conflict"], cards)
    deck = zone_of(view.get("deck_cards"), view["deck"], cards, unknown)
    removed = zone_of(view.get("removed_cards"), view["removed"], cards, unknown)
    discard = zone_of(faces_of(view.get("discard_counts")), view["discard"], cards, unknown)
    for zone, index in pile_holes:
        unknown.places.append((zone, index))
    for slot in gaps:
        if slot is not None and slot["card"] is None:
            unknown.places.append((slot, "card"))
    deal(unknown, cards.unseen())
    st = {
        "players": players, "seed": view["seed"] if over else rng.randrange(2 ** 31),
        "options": dict(view["options"]), "turn": view["turn"], "active": view["active"],
        # the table frozen, as every state's is after an action: a determinized state is
        # often played from many times (bots.not_lost tries every conflict from one), and each
        # action's copy then shares its columns instead of freezing them anew
        "actions_left": view["actions_left"], "columns": copy_columns(columns),
        "gaps": copy_gaps(gaps), "deck": deck,
        "removed": removed, "destroyed": destroyed, "discard": discard, "hands": hands,
        "piles": piles, "catastrophes": list(view["catastrophes"]), "ships": list(view["ships"]),
        "prefs": [dict(view["standing"]) if s == seat else {kind: "ask" for kind in STANDING}
                  for s in range(players)],
        "pending": copy_plain(view["decision"]), "queue": copy_plain(view["queue"]),
        "conflict": conflict,
    }
    if view["quiet_turns"] is None:  # rules version 1
        st.update(passes=view["passes"], passing_turns=view["passing_turns"],
                  over=over, end=view.get("end"))
    else:
        st.update(over=over, end=view.get("end"), version=2, quiet_turns=view["quiet_turns"],
                  card_left_hand=view["card_left_hand"])
    if view.get(RECORD) is not None:  # rules version 3
        st.update({"version": 3, RECORD: copy_record(view[RECORD])})
        if not over:
            believe(st, seat, rng)
    check_every_card_once(st)
    return st


def believe(st: dict, seat: int, rng: random.Random) -> None:
    """In BELIEF of the drawings per rival and noted colour: the bound n counts the cards the
    rival may have drawn of that colour since it held none, so n places of its hand, drawn at
    random, are dealt as they fell and the others hold none of it (their cards of that colour
    swapped with deck cards of colours the hand may hold more of). Its cards of that colour
    then number as many as n draws bring, not as many as a blind hand of 8 holds."""
    deck = st["deck"]
    for rival, bounds in enumerate(st[RECORD]):
        if rival == seat or not bounds:
            continue
        hand = st["hands"][rival]
        for colour, most in bounds.items():
            if rng.random() >= BELIEF:
                continue
            fresh = set(rng.sample(range(len(hand)), min(most, len(hand))))
            for i, card in enumerate(hand):
                if i in fresh or CARD_COLOUR[card] != colour:
                    continue
                j = fitting(deck, hand, bounds, colour, rng)
                if j is None:
                    break
                hand[i], deck[j] = deck[j], hand[i]


def fitting(deck: list[int], hand: list[int], bounds: dict, colour: str,
            rng: random.Random, tries: int = 20) -> int | None:
    """A deck place holding a card of another colour that the hand may take one more of."""
    for _ in range(tries if deck else 0):
        j = rng.randrange(len(deck))
        other = CARD_COLOUR[deck[j]]
        if other == colour:
            continue
        most = bounds.get(other)
        if most is None or sum(CARD_COLOUR[card] == other for card in hand) < most:
            return j
    return None


def copy_plain(value):
    if isinstance(value, dict):
        return {key: copy_plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copy_plain(item) for item in value]
    return value


# ---- The table ---------------------------------------------------------------------------------
def table_slot(shown: dict, column: int, row: int, cards: Cards) -> dict:
    if "ship" in shown:
        slot = {"ship": shown["ship"]}
    elif shown["card"] == TREASURE:
        slot = {"card": column}  # treasure c is dealt to column c and only ever leaves it
    else:
        slot = {"card": cards.take(shown["card"])}
    if "leader" in shown:
        slot["leader"] = list(shown["leader"])
    return slot


def gap_slot(shown: dict, cards: Cards) -> dict:
    """A connecting card; face down for this seat, its card is dealt with the unseen ones."""
    slot: dict = {"card": None if shown["card"] is None else cards.take(shown["card"])}
    if shown.get("face_down"):
        slot["face_down"] = True
    if "leader" in shown:
        slot["leader"] = list(shown["leader"])
    return slot


# ---- Hands, piles and the other zones ----------------------------------------------------------
def hands_of(view: dict, seat: int, cards: Cards, unknown: Unknown) -> list[list]:
    """The seat's own hand as shown; the others' (all of them once the game is over) unseen,
    of the sizes shown."""
    hands = []
    for s, size in enumerate(view["hand_sizes"]):
        faces = view["hands"][s] if view["over"] else view["hand"] if s == seat else None
        hands.append(zone_of(faces, size, cards, unknown))
    return hands


def zone_of(faces: list | None, size: int, cards: Cards, unknown: Unknown) -> list:
    """A zone of `size` cards: those `faces` if the view shows them, else unseen places."""
    if faces is not None:
        return [cards.take(face) for face in faces]
    return unknown.zone(size)


def faces_of(counts: dict[str, int] | None) -> list[str] | None:
    """The faces a zone shown by counts holds (None: not shown)."""
    if counts is None:
        return None
    return [face for face, n in counts.items() for _ in range(n)]


def piles_of(view: dict, cards: Cards, treasures: list[int],
             rng: random.Random) -> tuple[list[list], list[tuple[list, int]]]:
    """Victory piles: the shown cards (tops; every card of an open pile) placed, the treasures
    off the table put in unseen places of the piles; returns the piles and the places left."""
    piles, holes = [], []
    shown_cards = view.get("pile_cards")
    for p, shown in enumerate(view["piles"]):
        if shown_cards is not None:
            faces = list(shown_cards[p])
        elif "counts" in shown and shown["size"]:
            faces = [face for face, n in shown["counts"].items() for _ in range(n)]
            faces.remove(shown["top"])
            rng.shuffle(faces)
            faces.append(shown["top"])
        else:
            faces = [None] * (shown["size"] - 1) + ([shown["top"]] if shown["size"] else [])
        pile = []
        for index, face in enumerate(faces):
            if face is None:
                holes.append((p, index))
                pile.append(None)
            elif face == TREASURE:
                pile.append(take_treasure(treasures, rng))
            else:
                pile.append(cards.take(face))
        piles.append(pile)
    for p, index in rng.sample(holes, len(treasures)) if len(treasures) <= len(holes) else ():
        piles[p][index] = take_treasure(treasures, rng)
    if treasures:
        raise ValueError("the view has treasures off the table and no pile to hold them")
    return piles, [(piles[p], index) for p, index in holes if piles[p][index] is None]


def take_treasure(treasures: list[int], rng: random.Random) -> int:
    if not treasures:
        raise ValueError("the view shows more treasures on piles than are off the table")
    return treasures.pop(rng.randrange(len(treasures)))


def conflict_of(shown: dict | None, cards: Cards) -> dict | None:
    """The conflict under way, its played cards (the conflict's colour) in their place."""
    if shown is None:
        return None
    conflict = {}
    for key, value in shown.items():
        if key == "played":
            continue
        conflict[key] = copy_plain(value)
        if key == "base":
            conflict["played"] = [[cards.take(shown["colour"]) for _ in range(n)]
                                  for n in shown["played"]]
    return conflict


def deal(unknown: Unknown, pool: list[int]) -> None:
    """The shuffled unseen cards into the unseen zones and places."""
    if len(pool) != unknown.count():
        raise ValueError(f"the view leaves {unknown.count()} cards unseen, "
                         f"but {len(pool)} cards are unaccounted for")
    for zone, size in unknown.zones:
        zone.extend(pool[-size:] if size else ())
        del pool[len(pool) - size:]
    for (where, key), card in zip(unknown.places, pool):
        where[key] = card


def check_every_card_once(st: dict) -> None:
    seen = [slot["card"] for column in st["columns"] for slot in column if "card" in slot]
    seen += [slot["card"] for slot in st["gaps"] if slot is not None]
    for zone in ("deck", "removed", "destroyed", "discard"):
        seen += st[zone]
    for zones in (st["hands"], st["piles"]):
        for zone in zones:
            seen += zone
    if st["conflict"]:
        for played in st["conflict"]["played"]:
            seen += played
    if sorted(seen) != list(range(TOTAL_CARDS)):
        raise ValueError("the view does not add up to the game's 193 cards")
