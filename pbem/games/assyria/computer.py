"""Assyria for the search: what a position will still score, counted from what lies on the
board (all of it public).

A playout of a dozen actions rarely reaches the next income or flood, so the value adds what
the rules will pay for the position as it stands:
- the points so far, and the game end's (+1 a ziggurat piece, +1 a plow held, half a point a
  camel);
- prestige: a ziggurat piece scores 1 at every income still to come (it needs no food); a hut
  scores 2 between the rivers, 1 outside at this turn's income (as far as the seat's cards can
  feed it) and less at later ones (it must be fed again each turn);
- income: river huts' camels at this turn's income (up to the 10 a seat may hold);
- the flood ahead: Assur's cards (those showing and the expected rest of the reign) to the
  seats as they rank now, counted at ASSUR_SHARE since the others can still outbid; the highest
  dignitary's 1 / 4 / 8 points, the lower's camel a hut, the middle's plow; and the offering
  track's multiplier times the seat's ziggurats;
- a well site where two of the seat's huts stand and the third hex is free, while the seat's
  expansion is still to come;
- a little for each food symbol in hand.
Without the flood and the later incomes the search saw a ziggurat (6 camels) or an offering
as a loss and never bid for Assur.
"""
from __future__ import annotations

from functools import lru_cache

from pbem.bots.heuristic import Heuristic

from .board import board
from .engine import (BONUS_CARD, CARDS, EXPANSION_DECK, FIRST_HUT_INCOME, HIGHEST_BONUS,
                     INFLUENCE, JOKER, MAX_CAMELS, NEXT_HUT_INCOME, OFFERING_TRACK, PRESTIGE,
                     TURNS_PER_REIGN, WELL_POINTS, WELLS)

CAMEL = 0.5                 # a camel at the game end
HUT_LATER = 0.35            # a hut's prestige at each later income (it must be fed again)
HUT_LATER_TURNS = 3         # later incomes a hut is counted for at most
RIVER_LATER = 0.5           # a river hut's income at later turns of the reign
ASSUR_SHARE = 0.6           # the Assur points the seat's standing now would win
NEAR_WELL = 0.3             # a well site that one more hut completes, times its points
HAND_SYMBOL = 0.25          # a food symbol (or joker) in hand
EXPECTED_CARD = sum(EXPANSION_DECK) / len(EXPANSION_DECK)
TURNS_BEFORE = {reign: sum(TURNS_PER_REIGN[r] for r in range(1, reign))
                for reign in TURNS_PER_REIGN}
TOTAL_TURNS = sum(TURNS_PER_REIGN.values())
SLOTS = ("highest", "middle", "lower")
SYMBOLS = tuple(card["symbols"] for card in CARDS)


@lru_cache(maxsize=None)
def _board_facts(players: int):
    bd = board(players)
    prestige = {h: PRESTIGE[r] for h, r in bd.regions.items()}
    river = {h: {"river1": 0, "river2": 1}.get(r) for h, r in bd.regions.items()}
    sites = [tuple(site) for site in bd.well_sites]
    return bd.foods, prestige, river, sites, bd.sites_at


def income_pending(state, seat: int) -> bool:
    """Whether the seat's expansion (feeding, income, prestige) of this turn is still to come."""
    phase = state["phase"]
    if phase in ("start", "draft", "harvest"):
        return True
    if phase in ("huts", "feed", "wells"):
        return seat == state["active"] or seat in state["queue"]
    return False


def _fed_share(state, seat: int, huts: list[str], foods) -> float:
    """The share of the seat's unfed huts its cards (and plow) can still feed."""
    if state["phase"] in ("wells",) or not huts:
        return 1.0
    fed = set(state["fed"]) if seat == state["active"] else set()
    unfed = [h for h in huts if h not in fed]
    if not unfed:
        return 1.0
    symbols = dict(state["played"]) if seat == state["active"] else {}
    wild = int(state["plows"][seat])
    for card_id in state["hands"][seat]:
        card = CARDS[card_id]
        if card["food"] == JOKER:
            wild += 1
        else:
            symbols[card["food"]] = symbols.get(card["food"], 0) + card["symbols"]
    counts: dict = {}
    for h in unfed:
        counts[foods[h]] = counts.get(foods[h], 0) + 1
    can = left = 0
    for food, n in counts.items():
        covered = symbols.get(food, 0)
        if n > covered:
            can, left = can + covered, left + n - covered
        else:
            can += n
    can += min(wild, left)
    return (len(huts) - len(unfed) + can) / len(huts)


def _assur_points(state) -> list[float]:
    """What each seat would take from Assur at the coming flood if the standing did not change."""
    players = state["players"]
    slots = state["dignitaries"]
    influence, count, best = [0] * players, [0] * players, [99] * players
    position = 0
    for name in SLOTS:
        for s in slots[name]:
            if s is not None:
                influence[s] += INFLUENCE[name]
                count[s] += 1
                best[s] = min(best[s], position)
            position += 1
    ranked = sorted((s for s in range(players) if count[s]),
                    key=lambda s: (-influence[s], -count[s], best[s]))
    out = [0.0] * players
    if not ranked:
        return out
    reign = state["reign"]
    cards = list(state["expansion"]) + ([BONUS_CARD] if state["bonus"] else [])
    cards += [EXPECTED_CARD] * (TURNS_PER_REIGN[reign] - len(state["expansion"]))
    cards.sort()
    if players == 2:
        out[ranked[0]] = sum(cards)
        if len(ranked) > 1 and reign > 1:
            out[ranked[1]] = cards[0]
    else:
        left = cards
        for s in ranked:
            out[s] = sum(left)
            if left:
                left = left[:-1]
    return out


