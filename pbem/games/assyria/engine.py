"""Assyria rules engine, in the rulebook's order: setup, farming, expansion, actions, flood, end.

The state is a plain JSON dict (see `setup_state`); the `Rules` methods in game.py copy it
(`copy_state`) before any of these functions change it.
"""
from __future__ import annotations

import operator
import random

from pbem.games.base import copy_json

from .board import Board, board

# ---------------------------------------------------------------- pieces and cards
COLOURS = ("red", "green", "yellow", "blue")
HUTS = 10
ZIGGURAT_PIECES = 4                        # of each level: base, middle, top
LEVELS = ("base", "middle", "top")
WELLS = {2: 8, 3: 12, 4: 16}
FOODS = ("grape", "palm", "salt", "barley", "date")
JOKER = "joker"
PLOW = "plow"
PLAYED = "played"                          # feeding with a leftover symbol of a played card
FOOD_CARDS_PER_FOOD = (1, 1, 1, 2, 2, 3, 3)  # symbols on the seven cards of each food
JOKERS = 5
EXPANSION_FIRST = 4
EXPANSION_DECK = (2, 2, 3, 3, 3, 3, 4, 4)
BONUS_CARD = 4
DRAFT_CARDS = {2: 2, 3: 3, 4: 4}
ROW_LENGTH = {2: 3, 3: 4, 4: 5}
TURNS_PER_REIGN = {1: 2, 2: 3, 3: 3}
REIGNS = 3

# ---------------------------------------------------------------- prices and values
PLOW_PRICE = 2
ZIGGURAT_PRICE = {1: 6, 2: 3, 3: 2}        # build a base; extend to middle; extend to top
DIGNITARIES = ("highest", "middle", "lower")
DIGNITARY_PRICE = {"highest": 4, "middle": 3, "lower": 2}
DIGNITARY_SLOTS = {"highest": 3, "middle": 4, "lower": 6}
INFLUENCE = {"highest": 3, "middle": 2, "lower": 1}
HIGHEST_BONUS = {0: 0, 1: 1, 2: 4, 3: 8}
OFFERING_TRACK = (0, 1, 2, 2, 3, 3, 3, 4)  # multiplier at each position
OFFERING_PER_TURN = 3
MAX_CAMELS = 10
FIRST_HUT_INCOME = 3
NEXT_HUT_INCOME = 2
PRESTIGE = {"inside": 2, "outside": 1, "river1": 0, "river2": 0}
WELL_POINTS = {1: 6, 2: 5, 3: 4}


def make_cards() -> list[dict]:
    """The 40 food cards, by id: five foods x (three 1-, two 2-, two 3-symbol cards), five jokers."""
    cards = [{"food": food, "symbols": n} for food in FOODS for n in FOOD_CARDS_PER_FOOD]
    return cards + [{"food": JOKER, "symbols": 1} for _ in range(JOKERS)]


CARDS = make_cards()


KINDS = tuple(JOKER if card["food"] == JOKER else f"{card['food']}-{card['symbols']}"
              for card in CARDS)              # each card's kind, by card id


def kind(card_id: int) -> str:
    """A card's name in actions: "grape-2", "joker"."""
    return KINDS[card_id]


def card_price(card_id: int) -> int:
    """1 camel for a 1-symbol card, 2 for the others and for jokers."""
    card = CARDS[card_id]
    return 1 if card["food"] != JOKER and card["symbols"] == 1 else 2


def row_order(card_id: int, drawn: int) -> tuple:
    """Sort key of a farming row: by symbols, ties in draw order, jokers far right."""
    card = CARDS[card_id]
    return (1, 0, drawn) if card["food"] == JOKER else (0, card["symbols"], drawn)


def sort_row(cards: list[int]) -> list[int]:
    return [c for _, c in sorted((row_order(c, i), c) for i, c in enumerate(cards))]


# ---------------------------------------------------------------- small questions about a state
def b(state) -> Board:
    return board(state["players"])


def huts_of(state, seat: int) -> list[str]:
    return [h for h, s in state["huts"].items() if s == seat]


