"""The game flow of Euphrat & Tigris: the card game, in the rulebook's order.

The state is one JSON-ready dict. A turn is two actions; everything an action sets off
(points, ship purchases, conflicts, the trader's exchange, the end of the turn) waits in
`queue` as small steps. A step either runs mechanically or asks one seat a decision
(`pending`); the answer resumes the queue.
"""
from __future__ import annotations

import random

from pbem.games.base import copy_json

from .cards import (ACTIONS_PER_TURN, CARD_COLOUR, COLOUR_ORDER, COLUMN_LIMIT, CONNECT_MINIMUM,
                    GAPS, HAND_SIZE, REMOVED_WITH_TWO, SHIP_RUN, SHIPS, TOTAL_CARDS, TREASURES,
                    colour_of, ship_colours, ships_for_run)
from .hand_record import RECORD, believes_none, drew, new_record, played_in_view
from .table import (Column, FrozenDict, Leader, Slot, card_colour, changed, column_ships,
                    count_colour, find_leader, free_rows, freeze, frozen, frozen_column,
                    is_treasure_star, kingdom_span, kingdoms, leaders_at, leaders_in, position_of,
                    positions, put_at, real_treasure_columns, remove_at, send_home, set_column,
                    ships_in, slot_at, slots_in, span_of, thaw, thaw_column)

# Standing answers: decision kind -> the answers a seat may leave for decisions asked while
# another player is on turn ("ask" = ask me).
STANDING = {
    "score": ("ask", "always", "never"),     # a point for a placement in my kingdom
    "commit": ("ask", "all", "none"),        # my commitment in a conflict I did not start
    "reward": ("ask", "always", "never"),    # a won conflict's card from my hand
    "exchange": ("ask", "always", "never"),  # the trader's exchange of a treasure
}


# ---- Setup ("Előkészületek") ----------------------------------------------------------------
# Rules versions: 1 began with seat 0 and also ended the game on a full table ("table_full")
# or after a round of passes ("passing"); 2 draws the start player from the seed and ends a
# stalled table: a full round of turns that left the table full and in which no card left any
# hand ("stalled", see step_refill); 3 plays as 2 and keeps the public record of what each
# seat's answers say of its hand (hand_record.py), which its views show.
def new_state(players: int, seed: int, options: dict, version: int = 3) -> dict:
    rng = random.Random(seed)
    deck = list(range(TREASURES, TOTAL_CARDS))
    rng.shuffle(deck)
    hands = [[draw(deck) for _ in range(HAND_SIZE)] for _ in range(players)]
    removed = [draw(deck) for _ in range(REMOVED_WITH_TWO)] if players == 2 else []
    # "Véletlen segítségével választani kell egy kezdőjátékost": seats keep the host's order
    start = rng.randrange(players) if version >= 2 else 0
    st = {
        "players": players, "seed": seed, "options": dict(options),
        "turn": 1, "active": start, "actions_left": ACTIONS_PER_TURN,
        "columns": [[{"card": t}] for t in range(TREASURES)], "gaps": [None] * GAPS,
        "deck": deck, "removed": removed, "destroyed": [], "discard": [],
        "hands": hands, "piles": [[] for _ in range(players)],
        "catastrophes": [True] * players, "ships": list(SHIPS),
        "prefs": [{kind: "ask" for kind in STANDING} for _ in range(players)],
        "pending": {"kind": "action", "seat": start}, "queue": [], "conflict": None,
        "passes": 0, "passing_turns": 0, "over": False, "end": None,
    }
    if version >= 2:
        del st["passes"], st["passing_turns"]
        st.update(version=version, quiet_turns=0, card_left_hand=False)
    if version >= 3:
        st[RECORD] = new_record(players)
    return st


def version_of(st: dict) -> int:
    """The rules version the game was created with (states of version 1 do not say)."""
    return st.get("version", 1)


def draw(deck: list) -> int:
    """The top of the deck is the end of the list."""
    return deck.pop()