def near_wells(state, seat: int, huts_of_seat: list[str], sites, sites_at) -> int:
    """Free well sites with two of the seat's huts and the third hex empty."""
    huts, ziggurats, wells = state["huts"], state["ziggurats"], state["wells"]
    seen, found = set(), 0
    for h in huts_of_seat:
        for i in sites_at[h]:
            if i in seen or i in wells:
                continue
            seen.add(i)
            mine = empty = 0
            for x in sites[i]:
                owner = huts.get(x)
                if owner == seat:
                    mine += 1
                elif owner is None and x not in ziggurats:
                    empty += 1
            if mine == 2 and empty == 1:
                found += 1
    return found


def _pieces(state) -> tuple[list[list[str]], list[int], list[list[int]], list[int], list[int]]:
    """Per seat: its huts, their prestige off the rivers, its huts on each river, its
    ziggurat pieces and its ziggurats."""
    players = state["players"]
    _, prestige_of, river_of, _, _ = _board_facts(players)
    huts: list[list[str]] = [[] for _ in range(players)]
    dry_prestige = [0] * players
    river_huts = [[0, 0] for _ in range(players)]
    for h, s in state["huts"].items():
        huts[s].append(h)
        river = river_of[h]
        if river is None:
            dry_prestige[s] += prestige_of[h]
        else:
            river_huts[s][river] += 1
    pieces, ziggurats = [0] * players, [0] * players
    for s, level in state["ziggurats"].values():
        pieces[s] += level
        ziggurats[s] += 1
    return huts, dry_prestige, river_huts, pieces, ziggurats


def river_income(on_rivers: list[int]) -> int:
    """Per river: the first hut 3 camels, each further hut 2."""
    return sum([FIRST_HUT_INCOME + NEXT_HUT_INCOME * (n - 1) for n in on_rivers if n])


def _dignitaries_ahead(state, seat: int, assur: list[float]) -> float:
    """The coming flood's Assur share and dignitary bonuses as the slots stand."""
    slots = state["dignitaries"]
    value = ASSUR_SHARE * assur[seat] + HIGHEST_BONUS[slots["highest"].count(seat)] \
        + CAMEL * slots["lower"].count(seat)
    if seat in slots["middle"] and not state["plows"][seat] and state["plow_pile"]:
        value += 1.0
    return value


def values(state) -> list[float]:
    if state["final"] is not None:          # already counted into the score
        return [float(v) for v in state["score"]]
    players, reign, turn = state["players"], state["reign"], state["turn"]
    foods, _, _, sites, sites_at = _board_facts(players)
    later = TOTAL_TURNS - TURNS_BEFORE[reign] - turn          # incomes after this turn's
    later_in_reign = TURNS_PER_REIGN[reign] - turn
    huts_of, dry_prestige, river_huts, pieces, ziggurats = _pieces(state)
    slots = state["dignitaries"]
    assur = _assur_points(state) if any(slots[name][0] is not None for name in SLOTS) else None
    wells_left = WELLS[players] - len(state["wells"])
    early = state["phase"] in ("start", "draft", "harvest", "huts")
    hut_later = HUT_LATER * min(later, HUT_LATER_TURNS)
    out = []
    for seat in range(players):
        camels, huts, hut_prestige = state["camels"][seat], huts_of[seat], dry_prestige[seat]
        income = river_income(river_huts[seat])
        value = state["score"][seat] + pieces[seat] * (1 + later) + state["plows"][seat] \
            + CAMEL * camels + hut_prestige * hut_later \
            + CAMEL * RIVER_LATER * income * later_in_reign \
            + OFFERING_TRACK[state["offering"][seat]] * ziggurats[seat] \
            + HAND_SYMBOL * sum(map(SYMBOLS.__getitem__, state["hands"][seat]))
        if income_pending(state, seat):     # this turn's income and prestige
            share = _fed_share(state, seat, huts, foods) if huts else 1.0
            value += pieces[seat] + share * hut_prestige
            if income:
                value += CAMEL * (min(MAX_CAMELS, camels + round(share * income)) - camels)
            if wells_left and early and len(huts) > 1:
                value += NEAR_WELL * WELL_POINTS[reign] * near_wells(
                    state, seat, huts, sites, sites_at)
        if assur is not None:
            value += _dignitaries_ahead(state, seat, assur)
        out.append(value)
    return out


HEURISTIC = Heuristic(
    values=values, scale=4.0, depth=12,
    weights={"well": 3.0, "end_wells": 1.0, "build": 3.0, "extend": 3.0, "dignitary": 2.0,
             "offering": 1.0, "buy_food": 0.5, "buy_plow": 0.5, "end_actions": 0.3})