def ziggurats_of(state, seat: int) -> list[str]:
    return [h for h, (s, _) in state["ziggurats"].items() if s == seat]


def dignitary_huts(state, seat: int, dignitary: str | None = None) -> int:
    slots = state["dignitaries"]
    if dignitary:
        return slots[dignitary].count(seat)
    return slots["highest"].count(seat) + slots["middle"].count(seat) + slots["lower"].count(seat)


def huts_in_stock(state, seat: int) -> int:
    return HUTS - len(huts_of(state, seat)) - dignitary_huts(state, seat)


def ziggurat_pieces(state, seat: int) -> int:
    return sum([level for s, level in state["ziggurats"].values() if s == seat])


def pieces_in_stock(state, seat: int, level: int) -> int:
    """Ziggurat pieces of one level (1 base, 2 middle, 3 top) not on the board."""
    return ZIGGURAT_PIECES - len([1 for s, lv in state["ziggurats"].values()
                                  if s == seat and lv >= level])


def wells_in_stock(state) -> int:
    return WELLS[state["players"]] - len(state["wells"])


def is_empty(state, hex_key: str) -> bool:
    return hex_key not in state["huts"] and hex_key not in state["ziggurats"]


def touches_well(state, hex_key: str) -> bool:
    wells = state["wells"]
    return any(i in wells for i in b(state).sites_at.get(hex_key, ()))


def add_camels(state, seat: int, camels: int) -> None:
    """Camels never exceed 10."""
    state["camels"][seat] = min(MAX_CAMELS, state["camels"][seat] + camels)


def expansion_value(state) -> int:
    """The expansion card of the current turn: how many huts each player places."""
    return state["expansion"][state["turn"] - 1]


# The state's lists of numbers, names and flags: a copy of the state slices each of them.
FLAT_LISTS = ("order", "queue", "food_deck", "discards", "expansion_deck", "expansion",
              "expansion_discards", "column_of", "draft", "plows", "camels", "score", "offering",
              "wells", "fed", "bought_food", "offered", "raised")
_flat_lists = operator.itemgetter(*FLAT_LISTS)
SCALARS = ("players", "seed", "shuffles", "reign", "turn", "phase", "active", "bonus",
           "leftover", "plow_pile", "to_place")
FIELDS = frozenset(FLAT_LISTS + SCALARS + ("columns", "hands", "huts", "ziggurats", "dignitaries",
                                           "played", "assur", "final"))


def copy_state(state: dict) -> dict:
    """A copy that shares nothing mutable with `state` (what `apply` changes), field by field:
    a fraction of the time of a generic deep copy. Fields it does not know are deep-copied."""
    new = dict(state)
    new.update(zip(FLAT_LISTS, map(list.copy, _flat_lists(state))))
    new["columns"] = [column[:] for column in state["columns"]]
    new["hands"] = [hand[:] for hand in state["hands"]]
    new["huts"] = state["huts"].copy()
    new["ziggurats"] = {h: piece[:] for h, piece in state["ziggurats"].items()}
    new["dignitaries"] = {name: slots[:] for name, slots in state["dignitaries"].items()}
    new["played"] = state["played"].copy()
    if state["assur"] is not None:                 # [[seat, points], ...]
        new["assur"] = [entry[:] for entry in state["assur"]]
    if state["final"] is not None:                 # [{"ziggurat_pieces": n, ...}, ...]
        new["final"] = [dict(points) for points in state["final"]]
    if len(state) != len(FIELDS):
        for name in state.keys() - FIELDS:
            new[name] = copy_json(state[name])
    return new


# ---------------------------------------------------------------- the food deck
def draw_food(state) -> int | None:
    """The top food card; an empty deck is refilled by shuffling the discards [ruling]."""
    if not state["food_deck"] and state["discards"]:
        state["shuffles"] += 1
        deck = sorted(state["discards"])
        random.Random(f"{state['seed']}:{state['shuffles']}").shuffle(deck)
        state["food_deck"], state["discards"] = deck, []
    return state["food_deck"].pop() if state["food_deck"] else None