# ---- Copies of the state ----------------------------------------------------------------------
def copy_lists(lists: list) -> list:
    return [list(inner) for inner in lists]


def copy_columns(columns: list) -> list:
    """A new list of the same (frozen) columns: columns are shared, never changed (table.py)."""
    return [column if type(column) is Column else frozen_column(column) for column in columns]


def copy_gaps(gaps: list) -> list:
    return [slot if type(slot) is Slot or slot is None else frozen(slot) for slot in gaps]


def copy_queue(queue: list) -> list:
    return [step if type(step) is FrozenDict else freeze(step) for step in queue]


def copy_record(record: list) -> list:
    return [bounds.copy() for bounds in record]


# How each part of the state that can change is copied: by its known shape, several times
# faster than a generic deep copy (the state is copied on every action). The flow's small
# dicts (options, the pending decision, queued steps, the conflict) are frozen and shared:
# a change puts a new one in place.
COPIERS = {
    "columns": copy_columns, "gaps": copy_gaps,
    "deck": list, "removed": list, "destroyed": list, "discard": list,
    "catastrophes": list, "ships": list, "hands": copy_lists, "piles": copy_lists,
    "prefs": lambda prefs: [dict(answers) for answers in prefs],
    "queue": copy_queue, "conflict": freeze, "options": freeze, "pending": freeze,
    RECORD: copy_record,
}
# Parts that never hold anything that can change (numbers, strings, True/False, None).
SCALARS = {"players", "seed", "turn", "active", "actions_left", "over", "end", "version",
           "quiet_turns", "card_left_hand", "passes", "passing_turns"}
KNOWN = SCALARS | set(COPIERS)


def copy_state(st: dict) -> dict:
    """A copy sharing nothing that can change with `st` (only frozen parts), its keys in the
    same order."""
    copied = dict(st)
    try:  # the parts every state has, spelt out: a loop over COPIERS costs a call each
        copied["columns"] = copy_columns(st["columns"])
        copied["gaps"] = copy_gaps(st["gaps"])
        copied["deck"] = st["deck"][:]
        copied["removed"] = st["removed"][:]
        copied["destroyed"] = st["destroyed"][:]
        copied["discard"] = st["discard"][:]
        copied["catastrophes"] = st["catastrophes"][:]
        copied["ships"] = st["ships"][:]
        copied["hands"] = [hand[:] for hand in st["hands"]]
        copied["piles"] = [pile[:] for pile in st["piles"]]
        copied["prefs"] = [answers.copy() for answers in st["prefs"]]
        copied["queue"] = copy_queue(st["queue"])
        if RECORD in st:
            copied[RECORD] = copy_record(st[RECORD])
        for key in ("conflict", "options", "pending"):
            value = st[key]
            if type(value) is dict:
                copied[key] = freeze(value)
    except (KeyError, AttributeError, TypeError):  # an odd state: each part by its copier
        copied = dict(st)
        for key, copier in COPIERS.items():
            if key in copied:
                copied[key] = copier(copied[key])
    if not KNOWN.issuperset(copied):  # a part this engine does not write: copied deep
        for key in copied.keys() - KNOWN:
            copied[key] = copy_json(copied[key])
    return copied


def plain_state(st: dict) -> dict:
    """A deep copy in plain dicts and lists (what `dump` writes)."""
    copied = copy_json(st)
    for key in ("columns", "gaps", "pending", "conflict", "options", "queue"):
        if key not in copied:
            continue
        if key == "columns" and type(st[key]) is list:  # thaw's answer, each column sooner
            copied[key] = [thaw_column(column) for column in st[key]]
        else:
            copied[key] = thaw(st[key])
    return copied


# ---- Hands and victory piles ------------------------------------------------------------------
def hand_colours(st: dict, seat: int) -> list[str]:
    return [CARD_COLOUR[card] for card in st["hands"][seat]]


def has_colour(st: dict, seat: int, colour: str) -> bool:
    return colour in hand_colours(st, seat)


