"""Tigris & Euphrates (Reiner Knizia): the rules engine, in the rulebook's order.

The state is a plain JSON-ready dict (see `setup`); squares are indices 0..175
(row * 16 + col) inside the state and [row, col] in actions and views.
"""
from __future__ import annotations

import functools
import itertools
import random

from pbem.games.base import Action, IllegalAction, _, copy_json

from . import words
from .board import (BLOCKS_OF, CATASTROPHE, CATASTROPHES_EACH, COLORS, COLS,
                    CORNER_TREASURES, EMPTY, HAND_SIZE, LEADER_COLORS, LEADERS,
                    MONUMENTS, NEIGHBOURS, RIVER, SQUARES, START_TEMPLES, TEMPLE, TILE_COUNTS,
                    block_squares, from_rc, label, monument_colors, to_rc)
from .kingdoms import (BIT, BySquare, Regions, face_down_squares, forget, leader_squares,
                       regions_of, remember, squares_of, treasure_set)

OPTIONS = {"english_variant": False, "open_scoring": False}
# Standing answers: decision -> the answers a seat may leave for it. "support": how many tiles
# to commit in a revolt or war while another player is on turn ("ask" = ask me by email).
STANDING = {"support": ("ask", "never")}
ACTIONS_PER_TURN = 2
END_TREASURES = 2          # the game ends after a turn with this many treasures or fewer


def N_(message: str) -> str:
    """Marks a message for the translation catalogue; it is translated where it is shown."""
    return message


# --- Setup -------------------------------------------------------------------

def new_state(players: int, seed: int, options: dict, version: int = 3) -> dict:
    """Start temples with treasures, the shuffled bag, 6 tiles each, seat 0 to begin.
    Version 2 adds the players' standing answers (version 1 states have none); version 3 keeps
    apart the tiles swapped out of the game (face down, their colours secret) from the rest of
    the tiles out of the game (laid face up: their colours public)."""
    rng = random.Random(seed)
    board = [EMPTY] * SQUARES
    for i in START_TEMPLES:
        board[i] = TEMPLE
    bag = []
    for color in COLORS:
        on_board = len(START_TEMPLES) if color == TEMPLE else 0
        bag += [color] * (TILE_COUNTS[color] - on_board)
    rng.shuffle(bag)
    state = {
        "players": players,
        "seed": seed,
        "options": dict(options),
        "board": board,
        "treasures": sorted(START_TEMPLES),
        "monuments": {name: None for name in MONUMENTS},
        "declined": [],
        "unification": None,
        "leaders": [{color: None for color in COLORS} for _ in range(players)],
        "catastrophes": [CATASTROPHES_EACH] * players,
        "hands": [{color: 0 for color in COLORS} for _ in range(players)],
        "bag": bag,
        "out": {color: 0 for color in COLORS},
        "points": [{color: 0 for color in COLORS} for _ in range(players)],
        "treasures_taken": [0] * players,
        "turn": new_turn(0),
        "steps": [],
        "pending": None,
        "over": False,
        "end_reason": None,
    }
    if version >= 2:
        state["version"] = version
        state["standing"] = [{decision: "ask" for decision in STANDING} for _ in range(players)]
    if version >= 3:
        state["swapped"] = {color: 0 for color in COLORS}
    for seat in range(players):
        draw(state, seat, HAND_SIZE)
    return state


def new_turn(active: int) -> dict:
    return {"active": active, "actions_done": 0, "placed": None, "committers": []}


def draw(state: dict, seat: int, count: int) -> None:
    """Draw `count` tiles from the top of the bag into the seat's hand."""
    drawn, state["bag"] = state["bag"][:count], state["bag"][count:]
    for color in drawn:
        state["hands"][seat][color] += 1


# --- The kingdoms --------------------------------------------------------------

def is_face_up_temple(state: dict, i: int, down: set[int]) -> bool:
    return state["board"][i] == TEMPLE and i not in down