def draw_row(state) -> list[int]:
    cards = [draw_food(state) for _ in range(ROW_LENGTH[state["players"]])]
    return sort_row([c for c in cards if c is not None])


# ---------------------------------------------------------------- setup
def setup_state(players: int, seed: int) -> dict:
    rng = random.Random(seed)
    order = list(range(players))
    rng.shuffle(order)                                   # the discs on the turn order track
    food_deck = list(range(len(CARDS)))
    rng.shuffle(food_deck)
    expansion_deck = list(EXPANSION_DECK)
    rng.shuffle(expansion_deck)
    state = {
        "players": players, "seed": seed, "shuffles": 0,
        "reign": 1, "turn": 1, "phase": "start", "active": order[0], "queue": order[1:],
        "order": order, "food_deck": food_deck, "discards": [],
        "expansion_deck": expansion_deck, "expansion": [EXPANSION_FIRST],
        "expansion_discards": [], "bonus": False,
        "columns": [], "column_of": [], "leftover": None, "draft": [],
        "hands": [[] for _ in range(players)], "plows": [True] * players, "plow_pile": 0,
        "camels": [0] * players, "score": [0] * players, "offering": [0] * players,
        "huts": {}, "ziggurats": {}, "wells": [],
        "dignitaries": {name: [None] * n for name, n in DIGNITARY_SLOTS.items()},
        "to_place": 0, "fed": [], "played": {},
        "bought_food": [False] * players, "offered": [0] * players, "raised": [],
        "assur": None, "final": None,
    }
    sow(state)                  # the first player lays out the rows before the start hexes
    return state


def start_hexes(state) -> list[str]:
    return [h for h in b(state).starts if is_empty(state, h)]


def place_start(state, seat: int, hex_key: str) -> None:
    """In turn order each player puts a ziggurat base on a start hex."""
    state["ziggurats"][hex_key] = [seat, 1]
    if next_in_queue(state) is None:
        begin_draft(state)


def begin_draft(state) -> None:
    """The last in turn order draws 4/3/2 cards, keeps one and passes the rest backwards."""
    state["draft"] = [draw_food(state) for _ in range(DRAFT_CARDS[state["players"]])]
    backwards = state["order"][::-1]
    state["phase"], state["active"], state["queue"] = "draft", backwards[0], backwards[1:]


def take_draft(state, seat: int, card_id: int) -> None:
    state["draft"].remove(card_id)
    state["hands"][seat].append(card_id)
    next_in_queue(state)
    if len(state["queue"]) == 0:             # the first player gets the last card
        first = state["active"]
        state["hands"][first].extend(state["draft"])
        state["draft"] = []
        begin_harvest(state)


def next_in_queue(state) -> int | None:
    """The next seat of the current phase, or None (then `active` is None too)."""
    state["active"] = state["queue"].pop(0) if state["queue"] else None
    return state["active"]


# ---------------------------------------------------------------- I. farming
def sow(state) -> None:
    """Two sorted rows under the farming spaces: each column holds two cards."""
    first, second = draw_row(state), draw_row(state)
    width = ROW_LENGTH[state["players"]]
    state["columns"] = [[c for c in (row[i] if i < len(row) else None for row in (first, second))
                         if c is not None] for i in range(width)]
    state["column_of"] = [None] * width
    state["leftover"] = None


def begin_harvest(state) -> None:
    state["phase"], state["active"], state["queue"] = "harvest", state["order"][0], state["order"][1:]


def free_columns(state) -> list[int]:
    return [i for i, s in enumerate(state["column_of"]) if s is None]


def take_column(state, seat: int, column: int) -> None:
    """The player's disc goes above the column; its cards go to the player."""
    state["column_of"][column] = seat
    state["hands"][seat].extend(state["columns"][column])
    state["columns"][column] = []
    if next_in_queue(state) is None:
        new_turn_order(state)


