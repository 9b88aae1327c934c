"""The computer players' pass: every seat the computer plays that is asked a decision now thinks
and plays it, like a player, through `moves.act`.

`run_pass(now)` is what `pbem bots` runs once and every loop of `pbem mail worker` and
`pbem dev` runs beside the pace pass. A decision is thought out with no transaction open and no
lock held (`rules.view(state, seat)` into `pbem.bots.choose`, the seat's view and nothing
more), then played with the seq it was thought at: if the game moved meanwhile (another
process played that decision, the player came back), `act` refuses it as stale and the result
is dropped. So several workers and hosts at once never play a seat twice. One game's failure
is that game's alone: it is recorded as the pace pass records its failures (pace_error, with
the move it happened at: /health and `pbem check` name it) and skipped until it moves.

The computer plays a seat (`clock.computer_level`): a computer's own seat; a player's whose
missed deadline it answers in a game played `--on-timeout bot` (and, after `--drop-after`
misses, every decision until the player is back); a player's who handed their seats to it
for a vacation (`pbem players away EMAIL DAYS --bot`). It keeps people company and never plays
a game alone: while no person plays in it (every other seat the computer's own, dropped, or
away with --bot), it stands in for nobody, and the game waits for the first person back (the
dropped player's turn link works: acting through it brings them back).
"""
from __future__ import annotations

import datetime as dt
import logging
import random
import time
from dataclasses import dataclass

from flask import current_app
from peewee import fn

from .. import bots
from ..db.database import database_now, lost_connection
from ..db.models import Game, Seat, Vacation
from ..log import store
from . import clock, moves, pace

log = logging.getLogger(__name__)

MAX_ROUNDS = 200        # decisions in a row one pass plays in a game (then the next pass goes on)


@dataclass(frozen=True)
class Decision:
    """A decision the computer is to take: the game, the move it was asked at, the seat."""

    game_id: int
    seq: int
    seat: int
    level: int


def run_pass(now: dt.datetime | None = None, *, seconds: float | None = None,
             iterations: int | None = None) -> dict:
    """Play every decision the computer is asked now, round after round until none is left
    (or MAX_ROUNDS); counts of "moves" played, "stale" results dropped, games "failed"."""
    counts = {"moves": 0, "stale": 0, "failed": 0}
    failed: set[int] = set()
    for _round in range(MAX_ROUNDS):
        waiting = [d for d in decisions(now) if d.game_id not in failed]
        if not waiting:
            break
        played = 0
        for decision in waiting:
            try:
                outcome = play(decision, seconds, iterations)
                if outcome is not None:
                    counts["moves" if outcome else "stale"] += 1
                    played += outcome
            except Exception as exc:  # noqa: BLE001 - one game's failure is that game's alone
                if lost_connection(exc):
                    raise                   # the database went away: the whole pass fails
                log.exception("computers: game %s could not be played", decision.game_id)
                pace._record_failure(decision.game_id, exc)
                failed.add(decision.game_id)
                counts["failed"] += 1
        if not played:
            break                           # only stale results: the others move on
    return counts


def decisions(now: dt.datetime | None = None) -> list[Decision]:
    """The decisions the computer is asked now, one per seat, in game and seat order (whether
    the seat is still to act at that move, `play` sees); `now`: the database's clock unless
    given."""
    now = now or database_now()
    found = []
    for seat in _candidate_seats(now):
        level = clock.computer_level(seat.game, seat, clock.vacation_of(seat.email), now)
        if level is None:
            continue
        if _stands_in_for_long(seat) and not someone_plays(seat.game, now):
            continue                # nobody to keep company: the game waits for a person
        found.append(Decision(seat.game.id, seat.game.seq, seat.index, level))
    return found


def _stands_in_for_long(seat: Seat) -> bool:
    """The computer plays a person's seat beyond the one decision whose deadline they missed:
    dropped in a game played --on-timeout bot, or away with --bot."""
    return seat.bot_level is None and not seat.stand_in


