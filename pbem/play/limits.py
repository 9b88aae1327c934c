"""One limiter for what a stranger or a hurried player could repeat: fresh links and the home
link on request. Every path that sends one (a player's renew, the host's resend, /me) asks
here, and the pages ask the same before they offer a button.

The rule: at most one fresh link mailed on request per seat (and one home link per address)
per PBEM_RENEW_INTERVAL, counted from the outbox rows that carried them; and a player's own
request never replaces a link younger than the interval (it is the one in their inbox).
Mails per recipient per day and sign-ups per day have their own daily counts (the mailer and
pbem/play/signups.py), in the same database, so several hosts share them.
"""
from __future__ import annotations

import datetime as dt

from flask import current_app

from ..db.database import is_sqlite
from ..db.models import Link, Outbox, db, utcnow
from ..errors import Refusal
from ..games.base import _
from ..log import ending
from . import links


class Refused(Refusal):
    """A request the limiter or the game's state refuses: (status, reason in the reader's
    language)."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason, status)
        self.reason = reason


# PostgreSQL advisory locks (two-key form: its keys never meet the one-key locks elsewhere)
LOCKS = {"home": 0x706D01, "talk": 0x706D02, "away": 0x706D03}


def serialize(what: str, key: str) -> None:
    """Inside a write transaction: wait for any other transaction counting the same `what`
    for the same `key` (an address, a seat) to end, so that check-then-insert counts right
    under PostgreSQL's READ COMMITTED. SQLite's write transactions run one at a time already."""
    if not is_sqlite():
        db.execute_sql("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCKS[what], key))


def interval() -> dt.timedelta:
    return dt.timedelta(seconds=current_app.config["RENEW_INTERVAL"])


def interval_minutes() -> int:
    return max(1, -(-current_app.config["RENEW_INTERVAL"] // 60))


def _mailed_on_request(kind: str, since: dt.datetime, **where) -> bool:
    query = Outbox.select().where(Outbox.kind == kind, Outbox.created_at > since)
    for field, value in where.items():
        query = query.where(getattr(Outbox, field) == value)
    return query.exists()


def fresh_link_refusal(game, seat: int, to_act: list[int], through: Link | None = None):
    """Why a fresh link for `seat` would not be mailed now, as Refused, or None when it would
    (`through`: the link a player asks with; None for the host)."""
    if game.status != "running" or seat not in to_act:
        return Refused(409, _("It is not this seat's turn: there is nothing to do."))
    if seat in ending.resigned(game.ending):
        return Refused(409, _("You resigned from this game: your moves are played for you."))
    since = utcnow() - interval()
    if through is not None:
        latest = links.newest(through.game_id, through.seat)
        if latest is not None and latest.id > through.id and latest.source != "play_now":
            return Refused(410, _("A newer link has been emailed for this seat: use the latest "
                                  "email."))
        # (a newer link opened on the home page was never mailed: any older link may ask)
        if latest is not None and latest.id == through.id and through.spent_at is None \
                and through.created_at > since:     # the live one in their inbox
            return Refused(429, _("A link was emailed a few minutes ago: please look for it in "
                                  "your inbox."))
    if _mailed_on_request("link", since, game=game.id, seat=seat):
        if through is None:
            return Refused(429, _("A link was emailed to this player a few minutes ago: try "
                                  "again in %(minutes)s minutes.") % {"minutes": interval_minutes()})
        return Refused(429, _("A link was emailed a few minutes ago: please look for it in "
                              "your inbox."))
    return None


def home_link_refused(address: str) -> bool:
    """Whether a home link went to `address` within the interval (then /me sends none, and
    answers as it does for every address)."""
    return _mailed_on_request("home", utcnow() - interval(), recipient=address)


def host_link_refusal(game) -> Refused | None:
    """Why the host page's link would not be mailed to the host now (asked from their home
    page), as Refused, or None: at most one per game per interval."""
    if _mailed_on_request("host-link", utcnow() - interval(), game=game.id):
        return Refused(429, _("The link to this host page was emailed a few minutes ago: "
                              "please look for it in your inbox."))
    return None