def new_turn_order(state) -> None:
    """The discs from left to right give the new turn order; the column left over is for sale."""
    state["order"] = [s for s in state["column_of"] if s is not None]
    state["leftover"] = free_columns(state)[0]
    state["queue"] = list(state["order"])
    begin_expansion(state, next_in_queue(state))


# ---------------------------------------------------------------- II. expansion: A) new huts
def begin_expansion(state, seat: int) -> None:
    state["phase"] = "huts"
    state["to_place"] = min(expansion_value(state), huts_in_stock(state, seat))
    if state["to_place"] == 0 or not any_hut_hex(state, seat):
        begin_supply(state, seat)


def hut_hexes(state, seat: int) -> list[str]:
    """Empty hexes next to one of the player's huts or ziggurats (river hexes allowed), in the
    board's order."""
    bd, huts, ziggurats = b(state), state["huts"], state["ziggurats"]
    near = {n for h in huts_of(state, seat) + ziggurats_of(state, seat) for n in bd.neighbours[h]}
    return bd.in_board_order(h for h in near if h not in huts and h not in ziggurats)


def any_hut_hex(state, seat: int) -> bool:
    """Whether `hut_hexes` lists any hex."""
    bd, huts, ziggurats = b(state), state["huts"], state["ziggurats"]
    return any(n not in huts and n not in ziggurats
               for h in huts_of(state, seat) + ziggurats_of(state, seat) for n in bd.neighbours[h])


def can_place_hut(state, seat: int, hex_key: str) -> bool:
    """Whether `hex_key` is one of `hut_hexes`, without listing them all."""
    huts, ziggurats = state["huts"], state["ziggurats"]
    return is_empty(state, hex_key) and any(
        huts.get(n) == seat or ziggurats.get(n, (None,))[0] == seat
        for n in b(state).neighbours[hex_key])


def place_hut(state, seat: int, hex_key: str) -> None:
    state["huts"][hex_key] = seat
    state["to_place"] -= 1
    if state["to_place"] == 0 or not any_hut_hex(state, seat):
        state["to_place"] = 0
        begin_supply(state, seat)


# ---------------------------------------------------------------- II. expansion: B) supply
def begin_supply(state, seat: int) -> None:
    state["phase"], state["fed"], state["played"] = "feed", [], {}
    if feedable(state, seat) == 0:
        famine(state, seat)


def unfed_huts(state, seat: int) -> list[str]:
    """In the board's order, not the dict's: the feedings are listed alike whether the state
    was played live or read back from the store (which sorts its keys)."""
    fed = set(state["fed"])
    return b(state).in_board_order(h for h, s in state["huts"].items()
                                   if s == seat and h not in fed)


def feeding_resources(state, seat: int) -> tuple[dict, int]:
    """Food symbols per food (hand cards + leftover symbols of played cards) and wildcards."""
    symbols = dict(state["played"])
    wild = int(state["plows"][seat])
    for card_id in state["hands"][seat]:
        card = CARDS[card_id]
        if card["food"] == JOKER:
            wild += 1
        else:
            symbols[card["food"]] = symbols.get(card["food"], 0) + card["symbols"]
    return symbols, wild


def max_fed(huts_by_food: dict, symbols: dict, wild: int) -> int:
    """Size of a maximum matching of huts to food symbols and wildcards (jokers, plows).

    A symbol can only feed a hut of its own food, so it is never worse to use symbols first:
    per food min(huts, symbols), then the wildcards on whatever huts are left over.
    """
    fed = left = 0
    for food, n in huts_by_food.items():
        covered = symbols.get(food, 0)
        if n > covered:
            fed, left = fed + covered, left + n - covered
        else:
            fed += n
    return fed + min(wild, left)


def huts_by_food(state, huts: list[str]) -> dict:
    counts: dict = {}
    food = b(state).foods
    for h in huts:
        counts[food[h]] = counts.get(food[h], 0) + 1
    return counts


def feedable(state, seat: int) -> int:
    """How many of the player's unfed huts the cards still in play can feed at most."""
    symbols, wild = feeding_resources(state, seat)
    return max_fed(huts_by_food(state, unfed_huts(state, seat)), symbols, wild)