def count_in_hand(st: dict, seat: int, colour: str) -> int:
    return hand_colours(st, seat).count(colour)


def take_from_hand(st: dict, seat: int, colour: str, face_up: bool = True) -> int:
    """Every card that leaves a hand leaves it here (placed, scored, committed, exchanged);
    `face_up` False: placed face down, its colour unseen by the others."""
    hand = st["hands"][seat]
    for i, card in enumerate(hand):
        if colour_of(card) == colour:
            if "card_left_hand" in st:
                st["card_left_hand"] = True
            if face_up:
                played_in_view(st, seat, colour)
            return hand.pop(i)
    raise ValueError(f"no {colour} card in hand")  # callers check legality first


def score_from_hand(st: dict, seat: int, colour: str) -> None:
    """A victory point: a card of that colour from the seat's hand onto his victory pile."""
    st["piles"][seat].append(take_from_hand(st, seat, colour))


# ---- The flow: steps and decisions -------------------------------------------------------------
def ask(st: dict, kind: str, seat: int, **details) -> None:
    st["pending"] = {"kind": kind, "seat": seat, **details}


def push_front(st: dict, *steps: dict) -> None:
    st["queue"][0:0] = list(steps)


def advance(st: dict) -> None:
    """Run mechanical steps until a seat must decide or the game is over."""
    while not st["over"]:
        pending = st["pending"]
        if pending is not None:
            answer = standing_answer(st, pending)
            if answer is None:
                return
            st["pending"] = None
            answer_decision(st, pending, answer)
            continue
        if st["queue"]:
            step = st["queue"].pop(0)
            STEPS[step["step"]](st, step)
            continue
        ask(st, "action", st["active"])


def standing_answer(st: dict, pending: dict) -> dict | None:
    """The answer a seat left in advance for this decision, if any (never for the active seat)."""
    kind, seat = pending["kind"], pending["seat"]
    if kind not in STANDING or seat == st["active"]:
        return None
    choice = st["prefs"][seat][kind]
    if choice == "ask":
        return None
    if kind in ("score", "reward"):
        if choice == "always" and has_colour(st, seat, pending["colour"]):
            return {"type": "score", "colour": pending["colour"]}
        return {"type": "no_score"}
    if kind == "commit":
        most = count_in_hand(st, seat, pending["colour"])
        return {"type": "commit", "count": most if choice == "all" else 0}
    if choice == "always" and has_colour(st, seat, "red"):
        return {"type": "exchange", "column": pending["columns"][0]}
    return {"type": "no_exchange"}


def answer_decision(st: dict, pending: dict, action: dict) -> None:
    ANSWERS[pending["kind"]](st, pending, action)


# ---- 1) Placing or moving a leader ("Saját vezér le- vagy áthelyezése") -----------------------
def leader_targets(st: dict) -> list[tuple[int, int | None]]:
    """Unoccupied civilization cards: a treasure* too, never a ship. (column, row) pairs, in
    the order of `positions`; a gap is (gap, None)."""
    columns, gaps, targets = st["columns"], st["gaps"], []
    for c, column in enumerate(columns):
        targets += [(c, r) for r in free_rows(column)]
        gap = gaps[c] if c < GAPS else None
        if gap is not None and "card" in gap and "leader" not in gap:
            targets.append((c, None))
    return targets


def place_leader(st: dict, seat: int, colour: str, pos: dict) -> None:
    old = find_leader(st, seat, colour)
    if old is not None:
        send_home(st, old)
    put_at(st, pos, changed(slot_at(st, pos), leader=Leader([seat, colour])))
    rival = rival_leader(st, seat, colour, span_of(st, pos))
    if rival is not None:
        start_internal_conflict(st, seat, colour, pos, rival)


def rival_leader(st: dict, seat: int, colour: str, span: tuple[int, int]) -> tuple | None:
    """Another seat's leader of this colour in the kingdom: (seat, position)."""
    for c, r, leader in leaders_at(st, span[0], span[1]):
        if leader[1] == colour and leader[0] != seat:
            return leader[0], position_of(c, r)
    return None


