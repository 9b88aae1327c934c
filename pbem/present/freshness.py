"""What a seat's turn page is read from, as plain values: the web's page cache digests them
into the page's validator (pbem/web/pagecache.py). Everything the page reads that can change
without a move is here: the game's row (its state named by its seq and head hash: a restore
that brings a seq back with another history brings another hash), every seat's row, the
link's, the table talk's count and newest id, and the seats' addresses' settings (time zone,
quiet hours, mail mode), days away and opt-outs; and the minute (the clocks say how long a
seat has waited)."""
from __future__ import annotations

from peewee import fn

from ..db.models import Message, OptOut, PlayerSettings, Vacation, utcnow
from ..db.prepared import Prepared
from ..validate import address_key

TALK = Prepared(Message, lambda game_id: Message.select(
    fn.COUNT(Message.id).alias("said"), fn.MAX(Message.id).alias("newest"))
    .where(Message.game == game_id))
ADDRESS_MODELS = (PlayerSettings, Vacation, OptOut)
_by_address: dict[tuple, Prepared] = {}


def rows_of(model, emails: list[str]) -> list[tuple]:
    """The model's rows of these addresses, as the database gives them (one prepared query
    for each count of them)."""
    key = (model, len(emails))
    prepared = _by_address.get(key)
    if prepared is None:
        prepared = _by_address[key] = Prepared(
            model, lambda *marks: model.select().where(model.email.in_(list(marks)))
            .order_by(model.email), arity=len(emails))
    return prepared.tuples(*emails)


def marks(game, link, seats) -> list:
    """Four small queries, each prepared, beside the rows the caller has read already. The
    game's state is named by its seq and head hash (the hash of the chain that made it: a
    restore that brings the seq back with another history brings another hash), not by its
    tens of kilobytes."""
    emails = sorted({address_key(s.email) for s in seats if s.email})
    talk = TALK.tuples(game.id)[0]
    by_address = [rows_of(model, emails) if emails else [] for model in ADDRESS_MODELS]
    return [{name: value for name, value in game.__data__.items() if name != "state"},
            [s.__data__ for s in seats], link.__data__, talk, by_address,
            utcnow().replace(second=0, microsecond=0)]