def feeding_sources(state, seat: int) -> list[str]:
    """What the player can feed with: leftover symbols, each kind of card in hand, the plow."""
    sources = [PLAYED] if any(state["played"].values()) else []
    sources += sorted({KINDS[c] for c in state["hands"][seat]})
    return sources + ([PLOW] if state["plows"][seat] else [])


def can_feed(state, seat: int, source: str, hex_key: str) -> bool:
    food = b(state).food(hex_key)
    if source == PLAYED:
        return state["played"].get(food, 0) > 0
    if source in (PLOW, JOKER):
        return True
    return source.split("-")[0] == food


def use_source(state, seat: int, source: str, hex_key: str) -> None:
    """Spend one symbol: a card leaves the hand (its other symbols stay in play), a plow goes
    to the board's plow space."""
    food = b(state).food(hex_key)
    if source == PLOW:
        state["plows"][seat] = False
        state["plow_pile"] += 1
    elif source == PLAYED:
        state["played"][food] -= 1
    else:
        card_id = min(c for c in state["hands"][seat] if kind(c) == source)
        state["hands"][seat].remove(card_id)
        state["discards"].append(card_id)
        if CARDS[card_id]["food"] != JOKER and CARDS[card_id]["symbols"] > 1:
            state["played"][food] = state["played"].get(food, 0) + CARDS[card_id]["symbols"] - 1
    state["played"] = {f: n for f, n in state["played"].items() if n}
    state["fed"].append(hex_key)


def feed_actions(state, seat: int) -> list[dict]:
    """Feedings that keep the number of fed huts at its maximum (feeding is compulsory):
    each source (in `feeding_sources` order) on each unfed hut it may feed."""
    bd, unfed = b(state), unfed_huts(state, seat)
    return [{"type": "feed", "card": source, "hex": list(bd.qr[h])}
            for source, foods in feeding_choices(state, seat, unfed).items()
            for h in unfed if bd.foods[h] in foods]


def feeding_choices(state, seat: int, unfed: list[str]) -> dict[str, set]:
    """Each feeding source and the foods of the huts it may feed; {} when none can be fed.

    Every feeding spends exactly one symbol or wildcard and feeds one hut, so a feeding is
    legal when the huts left can still be fed up to one less than before (`max_fed`). A symbol
    on a hut of its own food always keeps to that; a wildcard does as `wildcard_foods` says.
    """
    symbols, wild = feeding_resources(state, seat)
    counts = huts_by_food(state, unfed)
    if max_fed(counts, symbols, wild) == 0:
        return {}
    choices = {}
    for source in feeding_sources(state, seat):
        if source in (PLOW, JOKER):
            choices[source] = wildcard_foods(counts, symbols, wild)
        elif source == PLAYED:
            choices[source] = {food for food, n in state["played"].items() if n > 0}
        else:
            choices[source] = {source.split("-")[0]}
    return choices


def wildcard_foods(counts: dict, symbols: dict, wild: int) -> set:
    """Foods of the unfed huts a wildcard (joker, plow) may feed without lowering `max_fed`.

    On a hut of a food with more huts than symbols, a wildcard feeds one the symbols leave
    hungry anyway: always fine. On a hut the symbols could feed, it wastes one of them, which
    is fine only while there are more wildcards than huts left over for them.
    """
    left = sum([n - symbols.get(food, 0) for food, n in counts.items()
                if n > symbols.get(food, 0)])
    return {food for food, n in counts.items() if n > symbols.get(food, 0) or wild > left}


def may_feed(state, seat: int, source: str, hex_key: str) -> bool:
    """Whether feeding the unfed hut on `hex_key` with `source`, one of the seat's
    `feeding_sources` that `can_feed` it, is one of `feed_actions`: a symbol always is."""
    if source not in (PLOW, JOKER):
        return True
    symbols, wild = feeding_resources(state, seat)
    counts = huts_by_food(state, unfed_huts(state, seat))
    return b(state).foods[hex_key] in wildcard_foods(counts, symbols, wild)


