"""The mail queue as an operator sees it: what waits, what failed, retrying and pruning."""
from __future__ import annotations

import datetime as dt

import peewee as pw

from ..db.database import write_transaction
from ..db.models import Game, InboundMail, Link, Outbox, ReplyAddress, utcnow
from ..play.keys import keys


def waiting_mail():
    return Outbox.select().where(Outbox.sent_at.is_null(), Outbox.failed_at.is_null())


def failed_mail():
    return Outbox.select().where(Outbox.failed_at.is_null(False), Outbox.sent_at.is_null())


def state_of(row: Outbox) -> str:
    if row.sent_at:
        return "sent"
    return "failed" if row.failed_at else "waiting"


HOST_PAGE_MAIL = 100        # the newest mails of a game its host page lists (web/host.py)
THREAD_ROOTS = ("invite", "host")   # first mails of a game's threads: later mail refers to them
OUTCOME = "over"            # the mails that gave a game's result: what a long-finished game keeps


def prune(older_than_days: int, now: dt.datetime | None = None) -> dict:
    """Delete mail sent more than `older_than_days` ago, except the first mail of each thread
    and, per game, the newest HOST_PAGE_MAIL (what its host page lists) while it runs or
    finished within those days; of a game that finished before them, only the mails of its
    result stay (its turn mails were most of what a finished game kept: a Tigris game sends
    about 110). Then the turn links past their age (their signature has expired: their pages
    answer "expired" whether the row is there or not) with their reply addresses, and the
    replies handled more than `older_than_days` and a link's age ago. One short transaction
    per game. Counts and bytes."""
    now = now or utcnow()
    cutoff = now - dt.timedelta(days=older_than_days)
    old = Outbox.select().where(Outbox.sent_at < cutoff, Outbox.kind.not_in(THREAD_ROOTS))
    games = [g for (g,) in old.select(Outbox.game).distinct().tuples()]
    long_over = {g for (g,) in Game.select(Game.id).where(
        Game.id.in_([g for g in games if g is not None]), Game.status == "over",
        Game.finished_at < cutoff).tuples()} if games else set()
    counts = {"mails": 0, "bytes": 0, "links": 0}
    for game_id in games:
        in_game = Outbox.game.is_null() if game_id is None else Outbox.game == game_id
        doomed = old.where(in_game)
        if game_id in long_over:
            doomed = doomed.where(Outbox.kind != OUTCOME)
        elif game_id is not None:
            listed = (Outbox.select(Outbox.id).where(Outbox.game == game_id)
                      .order_by(Outbox.id.desc()).limit(HOST_PAGE_MAIL))
            doomed = doomed.where(Outbox.id.not_in(listed))
        with write_transaction():
            size = doomed.select(pw.fn.SUM(pw.fn.LENGTH(Outbox.body_text)
                                           + pw.fn.LENGTH(Outbox.body_html))).scalar() or 0
            deleted = Outbox.delete().where(Outbox.id.in_(doomed.select(Outbox.id))).execute()
        counts["mails"] += deleted
        counts["bytes"] += int(size)
    expired = Link.select(Link.id).where(Link.expires_at < now)
    link_age = dt.timedelta(seconds=keys().link_max_age)
    with write_transaction():
        counts["reply_addresses"] = (ReplyAddress.delete()
                                     .where(ReplyAddress.link.in_(expired)).execute())
        counts["links"] = Link.delete().where(Link.expires_at < now).execute()
        # a reply handled is remembered while its reply address can still take it
        counts["replies"] = (InboundMail.delete()
                             .where(InboundMail.received_at < min(cutoff, now - link_age))
                             .execute())
    return counts