# ---- 2) Placing a civilization card ("Civilizációkártya lerakása") ----------------------------
def column_open(st: dict, column: int) -> bool:
    """A column takes cards until it holds COLUMN_LIMIT below its treasure* (a ship is one)."""
    return len(st["columns"][column]) - 1 < COLUMN_LIMIT


def gap_open(st: dict, gap: int) -> bool:
    """A connecting card needs an empty gap and CONNECT_MINIMUM cards under both treasures*."""
    cols = st["columns"]
    return (st["gaps"][gap] is None and len(cols[gap]) - 1 >= CONNECT_MINIMUM
            and len(cols[gap + 1]) - 1 >= CONNECT_MINIMUM)


def table_full(st: dict) -> bool:
    """No column and no gap can take a civilization card."""
    return not any(column_open(st, c) for c in range(len(st["columns"]))) and \
        not any(gap_open(st, g) for g in range(len(st["gaps"])))


def place_in_column(st: dict, seat: int, colour: str, column: int) -> None:
    set_column(st, column, st["columns"][column] + [{"card": take_from_hand(st, seat, colour)}])
    scorer = point_owner(st, kingdom_span(st, column), colour)
    steps = [{"step": "ship", "column": column}]
    if scorer is not None:
        steps.insert(0, {"step": "offer", "kind": "score", "seat": scorer, "colour": colour})
    st["queue"].extend(steps)


def place_connecting(st: dict, seat: int, colour: str, gap: int) -> None:
    card = take_from_hand(st, seat, colour, face_up=False)
    st["gaps"][gap] = Slot({"card": card, "face_down": True})
    st["queue"].append({"step": "external", "gap": gap})


# ---- Victory points ("Győzelmi pontok begyűjtése") --------------------------------------------
def point_owner(st: dict, span: tuple[int, int], colour: str) -> int | None:
    """The same-colour leader's owner; else the king's owner; else nobody."""
    leaders = leaders_in(st, span)
    if colour in leaders:
        return leaders[colour][0]
    if "black" in leaders:
        return leaders["black"][0]
    return None


def step_offer(st: dict, step: dict) -> None:
    """Offer a point from hand. The seat is asked even without a card of that colour (its one
    answer is then "no"), so whether it holds one stays hidden."""
    ask(st, step["kind"], step["seat"], colour=step["colour"])


def answer_score(st: dict, pending: dict, action: dict) -> None:
    if action["type"] == "score":
        score_from_hand(st, pending["seat"], pending["colour"])
    else:
        believes_none(st, pending["seat"], pending["colour"])
    if pending["kind"] == "reward":
        push_front(st, {"step": "conflict"})


# ---- 3) The catastrophe ("Katasztrófakártya lerakása") ----------------------------------------
def catastrophe_targets(st: dict) -> list[dict]:
    """Any face-up civilization card; never one with a leader, a treasure* or a ship."""
    return [position_of(c, r) for c, r, slot in slots_in(st)
            if r != 0 and "card" in slot and "leader" not in slot and not slot.get("face_down")]


def play_catastrophe(st: dict, seat: int, pos: dict) -> None:
    st["catastrophes"][seat] = False
    st["destroyed"].append(remove_at(st, pos)["card"])


# ---- Internal conflict ("Belső konfliktus") ---------------------------------------------------
def on_red(st: dict, pos: dict) -> int:
    """+1 for a leader standing on a red card (temple or treasure*)."""
    return 1 if card_colour(slot_at(st, pos)) == "red" else 0


def start_internal_conflict(st, seat, colour, pos, rival) -> None:
    st["conflict"] = {
        "type": "internal", "leader": colour, "colour": "red",
        "attacker": seat, "defender": rival[0],
        "attacker_at": pos, "defender_at": rival[1],
        "base": [on_red(st, pos), on_red(st, rival[1])],
        "played": [[], []], "stage": "attack", "winner": None,
    }
    st["queue"].append({"step": "conflict"})


