"""What a host may do: deal with a late seat (more time, its default move once, hand it over
and take it back), pause and resume the game, and get back to its host page (from their home
page, the link of a game they host is mailed to the host's own address, never shown on the
page: a forwarded home link must not open a host page; at most once per game per
PBEM_RENEW_INTERVAL)."""
from __future__ import annotations

import datetime as dt

from flask import current_app
from peewee import fn

from ..db.models import Game, Seat, utcnow
from ..log import store
from . import announce, clock, limits, links, outbox, pace
from ..validate import address_key
from .keys import keys


def reissue_host_link(game: Game, mail: bool) -> str:
    """A new host link for `game` (the old one stops working); queued to the host's address
    when `mail` and the game has one. Returns the link's token."""
    with outbox.transaction():
        token = keys().issue_host(game)
        Game.update(host_nonce_hash=game.host_nonce_hash).where(Game.id == game.id).execute()
        if mail and game.host_email:
            announce.host_link(game, token)
    return token


def hosted_game(address: str, game_id: int) -> Game | None:
    """Game `game_id` when `address` hosts it, else None (the same for a game that does not
    exist)."""
    address = address_key(address)
    if not address:
        return None
    return Game.get_or_none((Game.id == game_id) & (fn.LOWER(Game.host_email) == address))


def mail_host_link(address: str, game_id: int) -> Game | None:
    """Mail the host page's live link to the host (`address`, who hosts `game_id`); None when
    they do not host it; limits.Refused within the interval."""
    with outbox.transaction():
        if hosted_game(address, game_id) is None:
            return None
        game = store.locked_game(game_id)       # one mail for parallel requests
        refusal = limits.host_link_refusal(game)
        if refusal is not None:
            raise refusal
        announce.host_link(game, kind="host-link")
    return game


# -- a late seat, a pause ---------------------------------------------------------------------

def _host_change(game_id: int, change, now: dt.datetime | None = None):
    now = now or utcnow()
    with outbox.transaction():
        game = store.locked_game(game_id)
        if game.status != "running":
            raise pace.PaceError("the game is over")
        return change(game, now)


class TooEarly(pace.PaceError):
    """A default move or a hand-over asked of the host before the seat's deadline passed (or,
    in a game without a pace, before it waited PBEM_HOST_WAIT_DAYS): `name` waits until
    `when`; `paced` says which rule applies."""

    def __init__(self, name: str, when: dt.datetime | None, paced: bool,
                 held: str | None = None):
        super().__init__(f"{name}'s clock stands still ({held})" if held else
                         f"{name}'s {'deadline' if paced else 'wait'} has not passed: "
                         f"this can be done from {clock.iso(when)}")
        self.name, self.when, self.paced, self.held = name, when, paced, held


def host_wait_days() -> float:
    return float(current_app.config["HOST_WAIT_DAYS"])


def _late_seat(game: Game, seat_index: int) -> Seat:
    rules = store.rules_of(game)
    seat = Seat.get_or_none(Seat.game == game, Seat.index == seat_index)
    if seat is None or seat_index not in rules.to_act(rules.load(game.state)):
        raise pace.PaceError("that seat is not asked anything now")
    return seat


def host_may_act_from(game: Game, seat: Seat, now: dt.datetime) -> dt.datetime | None:
    """From when the host may play the seat's default move or hand it over: its deadline in
    force (later by every hold), or in a game without a pace PBEM_HOST_WAIT_DAYS after it was
    asked; None while its clock stands still (a vacation, a pause) or it is not asked. A seat
    already reported late may be dealt with at once."""
    if seat.asked_at is None:
        return None
    if seat.late_at is not None:
        return seat.late_at
    if game.pace_days is None:
        return seat.asked_at + dt.timedelta(days=host_wait_days())
    in_force = clock.clock_of(game, seat, now)
    if in_force is None or in_force.held is not None or in_force.deadline is None:
        return None
    return in_force.deadline


def _check_host_may_act(game: Game, seat: Seat, now: dt.datetime) -> None:
    """Default moves and hand-overs only for a seat whose deadline passed (or, without a
    pace, that waited PBEM_HOST_WAIT_DAYS), else TooEarly: nothing is written."""
    since = host_may_act_from(game, seat, now)
    if since is None:
        in_force = clock.clock_of(game, seat, now)
        raise TooEarly(seat.name, in_force.away_until if in_force else None,
                       game.pace_days is not None, in_force.held if in_force else "paused")
    if since > now:
        raise TooEarly(seat.name, since, game.pace_days is not None)