def temples_next_to(state: dict, i: int, down: set[int]) -> int:
    """How many face-up temples stand orthogonally next to square i."""
    return sum(1 for n in NEIGHBOURS[i] if is_face_up_temple(state, n, down))


def send_home_stranded(state: dict) -> list[tuple[int, str]]:
    """Leaders left without a face-up temple next to them go back to their owner at once."""
    down = face_down_squares(state)
    gone = []
    for i, (seat, color) in sorted(leader_squares(state).items()):
        if temples_next_to(state, i, down) == 0:
            regions = regions_of(state)             # with the leader still there
            state["leaders"][seat][color] = None
            remember(state, regions.without(i))
            gone.append((seat, color))
    return gone


class Why:
    """Why a square may not be chosen, put into words only when shown: legal_actions asks it
    of every square for every piece and needs only yes or no."""

    __slots__ = ("message", "square")

    def __init__(self, message: str, square: int):
        self.message, self.square = message, square

    def __str__(self) -> str:
        return _(self.message).format(square=label(self.square))


# --- Actions: leader ---------------------------------------------------------

def why_not_leader_square(state: dict, regions: Regions, i: int, down: set[int]) -> Why | None:
    """Why a leader may not stand on square i (None: it may)."""
    if state["board"][i] != EMPTY or i in regions.leader_at:
        return Why(N_("{square} is not empty"), i)
    if i in RIVER:
        return Why(N_("{square} is on the river, where no leader may stand"), i)
    if temples_next_to(state, i, down) == 0:
        return Why(N_("{square} is not next to a temple"), i)
    if len(regions.kingdoms_next_to(i)) > 1:
        return Why(N_("a leader on {square} would join two kingdoms"), i)
    return None


def start_leader_placement(state: dict, seat: int, color: str, i: int) -> None:
    """Put the leader on square i; a leader of its colour already there means a revolt."""
    state["leaders"][seat][color] = i
    rival = [(s, j) for s, c, j in regions_of(state).kingdom_leaders(i)
             if c == color and s != seat]
    state["steps"] = ["treasures", "end_action"]
    if rival:
        defender, j = rival[0]
        down = face_down_squares(state)
        state["pending"] = {
            "kind": "revolt", "color": color, "attacker": seat, "defender": defender,
            "squares": [i, j],
            "strength": [temples_next_to(state, i, down), temples_next_to(state, j, down)],
            "committed": [None, None]}


# --- Actions: tile -----------------------------------------------------------

def why_not_tile_square(state: dict, regions: Regions, color: str, i: int) -> Why | None:
    """Why a tile of `color` may not go on square i (None: it may)."""
    if state["board"][i] != EMPTY or i in regions.leader_at:
        return Why(N_("{square} is not empty"), i)
    if color == "blue" and i not in RIVER:
        return Why(N_("a farm (blue) may only go on the river, and {square} is land"), i)
    if color != "blue" and i in RIVER:
        return Why(N_("only farms (blue) may go on the river, and {square} is river"), i)
    if len(regions.kingdoms_next_to(i)) > 2:
        return Why(N_("a tile on {square} would join more than two kingdoms"), i)
    return None


def place_tile(state: dict, seat: int, color: str, i: int) -> None:
    """Lay the tile; it scores unless it unites two kingdoms (then wars may follow)."""
    regions = regions_of(state)
    joins = len(regions.kingdoms_next_to(i))
    state["hands"][seat][color] -= 1
    state["board"][i] = color
    remember(state, regions.joined(state["board"], i))
    state["turn"]["placed"] = i
    state["steps"] = ["monument", "treasures", "end_action"]
    if joins == 2:
        state["unification"] = i
        state["steps"].insert(0, "wars")
    else:
        score_tile(state, color, i)


def score_tile(state: dict, color: str, i: int) -> None:
    """1 point to the owner of the kingdom's leader of the tile's colour, else of its king."""
    leaders = regions_of(state).kingdom_leaders(i)
    owner = next((s for s, c, _ in leaders if c == color), None)
    if owner is None:
        owner = next((s for s, c, _ in leaders if c == "black"), None)
    if owner is not None:
        state["points"][owner][color] += 1