# ---- External conflict ("Külső konfliktus") ---------------------------------------------------
def sides(st: dict, gap: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The kingdoms left and right of the connecting card, as they stand now."""
    return kingdom_span(st, gap, cut=gap), kingdom_span(st, gap + 1, cut=gap)


def external_conflicts(st: dict, gap: int) -> list[str]:
    """Colours with a leader on both sides of the connecting card."""
    left, right = (leaders_in(st, side) for side in sides(st, gap))
    return [colour for colour in COLOUR_ORDER if colour in left and colour in right]


def step_external(st: dict, step: dict) -> None:
    gap = step["gap"]
    colours = external_conflicts(st, gap)
    if not colours:
        st["gaps"][gap] = changed(st["gaps"][gap], face_down=None)
        push_front(st, {"step": "exchange", "gap": gap})
    elif len(colours) == 1:
        start_external_conflict(st, gap, colours[0])
    else:
        ask(st, "order", st["active"], gap=gap, colours=colours)


def answer_order(st: dict, pending: dict, action: dict) -> None:
    start_external_conflict(st, pending["gap"], action["colour"])


def attacker_of(st: dict, involved: list[int]) -> int:
    """The active player if involved, else the involved player nearest him clockwise."""
    return min(involved, key=lambda seat: (seat - st["active"]) % st["players"])


def start_external_conflict(st: dict, gap: int, colour: str) -> None:
    spans = sides(st, gap)
    leaders = [leaders_in(st, side)[colour] for side in spans]
    attacker = attacker_of(st, [leaders[0][0], leaders[1][0]])
    a, d = (0, 1) if leaders[0][0] == attacker else (1, 0)
    st["conflict"] = {
        "type": "external", "leader": colour, "colour": colour, "gap": gap,
        "attacker": leaders[a][0], "defender": leaders[d][0],
        "attacker_at": leaders[a][1], "defender_at": leaders[d][1],
        "sides": [list(spans[a]), list(spans[d])],
        "base": [count_colour(st, spans[a], colour), count_colour(st, spans[d], colour)],
        "played": [[], []], "stage": "attack", "winner": None,
    }
    push_front(st, {"step": "conflict"}, {"step": "external", "gap": gap})


# ---- Settling a conflict: attacker commits, then defender; ties to the defender --------------
def step_conflict(st: dict, step: dict) -> None:
    conflict = st["conflict"]
    stage = conflict["stage"]
    if stage in ("attack", "defend"):
        seat = conflict["attacker" if stage == "attack" else "defender"]
        ask(st, "commit", seat, colour=conflict["colour"])
    elif stage == "resolve":
        resolve_conflict(st, conflict)
    else:
        finish_conflict(st, conflict)


def answer_commit(st: dict, pending: dict, action: dict) -> None:
    conflict = st["conflict"]
    side = 0 if conflict["stage"] == "attack" else 1
    played = [list(cards) for cards in conflict["played"]]
    for _ in range(action["count"]):
        played[side].append(take_from_hand(st, pending["seat"], conflict["colour"]))
    st["conflict"] = {**conflict, "played": played, "stage": "defend" if side == 0 else "resolve"}
    push_front(st, {"step": "conflict"})


def strengths(conflict: dict) -> list[int]:
    return [conflict["base"][i] + len(conflict["played"][i]) for i in (0, 1)]


def resolve_conflict(st: dict, conflict: dict) -> None:
    """The loser's leader goes home; the winner keeps one played card, the rest are discarded."""
    attack, defend = strengths(conflict)
    won = 0 if attack > defend else 1
    winner, loser = conflict["attacker"], conflict["defender"]
    if won:
        winner, loser = loser, winner
    mine, theirs = conflict["played"][won], conflict["played"][1 - won]
    conflict = st["conflict"] = {**conflict, "winner": winner, "loser": loser,
                                 "strength": [attack, defend], "stage": "spoils",
                                 "played": [[], []]}
    send_home(st, conflict["defender_at" if won == 0 else "attacker_at"])
    if won == 0:    # the defender answered the attack in view and still lost
        believes_none(st, loser, conflict["colour"])
    if mine:
        st["piles"][winner].append(mine[-1])
        st["discard"].extend(mine[:-1] + theirs)
    else:
        st["discard"].extend(theirs)
    if not mine:
        ask(st, "reward", winner, colour=conflict["colour"])
    else:
        push_front(st, {"step": "conflict"})


def finish_conflict(st: dict, conflict: dict) -> None:
    if conflict["type"] == "external":
        take_spoils(st, conflict)
    st["conflict"] = None


def take_spoils(st: dict, conflict: dict) -> None:
    """The loser's former kingdom loses its cards of that colour to the winner's victory pile,
    except treasures* and cards carrying a leader; the cards below close up."""
    side = conflict["sides"][0 if conflict["loser"] == conflict["attacker"] else 1]
    spoils = [pos for pos in positions(st, side[0], side[1])
              if not is_treasure_star(pos) and card_colour(slot_at(st, pos)) == conflict["colour"]
              and "leader" not in slot_at(st, pos)]
    cards = [slot_at(st, pos)["card"] for pos in spoils]
    for pos in reversed(spoils):  # from the bottom up, so earlier positions stay valid
        remove_at(st, pos)
    st["piles"][conflict["winner"]].extend(cards)


# ---- The trader's exchange (after all external conflicts of a connection) --------------------
def step_exchange(st: dict, step: dict) -> None:
    span = span_of(st, {"gap": step["gap"]})
    trader = leaders_in(st, span).get("green")
    columns = real_treasure_columns(st, span)
    if trader and len(columns) >= 2:
        ask(st, "exchange", trader[0], columns=columns)


def answer_exchange(st: dict, pending: dict, action: dict) -> None:
    if action["type"] != "exchange":    # a treasure refused: most likely no red card to give
        believes_none(st, pending["seat"], "red")
        return
    seat, treasure = pending["seat"], {"column": action["column"], "row": 0}
    st["piles"][seat].append(slot_at(st, treasure)["card"])
    # a leader on it stays on the new card
    put_at(st, treasure, changed(slot_at(st, treasure), card=take_from_hand(st, seat, "red")))


# ---- Ships ("Kék: hajó") --------------------------------------------------------------------
def bottom_run(st: dict, column: int) -> tuple[str | None, int]:
    """Colour and length of the run of same-coloured cards at the bottom of a column
    (a treasure* is never part of a run; a ship breaks it)."""
    cells = st["columns"][column][1:]
    if not cells or "card" not in cells[-1]:
        return None, 0
    colour, length = colour_of(cells[-1]["card"]), 0
    for slot in reversed(cells):
        if "card" not in slot or colour_of(slot["card"]) != colour:
            break
        length += 1
    return colour, length


def ships_to_buy(st: dict, column: int) -> list[str]:
    colour, length = bottom_run(st, column)
    if length < SHIP_RUN:
        return []
    return [ship for ship in ships_for_run(colour) if ship in st["ships"]]


def step_ship(st: dict, step: dict) -> None:
    ships = ships_to_buy(st, step["column"])
    if ships:
        ask(st, "ship", st["active"], column=step["column"], ships=ships)


def answer_ship(st: dict, pending: dict, action: dict) -> None:
    if action["type"] == "ship":
        buy_ship(st, pending["column"], action["ship"])


def buy_ship(st: dict, column: int, ship: str) -> None:
    """The bottom SHIP_RUN cards go to the discard pile (their leaders go home); the ship
    takes their place."""
    cells = st["columns"][column]
    st["discard"].extend(slot["card"] for slot in cells[-SHIP_RUN:])
    set_column(st, column, cells[:-SHIP_RUN] + [{"ship": ship}])
    st["ships"].remove(ship)


def ship_points(st: dict, seat: int) -> list[str]:
    """One offer per ship and per leader of the seat of one of its colours in its kingdom
    (the king does not stand in)."""
    columns = st["columns"]
    if not any(map(column_ships, columns)):  # the usual case: no ship on the table
        return []
    offers = []
    for span in kingdoms(st):
        mine = {colour for colour, (owner, _) in leaders_in(st, span).items() if owner == seat}
        for ship in ships_in(st, span):
            offers += [colour for colour in ship_colours(ship) if colour in mine]
    return offers


# ---- The turn and the end of the turn ---------------------------------------------------------
def take_action(st: dict, seat: int, action: dict) -> None:
    kind = action["type"]
    if kind == "leader":
        place_leader(st, seat, action["colour"], position(action))
    elif kind == "card" and "gap" in action:
        place_connecting(st, seat, action["colour"], action["gap"])
    elif kind == "card":
        place_in_column(st, seat, action["colour"], action["column"])
    elif kind == "catastrophe":
        play_catastrophe(st, seat, position(action))
    elif "passes" in st:  # version 1 counted passes for its round-of-passes end
        st["passes"] += 1
    st["actions_left"] -= 1
    if st["actions_left"] == 0:
        st["queue"].append({"step": "end_turn"})


def position(action: dict) -> dict:
    if "gap" in action:
        return {"gap": action["gap"]}
    return {"column": action["column"], "row": action["row"]}


def step_end_turn(st: dict, step: dict) -> None:
    """Ship points for the active player, then everyone draws back, then the end check."""
    seat = st["active"]
    offers = [{"step": "offer", "kind": "score", "seat": seat, "colour": colour}
              for colour in ship_points(st, seat)]
    push_front(st, *offers, {"step": "refill"})


def step_refill(st: dict, step: dict) -> None:
    players, active = st["players"], st["active"]
    if version_of(st) == 1:
        st["passing_turns"] = st["passing_turns"] + 1 if st["passes"] == ACTIONS_PER_TURN else 0
        st["passes"] = 0
    else:
        stalled = not st["card_left_hand"] and table_full(st)
        st["quiet_turns"] = st["quiet_turns"] + 1 if stalled else 0
        st["card_left_hand"] = False
    need = sum(HAND_SIZE - len(hand) for hand in st["hands"])
    if need > len(st["deck"]):
        return end_game(st, "deck")
    for k in range(players):
        seat = (active + k) % players
        hand = st["hands"][seat]
        drew(st, seat, HAND_SIZE - len(hand))
        while len(hand) < HAND_SIZE:
            hand.append(draw(st["deck"]))
    if len(real_treasure_columns(st)) <= 1:
        return end_game(st, "treasures")
    if version_of(st) == 1:
        if table_full(st):  # [ruling of version 1] no card can be placed any more
            return end_game(st, "table_full")
        if st["passing_turns"] >= players:  # [ruling of version 1] a round of passing
            return end_game(st, "passing")
    elif st["quiet_turns"] >= players:
        # [ruling] a full round of turns (every player one) in which no card left any hand,
        # each ending with no column or gap able to take a card: the table is stalled. A
        # full table alone does not end the game: a catastrophe can open a place, conflicts
        # spend cards. (A quiet turn on an open table does not count: else a round of leader
        # placements, as in most openings, would end the game with the deck still full.)
        return end_game(st, "stalled")
    st["active"] = (active + 1) % players
    st["actions_left"] = ACTIONS_PER_TURN
    st["turn"] += 1


def end_game(st: dict, why: str) -> None:
    st.update(over=True, end=why, pending=None, queue=[])


STEPS = {
    "offer": step_offer, "ship": step_ship, "external": step_external,
    "conflict": step_conflict, "exchange": step_exchange,
    "end_turn": step_end_turn, "refill": step_refill,
}
ANSWERS = {
    "score": answer_score, "reward": answer_score, "ship": answer_ship,
    "commit": answer_commit, "order": answer_order, "exchange": answer_exchange,
}
