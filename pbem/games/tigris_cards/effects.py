"""What an action does, by the rulebook, for the confirm bar's second line ("what this does"):
read from the seat's view only, so it tells a player nothing a careful player at the table
would not see. The first line (`presenter.label`) says what the action is."""
from __future__ import annotations

from pbem.present import gettext as _

from .table import kingdom_span, leaders_in
from .views import colour_name, leader_name

KING = "black"            # the king stands in for a colour with no leader of its own


def effect(action: dict, view: dict) -> str:
    """One or two sentences, with `{pN}` for players' names; "" when there is nothing to add."""
    kind = action.get("type")
    if kind == "card" and "column" in action:
        return _card(action, view)
    if kind == "card":
        return _("It joins the two kingdoms. Each colour with a leader on both sides becomes a "
                 "conflict; the card lies face down and counts for nobody until they are over. "
                 "It never scores.")
    if kind == "leader":
        return _leader(action, view)
    if kind == "catastrophe":
        return _("The card and your catastrophe leave the game (you have one per game); the "
                 "cards below move up with their leaders and ships, and a kingdom may split.")
    if kind == "commit":
        return _("Committed cards are discarded whatever happens, but for the one the winner "
                 "puts on their victory pile. A tie goes to the defender.")
    if kind == "score":
        return _("The card goes from your hand onto your victory pile: one point of its colour.")
    if kind == "ship":
        return _("The bottom four cards of the run are discarded and the ship takes their "
                 "place. At the end of each of your turns it lets each of your leaders of its "
                 "colours in its kingdom score a card from your hand.")
    if kind == "conflict":
        return _("This conflict is settled now; the others after it, if they still stand.")
    if kind == "exchange":
        return _("The treasure goes onto your victory pile (at the end it counts for your "
                 "weakest colour); a red card from your hand takes its place.")
    return ""


def _card(action: dict, view: dict) -> str:
    """Who may score the card: the owner of the kingdom's leader of its colour, else the
    king's owner, else nobody; and the ship a run of four may buy."""
    colour = action.get("colour", "")
    leaders = leaders_in(view, kingdom_span(view, action["column"]))
    if colour in leaders:
        said = _("{p%(seat)s}'s %(leader)s rules this kingdom: {p%(seat)s} may score a "
                 "%(colour)s point.", seat=leaders[colour][0], leader=leader_name(colour),
                 colour=colour_name(colour))
    elif KING in leaders:
        said = _("No %(leader)s in this kingdom: {p%(seat)s}'s king may score the %(colour)s "
                 "point.", seat=leaders[KING][0], leader=leader_name(colour),
                 colour=colour_name(colour))
    else:
        said = _("No %(leader)s and no king in this kingdom: nobody scores it.",
                 leader=leader_name(colour))
    if _run_after(view["columns"][action["column"]], colour) >= 4:
        said += " " + _("Four %(colour)s cards in a row: you may buy a ship.",
                        colour=colour_name(colour))
    return said


def _run_after(column: list, colour: str) -> int:
    """How many cards of `colour` stand one below another at the column's foot once one more
    is placed there (the treasure* at the top is never part of a run)."""
    run = 1
    for slot in reversed(column[1:]):
        if slot.get("card") != colour or slot.get("face_down"):
            break
        run += 1
    return run


def _leader(action: dict, view: dict) -> str:
    colour = action["colour"]
    span = kingdom_span(view, action["column"] if "column" in action else action["gap"])
    there = leaders_in(view, span).get(colour)
    if there is not None and there[0] != view.get("seat"):
        return _("{p%(seat)s}'s %(leader)s already rules this kingdom: a revolt (red cards from "
                 "hand; ties go to the defender).", seat=there[0], leader=leader_name(colour))
    said = _("Your %(leader)s will score the %(colour)s cards placed in its kingdom.",
             leader=leader_name(colour), colour=colour_name(colour))
    if colour == KING:
        said += " " + _("The king also scores colours whose leader is missing there.")
    return said
