"""The winner ("A győztes"): treasures are wild; the weakest colour counts, then the next."""
from __future__ import annotations

from .cards import COLOURS, FACE, TREASURE


def colour_counts(pile: list[int]) -> dict[str, int]:
    counts = {colour: 0 for colour in COLOURS + (TREASURE,)}
    for card in pile:
        counts[FACE[card]] += 1  # face_of(card), without a call per card
    return counts


def with_treasures(counts: dict[str, int]) -> dict[str, int]:
    """Each treasure goes, one by one, onto the weakest colour (first in COLOURS on a tie)."""
    result = {colour: counts[colour] for colour in COLOURS}
    for _ in range(counts.get(TREASURE, 0)):
        weakest = min(COLOURS, key=lambda colour: result[colour])
        result[weakest] += 1
    return result


def strength_key(counts: dict[str, int]) -> list[int]:
    """Weakest colour first, then second weakest, ...: the bigger list wins."""
    return sorted(counts[colour] for colour in COLOURS)


def final_ranking(piles: list[list[int]]) -> dict:
    finals = [with_treasures(colour_counts(pile)) for pile in piles]
    keys = [strength_key(counts) for counts in finals]
    ranking: list[list[int]] = []
    for seat in sorted(range(len(piles)), key=lambda s: keys[s], reverse=True):
        if ranking and keys[ranking[-1][0]] == keys[seat]:
            ranking[-1].append(seat)
        else:
            ranking.append([seat])
    return {
        "ranking": ranking,
        "scores": {str(seat): keys[seat][0] for seat in range(len(piles))},
        "tiebreak": {str(seat): keys[seat] for seat in range(len(piles))},
        "colours": {str(seat): finals[seat] for seat in range(len(piles))},
        "treasures": {str(seat): colour_counts(piles[seat])[TREASURE]
                      for seat in range(len(piles))},
    }
