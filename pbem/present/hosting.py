"""The host's page of a game: each seat's link and clock, and the game's recent mail."""
from __future__ import annotations

from ..db.models import Game, Link, Outbox, Seat, utcnow
from ..log import store
from ..play import clock, optout, webhooks

MAIL_SHOWN = 100


def host_page(game: Game) -> dict:
    """What the host page shows: seats, their live links and clocks, opt-outs, the mail."""
    rules, state = store.rules_of(game), store.state_of(game)
    seats = list(game.seats.order_by(Seat.index))
    live = {link.seat: link for link in
            Link.select().where(Link.game == game, Link.spent_at.is_null())}
    mail = list(Outbox.select().where(Outbox.game == game).order_by(Outbox.id.desc())
                .limit(MAIL_SHOWN))
    to_act = rules.to_act(state)
    now = utcnow()
    return dict(game=game, seats=seats, live=live, mail=mail, to_act=to_act, now=now,
                opted_out=optout.opted_out(s.email for s in seats),
                clocks=clock.clocks(game, to_act, now), webhook=webhooks.url_of(game))
