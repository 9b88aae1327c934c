"""Moving: every way a move is made (the turn form, the API, a default at a deadline, and the
computer players and mail replies that build on it) goes through `act` or `play_default`.

One transaction each: lock the game, check the expected seq and the link, check the action
against the legal ones, append it and the forced moves after it to the log, save the
snapshot, start and stop the clocks, spend and issue links, queue the mails.
"""
from __future__ import annotations

import logging
from contextlib import contextmanager


from ..db.models import Game, Link, Seat, utcnow
from ..games import IllegalAction
from ..games.base import _, default_move
from ..log import chain, ending, store, undo as undoing
from ..log.store import Applied, StaleSeq
from . import announce, clock, links, outbox

log = logging.getLogger(__name__)


def dropped_seats(game: Game, seats: list[Seat] | None = None) -> dict[int, str]:
    """The seats whose default moves are played as soon as they are asked (none while the
    game is paused, nor where the computer plays for dropped seats, nor when every seat is
    dropped: nobody plays, and the game pauses), each with why, as its log line says:
    "handover" (the host handed it over), "absent" (its player missed too many deadlines) or
    "resigned" (its player resigned: pbem/log/ending.py); `seats`: the game's seats, when the
    caller read them already."""
    if game.paused_at is not None or game.on_timeout == "bot":
        return {}
    if seats is None:
        seats = list(Seat.select(Seat.index, Seat.handed_over, Seat.dropped)
                     .where(Seat.game == game))
    if clock.nobody_plays(seats):
        return {}
    return {s.index: why_dropped(game, s) for s in seats if s.dropped}


def why_dropped(game: Game, seat: Seat) -> str:
    """Why a dropped seat's defaults are played, as its log line says (chain.TIMEOUT_MARKS)."""
    if seat.index in ending.resigned(game.ending):
        return "resigned"
    return "handover" if seat.handed_over else "absent"


def pause_if_nobody_plays(game: Game, seats: list[Seat], now) -> bool:
    """When every seat is dropped (`clock.nobody_plays`), however the last drop came — a
    deadline missed inside a move, a hand-over, a pace pass — the game pauses and its host is
    told, once; `hosting.resume` brings the players back. True when the game stands paused so."""
    if game.status != "running" or not clock.nobody_plays(seats):
        return False
    if clock.pause(game, now):
        log.info("game %s paused: every seat is dropped", game.id)
        announce.host_notice(game, seats[0], "nobody")
    return True


