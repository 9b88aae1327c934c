"""After `pbem restore`: the links mailed after the backup was made are not
known to the restored database, and the moves made since are gone. Every seat to act in every
running game is mailed a fresh link saying so ("this game was restored to <time>; your newest
link is this one"), which also spends the older links the backup knows."""
from __future__ import annotations

import datetime as dt

import peewee as pw

from ..db.models import Event, Game, Heartbeat, Link, Outbox, Seat
from ..log import store
from . import announce, outbox


def restored_to() -> dt.datetime | None:
    """The moment the restored database was last written: its newest event, mail, link or
    mail-worker heartbeat (a worker beats every few seconds), or None for an empty one."""
    times = [Outbox.select(pw.fn.MAX(Outbox.created_at)).scalar(),
             Link.select(pw.fn.MAX(Link.created_at)).scalar(),
             Heartbeat.select(pw.fn.MAX(Heartbeat.beat_at)).scalar()]
    newest_event = Event.select(pw.fn.MAX(Event.created_at)).scalar()
    if newest_event:
        times.append(dt.datetime.fromisoformat(newest_event))
    times = [t if isinstance(t, dt.datetime) else dt.datetime.fromisoformat(str(t))
             for t in times if t]
    return max(times) if times else None


def mail_seats_to_act(when: dt.datetime | None) -> tuple[list[tuple[int, list[str]]], list[str]]:
    """Mail each seat to act in each running game a fresh link with the restore notice, one
    game at a time (a game that fails is named and skipped); ([(game id, names mailed)],
    [one line per game that failed])."""
    mailed, failed = [], []
    stamp = when.isoformat(timespec="seconds") if when is not None else None
    for game_id in [g.id for g in Game.select(Game.id).where(Game.status == "running")
                    .order_by(Game.id)]:
        try:
            with outbox.transaction():
                game = store.locked_game(game_id)
                to_act = store.rules_of(game).to_act(store.state_of(game))
                names = []
                for seat in Seat.select().where(Seat.game == game.id, Seat.index.in_(to_act))\
                        .order_by(Seat.index):
                    announce.turn_mail(game, seat, kind="restored", restored_to=stamp)
                    names.append(seat.name)
            if names:
                mailed.append((game_id, names))
        except Exception as exc:  # noqa: BLE001 - one game never stops the others
            failed.append(f"game {game_id}: {type(exc).__name__}: {str(exc)[:200]}")
    return mailed, failed
