"""What an action does, by the rulebook, for the confirm bar's second line ("what this does").
Everything in Assyria lies open but the order of the decks, so it reads the seat's view; the
first line (`presenter.label`) says what the action is."""
from __future__ import annotations

from pbem.present import N_, gettext as _, ngettext

from . import engine as R

HUT_PRESTIGE = {"inside": N_("2 points each turn while it stands (between the rivers)"),
                "outside": N_("1 point each turn while it stands (outside the rivers)")}


def effect(action: dict, view: dict) -> str:
    """One or two sentences; "" when there is nothing to add."""
    kind = action.get("type")
    if kind == "start":
        return _("Your huts spread from here: each new hut goes next to one of your huts or "
                 "ziggurats.")
    if kind == "column":
        return _("The columns' order left to right is the new turn order; the column left over "
                 "may be bought during the actions.")
    if kind == "hut":
        return _hut(action, view)
    if kind == "feed":
        return _("A fed hut stays; a hut left unfed when the feeding ends goes back to stock "
                 "(famine). Unused symbols of a played card are lost.")
    if kind == "build":
        return _("Ziggurats need no food and score 1 point a piece each turn and at the end; "
                 "at each flood your offerings multiply by your ziggurats.")
    if kind == "extend":
        return _("One level per ziggurat a turn: 1 more point each turn and at the end.")
    if kind == "dignitary":
        return _("Influence in Assur at the flood (highest 3, middle 2, lower 1 a hut): the "
                 "most influence scores the expansion cards first.")
    if kind == "offering":
        return _offering(action, view)
    if kind == "buy_food":
        return _("The card goes to your hand for the next feeding (one card a turn from the "
                 "leftover column).")
    if kind == "buy_plow":
        return _("A plow feeds one hut of any food; it is worth 1 point at the end if you "
                 "still hold it.")
    if kind == "end_actions":
        return _("Camels you do not spend carry over to the next turn.")
    return ""


def _hut(action: dict, view: dict) -> str:
    """Income and prestige a hut brings where it stands, as the turn's income step counts."""
    cell = next((c for c in view["board"] if c["hex"] == list(action["hex"])), None)
    region = cell["region"] if cell else ""
    if region in HUT_PRESTIGE:
        return _("It must be fed this turn; it scores %(prestige)s.",
                 prestige=_(HUT_PRESTIGE[region]))
    camels = (R.FIRST_HUT_INCOME if not _own_huts_in(view, region) else R.NEXT_HUT_INCOME)
    return ngettext("It must be fed this turn; on the river it brings %(num)s camel each turn "
                    "but no points, and the flood sweeps it away.",
                    "It must be fed this turn; on the river it brings %(num)s camels each turn "
                    "but no points, and the flood sweeps it away.", camels)


def _own_huts_in(view: dict, region: str) -> int:
    regions = {tuple(c["hex"]): c["region"] for c in view["board"]}
    return sum(1 for h in view["huts"]
               if h["seat"] == view.get("seat") and regions.get(tuple(h["hex"])) == region)


def _offering(action: dict, view: dict) -> str:
    seat = view["seats"][view["seat"]] if view.get("seat") is not None else None
    if seat is None:
        return ""
    after = min(seat["offering"] + action["camels"], len(R.OFFERING_TRACK) - 1)
    ziggurats = sum(1 for z in view["ziggurats"] if z["seat"] == view["seat"])
    return ngettext("At the flood: ×%(times)s for each of your ziggurats (%(num)s now), then "
                    "the track goes back to 0.",
                    "At the flood: ×%(times)s for each of your ziggurats (%(num)s now), then "
                    "the track goes back to 0.", ziggurats, times=R.OFFERING_TRACK[after])