def someone_plays(game: Game, now: dt.datetime) -> bool:
    """Whether a person plays in the game now: a seat that is not the computer's own, not
    dropped and not handed to the computer for a vacation. Without one the computer does not
    stand in (a game of computers alone could go round for ever: in the card game two of them
    can place leaders and commit nothing turn after turn, and no card leaves a hand)."""
    return any(seat.bot_level is None and not seat.dropped
               and not clock.away_with_bot(clock.vacation_of(seat.email), now)
               for seat in game.seats)


def _candidate_seats(now: dt.datetime) -> list[Seat]:
    """Seats asked now that the computer may play: a computer's, a stand-in's, a dropped seat
    in a game where the computer plays for the dropped, or a player's away with --bot."""
    away = [row.email for row in Vacation.select(Vacation.email).where(
        Vacation.bot == True, Vacation.away_from <= now, Vacation.away_until > now)]  # noqa: E712
    played = (Seat.bot_level.is_null(False) | (Seat.stand_in == True) |  # noqa: E712
              ((Seat.dropped == True) & (Game.on_timeout == "bot")))  # noqa: E712
    if away:
        played |= fn.LOWER(Seat.email).in_(away)
    query = (Seat.select(Seat, Game).join(Game)
             .where(Game.status == "running", Game.paused_at.is_null(),
                    Game.pace_error_seq.is_null() | (Game.pace_error_seq != Game.seq),
                    Seat.asked_at.is_null(False), played)
             .order_by(Game.id, Seat.index))
    return list(query)


def play(decision: Decision, seconds: float | None = None,
         iterations: int | None = None) -> bool | None:
    """Think (no transaction, no lock), then play at the seq the decision was taken at;
    False when the game moved meanwhile (the result is dropped), None when the seat is not
    asked anything at that move."""
    game = store.get_game(decision.game_id)
    if game.seq != decision.seq:
        return False
    rules = store.rules_of(game)
    if decision.seat not in rules.to_act(rules.load(game.state)):
        return None
    action = think(game, decision.seat, decision.level, seconds, iterations)
    try:
        moves.act(game.id, decision.seat, action, decision.seq, bot=True)
    except store.StaleSeq:
        return False
    return True


def think(game: Game, seat: int, level: int, seconds: float | None = None,
          iterations: int | None = None) -> dict:
    """The computer's choice for `seat` from what that seat sees (its view), within the
    budget: PBEM_BOT_SECONDS caps the level's time; PBEM_BOT_ITERATIONS (0: none) caps the
    iterations of every decision. Without an iteration cap every decision takes its whole
    time, whatever the position (a cap, for tests, lets the time follow the position)."""
    started = time.monotonic()
    rules = store.rules_of(game)
    state = rules.load(game.state)
    actions = rules.legal_actions(state, seat)
    seconds, iterations = budget(level, seconds, iterations)
    action = bots.choose(rules, rules.view(state, seat), seat, actions, level=level,
                         seconds=seconds, iterations=iterations, rng=random.Random())
    if iterations is None:
        # a decision bound by time takes all of it: the search stops early on a forced move
        # or a clear best one, and both follow from the seat's hidden holdings (a defender
        # with no higher card), which the moment its move lands must not tell the others
        left = seconds - (time.monotonic() - started)
        if left > 0:
            time.sleep(left)
    return action


def budget(level: int, seconds: float | None = None,
           iterations: int | None = None) -> tuple[float, int | None]:
    """(seconds, iterations) of one decision: the level's time, capped by the setting."""
    config = current_app.config
    cap = float(config["BOT_SECONDS"])
    seconds = min(bots.LEVELS[level].seconds if seconds is None else seconds, cap)
    if iterations is None:
        iterations = int(config["BOT_ITERATIONS"]) or None
    return seconds, iterations