# --- Actions: catastrophe ----------------------------------------------------

def why_not_catastrophe(state: dict, i: int, leaders: dict, down: set[int]) -> Why | None:
    """Why a catastrophe may not go on square i (None: it may)."""
    if state["board"][i] == CATASTROPHE:
        return Why(N_("{square} already holds a catastrophe"), i)
    if i in leaders:
        return Why(N_("a leader stands on {square}"), i)
    if i in state["treasures"]:
        return Why(N_("the tile on {square} carries a treasure"), i)
    if i in down:
        return Why(N_("{square} is under a monument"), i)
    return None


def place_catastrophe(state: dict, seat: int, i: int) -> None:
    """The catastrophe destroys any tile there; leaders without a temple go home."""
    regions = regions_of(state)
    if state["board"][i] in COLORS:
        state["out"][state["board"][i]] += 1
    state["board"][i] = CATASTROPHE
    remember(state, regions.struck(i))
    state["catastrophes"][seat] -= 1
    send_home_stranded(state)
    state["steps"] = ["treasures", "end_action"]


# --- Actions: swapping tiles -------------------------------------------------

@functools.cache
def swap_choices(counts: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
    """Every non-empty set of hand tiles that may be swapped (`counts`: the hand's tiles of
    each colour in rulebook order), colours in rulebook order."""
    choices = []
    for chosen in itertools.product(*(range(n + 1) for n in counts)):
        tiles = tuple(color for color, n in zip(COLORS, chosen) for _ in range(n))
        if tiles:
            choices.append(tiles)
    return tuple(choices)


@functools.cache
def swap_actions(*counts: int) -> tuple[Action, ...]:
    """The swap actions of a hand holding `counts` tiles of each colour (shared, like every
    action legal_actions hands out)."""
    return tuple(Action(type="swap", tiles=list(tiles)) for tiles in swap_choices(counts))


def swap(state: dict, seat: int, tiles: list[str]) -> None:
    """The tiles leave the game; as many are drawn; an empty bag ends the game at once."""
    for color in tiles:
        state["hands"][seat][color] -= 1
        state["out"][color] += 1
        if "swapped" in state:
            state["swapped"][color] += 1
    if len(state["bag"]) < len(tiles):
        end_game(state, N_("the bag could not refill a hand during a swap"))
        return
    draw(state, seat, len(tiles))
    state["steps"] = ["end_action"]


# --- Conflicts: committing tiles ---------------------------------------------

def commit_role(pending: dict) -> int:
    """0 while the attacker is to commit, 1 for the defender."""
    return 0 if pending["committed"][0] is None else 1


def commit_choices(state: dict, have: int) -> list[int]:
    """How many tiles the committing side may add (English variant: its limits), holding
    `have` tiles of the conflict's colour."""
    pending = state["pending"]
    attack, defence = pending["strength"]
    if not state["options"]["english_variant"]:
        return list(range(have + 1))
    if commit_role(pending) == 0:
        return [0] + [n for n in range(1, have + 1) if attack + n > defence]
    to_tie = attack + pending["committed"][0] - defence
    return [0] + ([to_tie] if 0 < to_tie <= have else [])


def commit(state: dict, seat: int, color: str, count: int) -> dict | None:
    """Tiles committed are laid face up and leave the game; after the defender's, the
    conflict is over: it is returned, to be resolved (None while the defender is asked)."""
    pending = state["pending"]
    state["hands"][seat][color] -= count
    state["out"][color] += count
    if count and seat not in state["turn"]["committers"]:
        state["turn"]["committers"].append(seat)
    pending["committed"][commit_role(pending)] = count
    if pending["committed"][1] is None:
        return None
    state["pending"] = None
    return pending


def conflict_winner(pending: dict) -> tuple[int, int]:
    """(winner, loser) seats; ties go to the defender."""
    attack = pending["strength"][0] + pending["committed"][0]
    defence = pending["strength"][1] + pending["committed"][1]
    if attack > defence:
        return pending["attacker"], pending["defender"]
    return pending["defender"], pending["attacker"]


# --- Conflicts: revolt (internal conflict) -----------------------------------

def resolve_revolt(state: dict, pending: dict) -> None:
    """The loser's leader goes home; the winner scores 1 red point."""
    winner, loser = conflict_winner(pending)
    square = pending["squares"][0 if loser == pending["attacker"] else 1]
    after = regions_of(state).without(square)
    state["leaders"][loser][pending["color"]] = None
    remember(state, after)
    state["points"][winner][TEMPLE] += 1


# --- Conflicts: war (external conflict) --------------------------------------

def war_colors(state: dict) -> list[str]:
    """Colours with two leaders in the kingdom of the unification tile."""
    colors = [c for _, c, _ in regions_of(state).kingdom_leaders(state["unification"])]
    return [c for c in COLORS if colors.count(c) >= 2]


def war_sides(state: dict) -> Regions:
    """Each leader's own kingdom: the regions with the unification tile left out."""
    return Regions(state, absent=state["unification"])


def supporters(state: dict, sides: Regions, i: int, color: str, down: set[int]) -> list[int]:
    """Face-up tiles of `color` on the side of the leader on square i."""
    board = state["board"]
    return [j for j in squares_of(sides.region_squares(i)) if board[j] == color and j not in down]


def start_war(state: dict, color: str) -> None:
    """Attacker: the active player if he fights, else the first fighter clockwise."""
    fighters = {s: i for s, c, i in regions_of(state).kingdom_leaders(state["unification"])
                if c == color}
    active, players = state["turn"]["active"], state["players"]
    attacker = next(s for k in range(players)
                    if (s := (active + k) % players) in fighters)
    defender = next(s for s in fighters if s != attacker)
    sides, down = war_sides(state), face_down_squares(state)
    state["pending"] = {
        "kind": "war", "color": color, "attacker": attacker, "defender": defender,
        "squares": [fighters[attacker], fighters[defender]],
        "strength": [len(supporters(state, sides, fighters[s], color, down))
                     for s in (attacker, defender)],
        "committed": [None, None]}


def resolve_war(state: dict, pending: dict) -> None:
    """The loser's leader and his supporters leave; the winner scores them + 1."""
    winner, loser = conflict_winner(pending)
    color = pending["color"]
    square = pending["squares"][0 if loser == pending["attacker"] else 1]
    sides, down = war_sides(state), face_down_squares(state)
    state["leaders"][loser][color] = None
    forget(state)
    others = set(leader_squares(state))
    removed = [j for j in supporters(state, sides, square, color, down)
               if not (color == TEMPLE and (j in state["treasures"]
                                            or any(n in others for n in NEIGHBOURS[j])))]
    for j in removed:
        state["board"][j] = EMPTY
        state["out"][color] += 1
    forget(state)
    state["points"][winner][color] += len(removed) + 1
    send_home_stranded(state)


# --- Monuments ---------------------------------------------------------------

def monument_choices(state: dict) -> list[tuple[str, int]]:
    """(monument, top-left square) for each 2x2 of one colour the placed tile completes."""
    i = state["turn"]["placed"]
    if i is None or state["board"][i] not in COLORS:
        return []
    color = state["board"][i]
    board = state["board"]
    for tl in BLOCKS_OF[i]:
        if board[tl] == board[tl + 1] == board[tl + COLS] == board[tl + COLS + 1]:
            break
    else:
        return []
    down = face_down_squares(state)
    free = [name for name, at in state["monuments"].items()
            if at is None and color in monument_colors(name)]
    blocks = [tl for tl in BLOCKS_OF[i] if tl not in state["declined"]
              and all(state["board"][j] == color and j not in down for j in block_squares(tl))]
    return [(name, tl) for tl in blocks for name in free]


def build_monument(state: dict, name: str, top_left: int) -> None:
    """The four tiles turn face down under the monument; stranded leaders go home."""
    state["monuments"][name] = top_left
    forget(state)
    send_home_stranded(state)


def decline_monument(state: dict) -> None:
    """A declined square can never carry a monument later."""
    for _colour, top_left in monument_choices(state):
        if top_left not in state["declined"]:
            state["declined"].append(top_left)
    state["declined"].sort()


def monument_points(state: dict) -> None:
    """End of the active player's turn: 1 point per monument colour he has a leader of there."""
    active = state["turn"]["active"]
    for name, top_left in state["monuments"].items():
        if top_left is None:
            continue
        regions = regions_of(state)
        mine = {c for s, c, _ in regions.kingdom_leaders(top_left) if s == active}
        for color in monument_colors(name):
            if color in mine:
                state["points"][active][color] += 1


# --- Treasures ---------------------------------------------------------------

def treasure_claim(state: dict) -> tuple[int, list[int]] | None:
    """(trader's owner, treasures of his kingdom) for the first kingdom with 2 or more."""
    regions = regions_of(state)
    treasures = state["treasures"]
    treasures_at = None
    for seat, leaders in enumerate(state["leaders"]):
        i = leaders["green"]
        if i is None:
            continue
        if treasures_at is None:
            treasures_at = treasure_set(tuple(treasures))
        region = regions.region_squares(i)
        if (region & treasures_at).bit_count() >= 2:
            return seat, sorted(t for t in treasures if region & BIT[t])
    return None


def treasure_choices(here: list[int]) -> list[list[int]]:
    """All but one are taken, framed corner treasures first: which may be taken."""
    others = [t for t in here if t not in CORNER_TREASURES]
    stays = others if others else here
    return [[t for t in here if t != left] for left in stays]


def take_treasures(state: dict, seat: int, taken: list[int]) -> None:
    state["treasures"] = [t for t in state["treasures"] if t not in taken]
    state["treasures_taken"][seat] += len(taken)


# --- The steps of an action, and the end of the turn ---------------------------

def advance(state: dict) -> None:
    """Carry out mechanical steps until a player must decide or the turn goes on."""
    while not state["over"] and state["pending"] is None and state["steps"]:
        STEPS[state["steps"][0]](state)


def step_wars(state: dict) -> None:
    """Wars one by one, in the active player's order; then the unification tile comes off."""
    colors = war_colors(state)
    if len(colors) == 1:
        start_war(state, colors[0])
    elif colors:
        state["pending"] = {"kind": "war_order", "seat": state["turn"]["active"],
                            "colors": colors}
    else:
        state["unification"] = None
        state["steps"].pop(0)


def step_monument(state: dict) -> None:
    if monument_choices(state):
        state["pending"] = {"kind": "monument", "seat": state["turn"]["active"]}
    else:
        state["steps"].pop(0)


def step_treasures(state: dict) -> None:
    claim = treasure_claim(state)
    if claim is None:
        state["steps"].pop(0)
        return
    seat, here = claim
    choices = treasure_choices(here)
    if len(choices) == 1:
        take_treasures(state, seat, choices[0])
    else:
        state["pending"] = {"kind": "treasure", "seat": seat, "treasures": here}


def step_end_action(state: dict) -> None:
    state["steps"].pop(0)
    state["turn"]["placed"] = None
    state["turn"]["actions_done"] += 1
    if state["turn"]["actions_done"] >= ACTIONS_PER_TURN:
        state["steps"] = ["end_turn"]


def step_end_turn(state: dict) -> None:
    """Monument points, refill (active, then those who committed), end check, next player."""
    state["steps"] = []
    monument_points(state)
    active = state["turn"]["active"]
    # "majd sorban így tesznek mindazon játékosok, akik ... adtak be": the committers in turn
    # order, clockwise from the active player
    players = len(state["hands"])
    committers = state["turn"]["committers"]
    order = [active] + [(active + k) % players for k in range(1, players)
                        if (active + k) % players in committers]
    needs = [(s, HAND_SIZE - sum(state["hands"][s].values())) for s in order]
    if sum(n for _, n in needs) > len(state["bag"]):
        end_game(state, N_("the bag could not refill every hand to 6"))
        return
    for seat, n in needs:
        draw(state, seat, n)
    if len(state["treasures"]) <= END_TREASURES:
        end_game(state, N_("only 2 or fewer treasures remain on the board"))
        return
    state["turn"] = new_turn((active + 1) % state["players"])


STEPS = {"wars": step_wars, "monument": step_monument, "treasures": step_treasures,
         "end_action": step_end_action, "end_turn": step_end_turn}


# --- End of the game and final scoring ---------------------------------------

def end_game(state: dict, reason: str) -> None:
    state["over"] = True
    state["end_reason"] = reason
    state["pending"] = None
    state["steps"] = []


def final_colors(points: dict, treasures: int) -> list[int]:
    """The seat's colours weakest first, each treasure placed on the weakest colour."""
    values = sorted(points[c] for c in COLORS)
    for _treasure in range(treasures):
        values[0] += 1
        values.sort()
    return values


def ranking(state: dict) -> tuple[list[list[int]], list[list[int]]]:
    """Seats best first (weakest colour, then second weakest, ...); ties share a place."""
    vectors = [final_colors(state["points"][s], state["treasures_taken"][s])
               for s in range(state["players"])]
    places: list[list[int]] = []
    for seat in sorted(range(state["players"]), key=lambda s: vectors[s], reverse=True):
        if places and vectors[places[-1][0]] == vectors[seat]:
            places[-1].append(seat)
        else:
            places.append([seat])
    return places, vectors


# --- Legal actions -----------------------------------------------------------

# Every action of a turn, made once and handed out by legal_actions to every position that
# offers it (an `Action` refuses to be changed; the [row, col] lists inside are shared).
AT = tuple(to_rc(i) for i in range(SQUARES))
PLACE_LEADER = {color: tuple(Action(type="place_leader", leader=LEADERS[color], at=AT[i])
                             for i in range(SQUARES)) for color in COLORS}
MOVE_LEADER = {color: tuple(Action(type="move_leader", leader=LEADERS[color], at=AT[i])
                            for i in range(SQUARES)) for color in COLORS}
WITHDRAW_LEADER = {color: Action(type="withdraw_leader", leader=LEADERS[color])
                   for color in COLORS}
PLACE_TILE = {color: tuple(Action(type="place_tile", colour=color, at=AT[i])
                           for i in range(SQUARES)) for color in COLORS}
PLACE_CATASTROPHE = tuple(Action(type="place_catastrophe", at=AT[i]) for i in range(SQUARES))
PASS = Action(type="pass")


# The same, by sets of squares (kingdoms.BySquare): PLACE_TILE_AT[color](squares) -> actions.
PLACE_LEADER_AT = {color: BySquare(PLACE_LEADER[color]) for color in COLORS}
MOVE_LEADER_AT = {color: BySquare(MOVE_LEADER[color]) for color in COLORS}
PLACE_TILE_AT = {color: BySquare(PLACE_TILE[color]) for color in COLORS}
PLACE_CATASTROPHE_AT = BySquare(PLACE_CATASTROPHE)


def free_actions(state: dict, seat: int) -> list[dict]:
    """The active player's choice of action: leader, tile, catastrophe, swap, or pass."""
    regions = regions_of(state)               # as the board stands: shared by all
    actions = leader_actions(state, seat, regions) + tile_actions(state, seat, regions)
    actions += catastrophe_actions(state, seat, regions)
    hand = state["hands"][seat]
    actions += swap_actions(hand["red"], hand["blue"], hand["green"], hand["black"])
    actions.append(PASS)
    return actions


def leader_actions(state: dict, seat: int, regions: Regions | None = None) -> list[dict]:
    regions = regions or regions_of(state)
    actions = []
    for color in COLORS:
        at = state["leaders"][seat][color]
        if at is None:
            actions += regions.listed(("supply", color), PLACE_LEADER_AT[color],
                                      regions.leader_squares_from_supply())
        else:
            actions += regions.listed(("move", color, seat), MOVE_LEADER_AT[color],
                                      regions.leader_squares_moving(at))
            actions.append(WITHDRAW_LEADER[color])
    return actions


def tile_actions(state: dict, seat: int, regions: Regions | None = None) -> list[dict]:
    regions = regions or regions_of(state)
    hand = state["hands"][seat]
    actions = []
    for color in COLORS:
        if hand[color] > 0:
            actions += regions.listed(("tile", color), PLACE_TILE_AT[color],
                                      regions.tile_squares(color))
    return actions


def catastrophe_actions(state: dict, seat: int, regions: Regions | None = None) -> list[dict]:
    if state["catastrophes"][seat] <= 0:
        return []
    regions = regions or regions_of(state)
    return list(regions.listed("catastrophe", PLACE_CATASTROPHE_AT,
                               regions.catastrophe_squares(state["treasures"])))


def standing_answer(state: dict, decision: str, seat: int) -> str:
    standing = state.get("standing")
    return "ask" if standing is None else standing[seat].get(decision, "ask")


def standing_actions(state: dict, seat: int) -> list[dict]:
    """Changing a standing answer (version 2 games): free, and offered at every real choice."""
    if "standing" not in state:
        return []
    return [action for action in STANDING_ACTIONS
            if action["answer"] != standing_answer(state, action["decision"], seat)]


STANDING_ACTIONS = tuple(Action(type="standing", decision=decision, answer=answer)
                         for decision, answers in STANDING.items() for answer in answers)


# --- Applying an action ------------------------------------------------------

def copy_state(state: dict) -> dict:
    """A copy sharing nothing that can change with `state` (what copy_json makes, sooner)."""
    new = dict(state)
    if not PLAIN_KEYS.issuperset(new):
        for key in new.keys() - PLAIN_KEYS:
            new[key] = copy_json(new[key])
    new["board"], new["treasures"], new["declined"] = (
        state["board"][:], state["treasures"][:], state["declined"][:])
    new["catastrophes"], new["bag"], new["treasures_taken"], new["steps"] = (
        state["catastrophes"][:], state["bag"][:], state["treasures_taken"][:],
        state["steps"][:])
    new["leaders"], new["hands"], new["points"] = (
        list(map(dict, state["leaders"])), list(map(dict, state["hands"])),
        list(map(dict, state["points"])))
    new["monuments"], new["out"] = dict(state["monuments"]), dict(state["out"])
    if "swapped" in state:
        new["swapped"] = dict(state["swapped"])
    turn = new["turn"] = dict(state["turn"])
    turn["committers"] = list(turn["committers"])
    if state["pending"] is not None:
        new["pending"] = copy_json(state["pending"])
    new["options"] = dict(state["options"])
    if "standing" in state:
        new["standing"] = list(map(dict, state["standing"]))
    return new


# The keys copy_state copies itself, and those holding a number, a string or None.
PLAIN_KEYS = frozenset({"board", "treasures", "declined", "catastrophes", "bag",
                        "treasures_taken", "steps", "leaders", "hands", "points", "monuments",
                        "out", "swapped", "turn", "pending", "options", "standing", "players", "seed",
                        "unification", "over", "end_reason", "version"})


def square_of(action: dict, key: str = "at") -> int:
    i = from_rc(action.get(key))
    if i is None:
        raise IllegalAction(f"{key!r} must be a square [row, col] with row 0-10 and col 0-15")
    return i


def leader_color_of(action: dict) -> str:
    name = action.get("leader")
    if not isinstance(name, str) or name not in LEADER_COLORS:
        raise IllegalAction("'leader' must be one of king, priest, farmer, trader")
    return LEADER_COLORS[name]


def tile_color_of(action: dict) -> str:
    color = action.get("colour")
    if not isinstance(color, str) or color not in COLORS:
        raise IllegalAction("'colour' must be one of red, blue, green, black")
    return color


def do_free_action(state: dict, seat: int, action: dict) -> None:
    kind = action["type"]
    if kind == "pass":
        state["steps"] = ["end_turn"]
    elif kind in ("place_leader", "move_leader", "withdraw_leader"):
        do_leader(state, seat, kind, action)
    elif kind == "place_tile":
        color, i = tile_color_of(action), square_of(action)
        if state["hands"][seat][color] <= 0:
            raise IllegalAction(_("you hold no {colour} tile").format(
                colour=words.colour(color)))
        regions = regions_of(state)
        if not regions.tile_squares(color) & BIT[i]:
            raise IllegalAction(str(why_not_tile_square(state, regions, color, i)))
        place_tile(state, seat, color, i)
    elif kind == "place_catastrophe":
        i = square_of(action)
        if state["catastrophes"][seat] <= 0:
            raise IllegalAction(_("you have no catastrophe tile left"))
        regions = regions_of(state)
        if not regions.catastrophe_squares(state["treasures"]) & BIT[i]:
            raise IllegalAction(str(why_not_catastrophe(state, i, regions.leader_at,
                                                        regions.down)))
        place_catastrophe(state, seat, i)
    elif kind == "swap":
        do_swap(state, seat, action)
    else:
        raise IllegalAction(f"{kind!r} is not an action you can take now")


def do_leader(state: dict, seat: int, kind: str, action: dict) -> None:
    color = leader_color_of(action)
    at = state["leaders"][seat][color]
    name = LEADERS[color]
    if kind == "withdraw_leader":
        if at is None:
            raise IllegalAction(_("{leader} is not on the board").format(
                leader=words.your_leader(name)))
        regions = regions_of(state).without(at)
        state["leaders"][seat][color] = None
        remember(state, regions)
        state["steps"] = ["treasures", "end_action"]
        return
    if kind == "place_leader" and at is not None:
        raise IllegalAction(_("{leader} is already on the board: move it instead").format(
            leader=words.your_leader(name)))
    if kind == "move_leader" and at is None:
        raise IllegalAction(_("{leader} is not on the board: place it instead").format(
            leader=words.your_leader(name)))
    i = square_of(action)
    if i == at:
        raise IllegalAction(_("{leader} already stands on {square}").format(
            leader=words.your_leader(name), square=label(i)))
    regions = regions_of(state)
    if at is None:
        if not regions.leader_squares_from_supply() & BIT[i]:
            raise IllegalAction(str(why_not_leader_square(state, regions, i, regions.down)))
    else:
        if not regions.leader_squares_moving(at) & BIT[i]:
            raise IllegalAction(str(why_not_leader_square(
                state, Regions(state, lifted=at), i, regions.down)))
        regions = regions.without(at)
    state["leaders"][seat][color] = None
    after = regions.joined(state["board"], i, (seat, color))
    state["leaders"][seat][color] = i
    remember(state, after)
    start_leader_placement(state, seat, color, i)


def do_swap(state: dict, seat: int, action: dict) -> None:
    tiles = action.get("tiles")
    if (not isinstance(tiles, list) or not tiles
            or any(not isinstance(t, str) or t not in COLORS for t in tiles)):
        raise IllegalAction("'tiles' must be a non-empty list of tile colours")
    for color in COLORS:
        if tiles.count(color) > state["hands"][seat][color]:
            raise IllegalAction(_("you hold fewer than {n} {colour} tiles").format(
                n=tiles.count(color), colour=words.colour(color)))
    swap(state, seat, tiles)


def do_standing(state: dict, seat: int, action: dict, legal: list[dict]) -> None:
    """A standing answer: no action of the turn, no step of a conflict; only an answer left,
    at any real choice of the seat (`legal`: its legal actions)."""
    if action not in legal:
        if "standing" not in state:
            raise IllegalAction("this game was created before standing answers existed")
        if action not in standing_actions(state, seat):
            raise IllegalAction(_("a standing answer for support is one of: ask me, "
                                  "never commit"))
        raise IllegalAction(_("a standing answer can only be left while you have a real "
                              "choice to make"))
    state["standing"][seat][action["decision"]] = action["answer"]


__all__ = ["IllegalAction", "Regions", "ranking", "final_colors"]
