"""A clock with a bank (Fischer with a cap, as Rally the Troops plays it), beside the fixed pace
per decision: each seat starts with a bank of days; a decision spends its real time from it
(vacations, pauses and the player's quiet hours stop it, as they stop a pace); each decision
answered gives back an increment, never above the cap. An empty bank is a missed deadline,
dealt with by the game's timeout policy; the seat then goes on with the increment alone.

The bank is the game's (`Game.bank`: {"days", "increment", "cap"}); what is left is the
seat's (`Seat.bank_left`, in days, between its decisions). A decision's deadline is where the
bank runs out (pbem/play/clock.py). Banks are public: every page shows them; nothing of them
depends on a hand.
"""
from __future__ import annotations

import datetime as dt
import math
import re

from .. import validate

# defaults that suit a month of play: a week in hand, a day back a move, ten days at most
DEFAULT = {"days": 7.0, "increment": 1.0, "cap": 10.0}
MAX_DAYS = 365
SPEC = re.compile(r"^bank(?::(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?(?:/(\d+(?:\.\d+)?))?)?$")


def check(days=None, increment=None, cap=None) -> dict:
    """A bank's settings, defaults filled in; validate.Invalid naming what is wrong."""
    chosen = {"days": DEFAULT["days"] if days is None else days,
              "increment": DEFAULT["increment"] if increment is None else increment,
              "cap": cap}
    for key in ("days", "increment"):
        value = chosen[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                not math.isfinite(value) or not 0 <= value <= MAX_DAYS:
            raise validate.Invalid(f"the bank's {key} is a number of days from 0 to {MAX_DAYS}, "
                                   f"not {value!r}")
        chosen[key] = float(value)
    if chosen["days"] <= 0:
        raise validate.Invalid("a bank starts with more than 0 days")
    if chosen["cap"] is None:
        chosen["cap"] = max(DEFAULT["cap"], chosen["days"])
    cap = chosen["cap"]
    if isinstance(cap, bool) or not isinstance(cap, (int, float)) or not math.isfinite(cap) \
            or not chosen["days"] <= cap <= MAX_DAYS:
        raise validate.Invalid(f"the bank's cap is a number of days from its start "
                               f"({chosen['days']:g}) to {MAX_DAYS}, not {cap!r}")
    chosen["cap"] = float(cap)
    return chosen


def parse(text: str) -> dict:
    """`bank`, `bank:7`, `bank:7+1`, `bank:7+1/10` (days; + the increment; / the cap)."""
    found = SPEC.match((text or "").strip())
    if found is None:
        raise validate.Invalid(f"--clock takes pace or bank[:DAYS[+INCREMENT][/CAP]], "
                               f"not {text[:40]!r}")
    days, increment, cap = (float(x) if x is not None else None for x in found.groups())
    return check(days, increment, cap)


def left_at_start(game, seat) -> dt.timedelta:
    """What the seat's bank holds as a decision starts (the whole bank at its first)."""
    left = seat.bank_left if seat.bank_left is not None else game.bank["days"]
    return dt.timedelta(days=max(left, 0.0))


def after_decision(game, seat, remaining: dt.timedelta) -> None:
    """The decision ended with `remaining` of the bank unspent: keep it, plus the increment,
    never above the cap (not saved here). A decision answered after the bank ran out (its
    timeout played) keeps the increment alone."""
    days = max(remaining.total_seconds(), 0.0) / 86400 + game.bank["increment"]
    seat.bank_left = min(days, game.bank["cap"])