def extend(game_id: int, seat_index: int, now: dt.datetime | None = None) -> dt.datetime:
    """Give a late seat one more pace from now (a new reminder, and a new notice if missed);
    its player is mailed the new deadline. Returns that deadline."""
    def change(game, now):
        seat = _late_seat(game, seat_index)
        step = clock.pace_delta(game)
        if step is None or seat.deadline is None:
            raise pace.PaceError("this game has no deadlines")
        seat.deadline = max(seat.deadline, now) + step
        seat.remind_at = seat.deadline - step * (1 - clock.REMIND_AT)
        seat.reminded_at = seat.late_at = None
        seat.save()
        in_force = clock.clock_of(game, seat, now)
        deadline = in_force.deadline if in_force and in_force.deadline else seat.deadline
        announce.more_time(game, seat, deadline)
        return deadline
    return _host_change(game_id, change, now)


def play_default_once(game_id: int, seat_index: int, now: dt.datetime | None = None) -> None:
    """The host plays the late seat's default move, once (logged as played by the host)."""
    def change(game, now):
        seat = _late_seat(game, seat_index)
        _check_host_may_act(game, seat, now)
        if not pace.play_seat_default(game, seat, now, why="host"):
            raise pace.PaceError("this game offers no default move here")
    _host_change(game_id, change, now)


def hand_over(game_id: int, seat_index: int, now: dt.datetime | None = None) -> None:
    """The late seat's default moves are played for it from now on, until its player acts
    again or the host undoes it (`undo_hand_over`); its player is told at once."""
    def change(game, now):
        seat = _late_seat(game, seat_index)
        _check_host_may_act(game, seat, now)
        seat.dropped, seat.handed_over, seat.late_at = True, True, None
        seat.save()
        announce.dropped(game, seat, seat.missed, by_host=True)
        pace.settle(game, now)
    _host_change(game_id, change, now)


def undo_hand_over(game_id: int, seat_index: int, now: dt.datetime | None = None) -> None:
    """The host takes back a hand-over: the seat's player plays their own moves again. When it
    is asked something now, its clock starts afresh and it is mailed its turn."""
    def change(game, now):
        seat = Seat.get_or_none(Seat.game == game, Seat.index == seat_index)
        if seat is None or not (seat.dropped and seat.handed_over):
            raise pace.PaceError("that seat was not handed over")
        seat.dropped, seat.handed_over, seat.missed = False, False, 0
        seat.save()
        rules = store.rules_of(game)
        if seat.index in rules.to_act(rules.load(game.state)):
            clock.start(game, seat, now)
            announce.turn_mail(game, seat)
        else:
            announce.given_back(game, seat)
    _host_change(game_id, change, now)


def pause(game_id: int, now: dt.datetime | None = None) -> bool:
    """Stop every clock of the game; False when it was paused already."""
    return _host_change(game_id, clock.pause, now)


def resume(game_id: int, now: dt.datetime | None = None) -> bool:
    """Let the clocks run again, each deadline later by the time the game stood still."""
    def change(game, now):
        if game.paused_at is None:
            return False
        game.paused_at, game.resumed_at = None, now
        game.pace_error, game.pace_error_seq = "", None      # the host asks for another try
        game.save()
        if clock.nobody_plays(list(game.seats)):     # paused as nobody played: all back,
            Seat.update(dropped=False, handed_over=False, missed=0, default_turn=None).where(
                Seat.game == game).execute()
            for seat in game.seats.where(Seat.asked_at.is_null(False)):
                clock.start(game, seat, now)                # with a whole pace from now
        for seat in game.seats.where(Seat.asked_at.is_null(False)):
            clock.sync_hold(game, seat, clock.vacation_of(seat.email), now)
            if seat.bot_level is None and not seat.dropped and not links.has_live(game, seat):
                announce.turn_mail(game, seat, now=now)     # its last link was spent for it
        pace.settle(game, now)
        return True
    return _host_change(game_id, change, now)
