"""The end of a game in words and a chart: the ranking, each player's score and its parts.

Engines put their details in `result` (points by colour, treasures, final points...); this
module turns any of them into rows a template can show and bars a small SVG chart can draw.
"""
from __future__ import annotations

from . import gettext as _

COLOURS = {"red": "#c0392b", "blue": "#2463a6", "green": "#2e8b3d", "black": "#3a3a3a",
           "treasure": "#c9a227"}
HIDDEN_KEYS = ("ranking", "scores", "tiebreak", "end", "end_reason", "ended", "resigned")
CHART_WIDTH, LABEL_WIDTH, ROW, BAR = 320, 92, 15, 12


def label(key) -> str:
    """A result field or colour in the page's language."""
    labels = {
        "points": _("Points by colour"), "colours": _("Colours (treasures added)"),
        "colors_weakest_first": _("Colours, weakest first"), "treasures": _("Treasures"),
        "final_points": _("Points at the end"), "ziggurat_pieces": _("ziggurat pieces"),
        "plow": _("plow"), "camel_pairs": _("camel pairs"),
        "red": _("red"), "blue": _("blue"), "green": _("green"), "black": _("black"),
        "treasure": _("treasure"),
    }
    # any other game's own words, from its catalogue when it ships one ("gold_coins": "gold coins")
    return labels.get(key) or _(str(key).replace("_", " "))


def _text(value) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{label(k)} {_text(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return " · ".join(_text(v) for v in value)
    return str(value)


def _per_seat(result: dict, key: str, seat: int):
    value = result.get(key)
    if isinstance(value, dict):
        return value.get(str(seat), value.get(seat))
    if isinstance(value, list) and seat < len(value):
        return value[seat]
    return None


def summary(result: dict | None, names: list[str], presenter=None) -> dict | None:
    """{"rows": [{rank, seat, name, score, details: [(label, text)], bars: [...]}],
    "chart": {...}, "ending": {"why", "how"} | None} for a finished game's result (`presenter`:
    the game's, which says why it ended and how it is scored); None while the game runs."""
    if not result:
        return None
    rank_of = _places(result.get("ranking"))
    keys = [k for k in result if k not in HIDDEN_KEYS]
    rows = []
    for seat, name in enumerate(names):
        details = [(label(k), _text(v)) for k in keys
                   if (v := _per_seat(result, k, seat)) is not None]
        if seat in (result.get("resigned") or []):
            details.insert(0, (_("Resigned"), _("yes")))
        rows.append({"seat": seat, "name": name, "rank": rank_of.get(seat),
                     "score": _per_seat(result, "scores", seat), "details": details,
                     "bars": _bars(result, seat)})
    rows.sort(key=lambda r: (r["rank"] or 99, r["seat"]))
    top = max((b["value"] for r in rows for b in r["bars"]), default=0)
    ending = _table_ending(result, names) or (
        presenter.ending(result) if presenter is not None else None)
    return {"rows": rows, "chart": _chart(rows), "top": top, "ending": ending}


def _table_ending(result: dict, names: list[str]) -> dict | None:
    """Why a game its players ended together ended, and how it is ranked (log/ending.py)."""
    resigned = ", ".join(names[s] for s in result.get("resigned") or [] if 0 <= s < len(names))
    if result.get("ended") == "abandoned":
        return {"why": _("The players agreed to abandon the game."),
                "how": _("A game its players abandon has no winner.")}
    if result.get("ended") == "resigned":
        return {"why": _("Resigned: %(names)s.", names=resigned),
                "how": _("The players who had not resigned share first place; those who "
                         "resigned follow, the last to resign first.")}
    return None


def _places(ranking) -> dict[int, int]:
    """Each seat's place, 1 the best, from a ranking [[seat, ...], ...] (a tie shares one)."""
    places: dict[int, int] = {}
    for place, tie in enumerate(ranking if isinstance(ranking, (list, tuple)) else []):
        for seat in tie if isinstance(tie, (list, tuple)) else [tie]:
            if isinstance(seat, int):
                places.setdefault(seat, place + 1)
    return places


def _bars(result: dict, seat: int) -> list[dict]:
    """Bars for the chart: points by colour where the game has colours, else the score."""
    for key in ("points", "colours"):
        counts = _per_seat(result, key, seat)
        if isinstance(counts, dict) and all(isinstance(v, (int, float)) for v in counts.values()):
            return [{"label": label(c), "value": v, "fill": COLOURS.get(c, "#888888")}
                    for c, v in counts.items()]
    score = _per_seat(result, "scores", seat)
    if isinstance(score, (int, float)):
        return [{"label": _("score"), "value": score, "fill": "#1b5e8c"}]
    return []


def _chart(rows: list[dict]) -> dict | None:
    """Horizontal bars per player, scaled to the largest value, as SVG coordinates."""
    top = max((b["value"] for r in rows for b in r["bars"]), default=0)
    if top <= 0:
        return None
    span = CHART_WIDTH - LABEL_WIDTH - 30
    y, groups = 6, []
    for row in rows:
        bars = []
        for bar in row["bars"]:
            width = max(1.0, span * bar["value"] / top)
            bars.append({**bar, "x": LABEL_WIDTH, "y": y, "w": round(width, 1), "h": BAR,
                         "tx": round(LABEL_WIDTH + width + 4, 1), "ty": y + BAR - 2})
            y += ROW
        groups.append({"name": row["name"], "y": bars[0]["y"] if bars else y,
                       "bars": bars, "mid": (bars[0]["y"] + bars[-1]["y"] + BAR) / 2 + 4
                       if bars else y})
        y += 10
    return {"width": CHART_WIDTH, "height": y, "groups": groups}