def act(game_id: int, seat: int, action, expected_seq, link_id: int | None = None,
        bot: bool = False) -> Applied:
    """Apply `action` by `seat` if the game is still at `expected_seq` (and, given `link_id`,
    the link it came through is live); one transaction. `bot`: the computer chose it (for a
    seat the computer still plays now, else StaleSeq: the result is dropped)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("an action is a JSON object with a \"type\"")
    with _locked_at(game_id, expected_seq, link_id, "this action was made") as \
            (game, rules, state, before):
        if seat not in before:
            raise IllegalAction(_("it is not your turn to act"))
        if not bot and seat in ending.resigned(game.ending):
            raise IllegalAction(_("you have resigned from this game"))
        action = chain.listed_action(rules, state, seat, action)
        seats = store.seats_of(game)         # read once, under the lock, for all that follows
        store.reads(game, seats)
        if bot:
            _computer_still_plays(game, seats[seat])
        else:
            _acted_in_person(seats[seat])
        by = store.By.computer(stand_in=not seats[seat].bot_level) if bot else store.PLAYER
        defaulting = missed_turns(seats)
        defaulting.pop(seat, None)           # asked after all (no safe default): it answers
        state, events, restart = store.append(game, rules, state, seat, action,
                                              dropped_seats(game, seats), defaulting, by)
        keep_missed_turns(seats, defaulting)
        if seats[seat].stand_in and seat not in rules.to_act(state):
            _stand_in_done(seats[seat])      # the missed decision is answered
        _after(game, rules, state, before, restart, seats=seats)
    return Applied(game, state, events)


def undo(game_id: int, seat: int, expected_seq, link_id: int | None = None) -> Applied:
    """Take back `seat`'s last action (pbem/log/undo.py says while it may: UndoRefused with the
    reason when not) if the game is still at `expected_seq` and, given `link_id`, the link is
    live; one transaction, as `act`. Nobody is mailed: the seat is still the one to act."""
    with _locked_at(game_id, expected_seq, link_id, "this undo was asked") as \
            (game, rules, state, before):
        if not undoing.may_undo(rules, game.undo, state, seat):
            raise undoing.UndoRefused(undoing.why_not_undo(rules, game.undo, state, seat))
        seats = store.seats_of(game)
        store.reads(game, seats)
        _acted_in_person(seats[seat])
        state, events = store.take_back(game, rules, state, seat)
        _after(game, rules, state, before, set(), seats=seats)
    return Applied(game, state, events)


def play_default(game: Game, seat: int, now=None, absent: bool = False,
                 why: str | None = None) -> Applied | None:
    """Play `seat`'s default move as a timeout event (the caller holds the game's write lock,
    e.g. the pace pass); None when the engine offers no safe default. `absent`: played for a
    seat whose moves are played by default (dropped, or handed over), not at its deadline.
    A default plays the whole decision: the seat's defaults go on being played, unasked,
    until the turn it missed is over (store.advance), so it costs one miss and one notice.
    `why`: what its log line says (chain.TIMEOUT_MARKS: deadline, absent, host, handover)."""
    rules = store.rules_of(game)
    state = rules.load(game.state)
    before = rules.to_act(state)
    action = default_move(rules, state, seat)
    if action is None:
        return None
    seats = store.seats_of(game)
    store.reads(game, seats)
    defaulting = missed_turns(seats)
    state, events, restart = store.append(game, rules, state, seat, action,
                                          dropped_seats(game, seats), defaulting,
                                          store.By.default(why, absent))
    keep_missed_turns(seats, defaulting)
    _after(game, rules, state, before, restart, now, seats=seats)
    return Applied(game, state, events)


@contextmanager
def _locked_at(game_id: int, expected_seq, link_id: int | None, asked: str):
    """The prologue of `act` and `undo`: one write transaction with the game locked, if it is
    still at `expected_seq` (StaleSeq saying the game's move and what was `asked` at which)
    and, given `link_id`, the link is live; yields (game, rules, state, the seats to act)."""
    if not isinstance(expected_seq, int) or isinstance(expected_seq, bool):
        raise ValueError("seq must be an integer")
    with outbox.transaction():
        game = store.locked_game(game_id)
        if game.seq != expected_seq:
            raise StaleSeq(f"already played: the game is at move {game.seq}, "
                           f"{asked} at move {expected_seq}")
        if link_id is not None:
            _check_link_live(link_id)
        rules = store.rules_of(game)
        state = rules.load(game.state)
        yield game, rules, state, rules.to_act(state)


def _after(game, rules, state, before, restart, now=None, seats=None) -> None:
    store.save(game, rules, state)
    seats = store.seats_of(game) if seats is None else seats
    clock.after_change(game, rules.to_act(state), before, restart, now or utcnow(), seats)
    pause_if_nobody_plays(game, seats, now or utcnow())
    announce.after_change(game, rules, state, before=before, seats=seats, at=now)


def missed_turns(seats: list[Seat]) -> dict:
    """{seat: turn} of the seats whose missed turn goes on (their defaults are played)."""
    return {s.index: s.default_turn for s in seats if s.default_turn is not None}


def keep_missed_turns(seats: list[Seat], defaulting: dict) -> None:
    """Write back which seats still miss their turn, after store.append updated `defaulting`."""
    for seat in seats:
        turn = defaulting.get(seat.index)
        if turn != seat.default_turn:
            Seat.update(default_turn=turn).where(Seat.id == seat.id).execute()
            seat.default_turn = turn


def _acted_in_person(seat: Seat) -> None:
    """A player acting for themselves is back: their missed deadlines are forgiven and a
    dropped seat plays for itself again (and the computer standing in stops)."""
    if seat.missed or seat.dropped or seat.stand_in:
        Seat.update(missed=0, dropped=False, handed_over=False, stand_in=False) \
            .where(Seat.id == seat.id).execute()
        seat.missed, seat.dropped, seat.handed_over, seat.stand_in = 0, False, False, False


def _computer_still_plays(game: Game, seat: Seat) -> None:
    """The computer thought outside the lock: if its seat's player is back meanwhile (or the
    game was paused), its result is dropped."""
    if clock.computer_level(game, seat, clock.vacation_of(seat.email), utcnow()) is None:
        raise StaleSeq("the computer no longer plays this seat")


def _stand_in_done(seat: Seat) -> None:
    Seat.update(stand_in=False).where(Seat.id == seat.id).execute()
    seat.stand_in = False


def _check_link_live(link_id: int) -> None:
    link = Link.get_by_id(link_id)
    if link.spent_at is not None:
        raise links.LinkError(410, link.spent_reason or "spent",
                              links.SPENT_MESSAGES.get(link.spent_reason, "This link is spent."),
                              link=link, game_id=link.game_id, seat=link.seat)