def feed(state, seat: int, source: str, hex_key: str) -> None:
    use_source(state, seat, source, hex_key)
    if feedable(state, seat) == 0:
        famine(state, seat)


# ---------------------------------------------------------------- II. expansion: C) famine
def famine(state, seat: int) -> None:
    """Unfed huts go back to stock; unused symbols are lost, unplayed cards are kept."""
    for h in unfed_huts(state, seat):
        del state["huts"][h]
    state["played"] = {}
    begin_wells(state, seat)


# ---------------------------------------------------------------- II. expansion: D) wells
def begin_wells(state, seat: int) -> None:
    state["phase"] = "wells"
    if not well_sites(state, seat):
        income_and_prestige(state, seat)


def well_sites(state, seat: int) -> list[int]:
    """Free sites whose three hexes all hold the player's (fed) huts, none next to a ziggurat."""
    if wells_in_stock(state) == 0:
        return []
    sites_at = b(state).sites_at
    near = {i for h in huts_of(state, seat) for i in sites_at[h]}
    return sorted(i for i in near if can_build_well(state, seat, i))


def can_build_well(state, seat: int, site: int) -> bool:
    """Whether `site` is one of `well_sites`, without listing them all."""
    hexes, huts, ziggurats = b(state).well_sites[site], state["huts"], state["ziggurats"]
    return wells_in_stock(state) > 0 and site not in state["wells"] \
        and all(huts.get(h) == seat for h in hexes) and not any(h in ziggurats for h in hexes)


def build_well(state, seat: int, site: int) -> None:
    """A well scores at once: 6 / 5 / 4 points in reign I / II / III."""
    state["wells"].append(site)
    state["wells"].sort()
    state["score"][seat] += WELL_POINTS[state["reign"]]
    if not well_sites(state, seat):
        income_and_prestige(state, seat)


# ---------------------------------------------------------------- II. expansion: E) income and prestige
def income(state, seat: int) -> int:
    """Per river: the first hut 3 camels, each further hut 2."""
    regions = [b(state).regions[h] for h in huts_of(state, seat)]
    total = 0
    for river in ("river1", "river2"):
        n = regions.count(river)
        total += FIRST_HUT_INCOME + NEXT_HUT_INCOME * (n - 1) if n else 0
    return total


def prestige(state, seat: int) -> int:
    """2 per hut between the rivers, 1 outside, 0 on a river; 1 per ziggurat piece."""
    regions = b(state).regions
    huts = sum([PRESTIGE[regions[h]] for h in huts_of(state, seat)])
    return huts + ziggurat_pieces(state, seat)


def income_and_prestige(state, seat: int) -> None:
    add_camels(state, seat, income(state, seat))
    state["score"][seat] += prestige(state, seat)
    nxt = next_in_queue(state)
    if nxt is not None:
        begin_expansion(state, nxt)
    else:
        state["phase"], state["queue"] = "actions", list(state["order"])
        next_in_queue(state)


# ---------------------------------------------------------------- III. actions
def build_sites(state, seat: int) -> list[str]:
    """A fed hut's hex, not on a river, not touching a well."""
    if state["camels"][seat] < ZIGGURAT_PRICE[1] or pieces_in_stock(state, seat, 1) == 0:
        return []
    bd = b(state)
    return bd.in_board_order(h for h in huts_of(state, seat)
                             if not bd.on_river(h) and not touches_well(state, h))


def extend_sites(state, seat: int) -> list[str]:
    """Own ziggurats not raised this turn whose next piece the player has and can pay."""
    sites = []
    for h in b(state).in_board_order(ziggurats_of(state, seat)):
        level = state["ziggurats"][h][1]
        if level < 3 and h not in state["raised"] \
                and pieces_in_stock(state, seat, level + 1) \
                and state["camels"][seat] >= ZIGGURAT_PRICE[level + 1]:
            sites.append(h)
    return sites


def build_ziggurat(state, seat: int, hex_key: str) -> None:
    state["camels"][seat] -= ZIGGURAT_PRICE[1]
    del state["huts"][hex_key]                       # the hut goes back to stock
    state["ziggurats"][hex_key] = [seat, 1]
    state["raised"].append(hex_key)


