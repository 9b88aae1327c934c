"""What a seat's turn page is read from, as plain values: the web's page cache digests them
into the page's validator (pbem/web/pagecache.py). Everything the page reads that can change
without a move is here: the game's row (its state too: a restore may bring a seq back with
another state), every seat's row, the link's, the table talk's count and newest id, and the
seats' addresses' settings (time zone, quiet hours, mail mode), days away and opt-outs; and
the minute (the clocks say how long a seat has waited)."""
from __future__ import annotations

from peewee import fn

from ..db.models import Message, OptOut, PlayerSettings, Vacation, utcnow
from ..validate import address_key


def marks(game, link, seats) -> list:
    """Four small queries beside the rows the caller has read already."""
    emails = sorted({address_key(s.email) for s in seats if s.email})
    talk = (Message.select(fn.COUNT(Message.id), fn.MAX(Message.id))
            .where(Message.game == game.id).tuples().first())
    by_address = [[row.__data__ for row in model.select().where(model.email.in_(emails))
                   .order_by(model.email)] if emails else []
                  for model in (PlayerSettings, Vacation, OptOut)]
    return [game.__data__, [s.__data__ for s in seats], link.__data__, talk, by_address,
            utcnow().replace(second=0, microsecond=0)]
