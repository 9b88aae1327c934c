"""The host's page of a game: each seat's link, clock and state, and the game's recent mail;
and the games an address hosts, with what needs their host, for the home page."""
from __future__ import annotations

import datetime as dt

from peewee import fn

from ..db.models import Game, Link, Outbox, Seat, utcnow
from ..log import store
from ..play import clock, optout, webhooks
from ..play import hosting as host_actions
from ..validate import address_key
from . import reliability

MAIL_SHOWN = 100


def seat_states(game: Game, seats: list[Seat], to_act: list[int], opted_out: set[str],
                now: dt.datetime) -> dict[int, list[dict]]:
    """{seat: [state, ...]}: each a dict with "what" (late, dropped, handed_over, away,
    opted_out) and what the page says with it (a time, a count)."""
    states: dict[int, list[dict]] = {seat.index: [] for seat in seats}
    for seat in seats:
        found = states[seat.index]
        if seat.index in to_act and seat.late_at is not None and game.status == "running":
            found.append({"what": "late"})
        if seat.dropped and seat.handed_over:
            found.append({"what": "handed_over"})
        elif seat.dropped:
            found.append({"what": "dropped", "missed": seat.missed})
        vacation = clock.vacation_of(seat.email)
        if clock.is_away(vacation, now):
            found.append({"what": "away", "until": vacation.away_until})
        if seat.email in opted_out:
            found.append({"what": "opted_out"})
    return states


def host_choices(game: Game, seats: list[Seat], to_act: list[int],
                 now: dt.datetime) -> dict[int, dict]:
    """{seat: {"more_time", "default", "from"}} for the seats to act: whether the host may give
    more time (a game with a pace, a late seat) or play its default / hand it over (its
    deadline passed, or without a pace PBEM_HOST_WAIT_DAYS of waiting), else from when."""
    choices = {}
    if game.status != "running":
        return choices
    for seat in seats:
        if seat.index not in to_act or seat.asked_at is None or seat.dropped:
            continue
        since = host_actions.host_may_act_from(game, seat, now)
        choices[seat.index] = {
            "more_time": game.pace_days is not None and seat.late_at is not None,
            "default": since is not None and since <= now,
            "from": since if since is not None and since > now else None}
    return choices


def host_page(game: Game) -> dict:
    """What the host page shows: seats, their live links, clocks and states, the mail."""
    rules, state = store.rules_of(game), store.state_of(game)
    seats = list(game.seats.order_by(Seat.index))
    live = {link.seat: link for link in
            Link.select().where(Link.game == game, Link.spent_at.is_null())}
    mail = list(Outbox.select().where(Outbox.game == game).order_by(Outbox.id.desc())
                .limit(MAIL_SHOWN))
    to_act = rules.to_act(state)
    now = utcnow()
    opted_out = optout.opted_out(s.email for s in seats)
    return dict(game=game, seats=seats, live=live, mail=mail, to_act=to_act, now=now,
                opted_out=opted_out, clocks=clock.clocks(game, to_act, now),
                states=seat_states(game, seats, to_act, opted_out, now),
                choices=host_choices(game, seats, to_act, now),
                wait_days=host_actions.host_wait_days(), webhook=webhooks.url_of(game),
                answers=_answers(seats))


def _answers(seats: list[Seat]) -> dict:
    """seat index -> how reliably its player answers (the computer's seats: none)."""
    found = reliability.answers_of(s.email for s in seats if s.bot_level is None)
    return {s.index: found[address_key(s.email)] for s in seats
            if s.bot_level is None and address_key(s.email) in found}


def hosted_by(address: str) -> list[dict]:
    """The games `address` hosts, running first and newest first, each with what needs its
    host: late seats (the host chooses), dropped or handed-over seats, a pause, failed mail."""
    address = address_key(address)
    if not address:
        return []
    games = list(Game.select().where(fn.LOWER(Game.host_email) == address)
                 .order_by(Game.status.desc(), Game.id.desc()))
    entries = []
    for game in games:
        seats = list(game.seats.order_by(Seat.index))
        running = game.status == "running"
        to_act = store.rules_of(game).to_act(store.state_of(game)) if running else []
        entries.append({
            "game": game, "running": running, "names": [s.name for s in seats],
            "late": [s.name for s in seats if running and s.index in to_act
                     and s.late_at is not None and not s.dropped],
            "dropped": [s.name for s in seats if running and s.dropped],
            "paused": running and game.paused_at is not None,
            "failed": Outbox.select().where(Outbox.game == game,
                                            Outbox.failed_at.is_null(False)).count()})
    entries.sort(key=lambda e: not e["running"])
    return entries