def extend_ziggurat(state, seat: int, hex_key: str) -> None:
    level = state["ziggurats"][hex_key][1] + 1
    state["camels"][seat] -= ZIGGURAT_PRICE[level]
    state["ziggurats"][hex_key][1] = level
    state["raised"].append(hex_key)


def dignitary_choices(state, seat: int) -> list[str]:
    if huts_in_stock(state, seat) == 0:
        return []
    return [d for d in DIGNITARIES if None in state["dignitaries"][d]
            and state["camels"][seat] >= DIGNITARY_PRICE[d]]


def place_dignitary(state, seat: int, dignitary: str) -> None:
    """A hut from stock on the top free slot of the dignitary."""
    slots = state["dignitaries"][dignitary]
    slots[slots.index(None)] = seat
    state["camels"][seat] -= DIGNITARY_PRICE[dignitary]


def offering_choices(state, seat: int) -> list[int]:
    """1 camel a step, at most 3 a turn, the track ends at 7."""
    most = min(OFFERING_PER_TURN - state["offered"][seat], state["camels"][seat],
               len(OFFERING_TRACK) - 1 - state["offering"][seat])
    return list(range(1, most + 1))


def make_offering(state, seat: int, camels: int) -> None:
    state["camels"][seat] -= camels
    state["offered"][seat] += camels
    state["offering"][seat] += camels


def food_for_sale(state, seat: int) -> list[str]:
    """One card a turn from the column left over after the harvest."""
    if state["bought_food"][seat] or state["leftover"] is None:
        return []
    cards = state["columns"][state["leftover"]]
    return sorted({kind(c) for c in cards if card_price(c) <= state["camels"][seat]})


def buy_food(state, seat: int, card_kind: str) -> None:
    column = state["columns"][state["leftover"]]
    card_id = next(c for c in column if kind(c) == card_kind)
    column.remove(card_id)
    state["hands"][seat].append(card_id)
    state["camels"][seat] -= card_price(card_id)
    state["bought_food"][seat] = True


def can_buy_plow(state, seat: int) -> bool:
    """From the board's plow space; nobody may hold two plows."""
    return state["plow_pile"] > 0 and not state["plows"][seat] \
        and state["camels"][seat] >= PLOW_PRICE


def buy_plow(state, seat: int) -> None:
    state["plow_pile"] -= 1
    state["plows"][seat] = True
    state["camels"][seat] -= PLOW_PRICE


def action_choices(state, seat: int) -> list[dict]:
    qr = b(state).qr
    acts = [{"type": "build", "hex": list(qr[h])} for h in build_sites(state, seat)]
    acts += [{"type": "extend", "hex": list(qr[h])} for h in extend_sites(state, seat)]
    acts += [{"type": "dignitary", "dignitary": d} for d in dignitary_choices(state, seat)]
    acts += [{"type": "offering", "camels": n} for n in offering_choices(state, seat)]
    acts += [{"type": "buy_food", "card": k} for k in food_for_sale(state, seat)]
    acts += [{"type": "buy_plow"}] if can_buy_plow(state, seat) else []
    return acts + [{"type": "end_actions"}]


def end_actions(state, seat: int) -> None:
    if next_in_queue(state) is None:
        end_of_turn(state)


# ---------------------------------------------------------------- end of the turn
def end_of_turn(state) -> None:
    """The leftover column is discarded; a new expansion card, or the flood ends the reign."""
    for column in state["columns"]:
        state["discards"].extend(column)
    state["columns"], state["column_of"], state["leftover"] = [], [], None
    n = state["players"]
    state["bought_food"], state["offered"], state["raised"] = [False] * n, [0] * n, []
    if state["turn"] == TURNS_PER_REIGN[state["reign"]]:
        flood(state)
        if state["final"] is not None:
            return
    else:
        state["turn"] += 1
        state["expansion"].append(state["expansion_deck"].pop())
    sow(state)
    begin_harvest(state)


# ---------------------------------------------------------------- the flood
def flood(state) -> None:
    state["huts"] = {h: s for h, s in state["huts"].items() if not b(state).on_river(h)}
    state["assur"] = assur(state)              # [[seat, points], ...] of the last Assur
    dignitary_bonuses(state)
    offerings(state)
    if state["reign"] == REIGNS:
        game_end(state)
        return
    state["reign"] += 1
    state["turn"] = 1
    state["bonus"] = state["players"] == 4
    state["expansion"] = [state["expansion_deck"].pop()]


def influence(state, seat: int) -> int:
    return sum(INFLUENCE[d] * dignitary_huts(state, seat, d) for d in DIGNITARIES)


def best_slot(state, seat: int) -> int:
    """Rank of the player's single highest hut in Assur (0 = highest dignitary's top slot)."""
    slots = [s for d in DIGNITARIES for s in state["dignitaries"][d]]
    return slots.index(seat)


def assur_ranking(state) -> list[int]:
    """Players with a hut in Assur by influence; ties: more huts, then the single higher hut."""
    ranked = [s for s in range(state["players"]) if dignitary_huts(state, s)]
    return sorted(ranked, key=lambda s: (-influence(state, s), -dignitary_huts(state, s),
                                         best_slot(state, s)))


def assur_cards(state) -> list[int]:
    return state["expansion"] + ([BONUS_CARD] if state["bonus"] else [])


def assur(state) -> list[list[int]]:
    """In rank order each scores the cards showing, then the highest is discarded.

    Returns [[seat, points], ...] for the log. With 2 players the first scores them all and
    the second nothing in reign I, the lowest card in reigns II and III.
    """
    ranking, cards = assur_ranking(state), sorted(assur_cards(state))
    scored = []
    if state["players"] == 2:
        points = [sum(cards), 0 if state["reign"] == 1 else cards[0]]
        scored = [[s, p] for s, p in zip(ranking, points)]
    else:
        left = list(cards)
        for seat in ranking:
            scored.append([seat, sum(left)])
            if left:
                left.pop()
    for seat, points in scored:
        state["score"][seat] += points
    state["expansion_discards"] += state["expansion"]
    state["expansion"], state["bonus"] = [], False
    return scored


def dignitary_bonuses(state) -> None:
    """Highest: 1/4/8 points; middle: a plow from the board if the player has none; lower: a
    camel a hut. Then the huts return to stock."""
    for seat in state["order"]:                  # plows are scarce: handed out in turn order
        state["score"][seat] += HIGHEST_BONUS[dignitary_huts(state, seat, "highest")]
        if dignitary_huts(state, seat, "middle") and not state["plows"][seat] \
                and state["plow_pile"] > 0:
            state["plow_pile"] -= 1
            state["plows"][seat] = True
        add_camels(state, seat, dignitary_huts(state, seat, "lower"))
    state["dignitaries"] = {name: [None] * n for name, n in DIGNITARY_SLOTS.items()}


def offerings(state) -> None:
    """Multiplier of the offering track x ziggurats on the board; discs back to 0."""
    for seat in range(state["players"]):
        state["score"][seat] += OFFERING_TRACK[state["offering"][seat]] * \
            len(ziggurats_of(state, seat))
    state["offering"] = [0] * state["players"]


# ---------------------------------------------------------------- game end
def final_points(state, seat: int) -> dict:
    return {"ziggurat_pieces": ziggurat_pieces(state, seat),
            "plow": int(state["plows"][seat]),
            "camel_pairs": state["camels"][seat] // 2}


def game_end(state) -> None:
    """+1 per ziggurat piece, +1 per plow held, +1 per two camels."""
    final = [final_points(state, s) for s in range(state["players"])]
    for seat, points in enumerate(final):
        state["score"][seat] += sum(points.values())
    state["final"] = final
    state["phase"], state["active"], state["queue"] = "over", None, []


def ranking(state) -> list[list[int]]:
    scores = state["score"]
    return [[s for s in range(state["players"]) if scores[s] == v]
            for v in sorted(set(scores), reverse=True)]
