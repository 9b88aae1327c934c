"""The turn page's hot read queries run as SQL built once (db/prepared.py): on SQLite and
PostgreSQL they answer exactly what the peewee queries they stand for answer, converted by the
fields (JSON, dates, booleans), whatever the values."""
from __future__ import annotations

import json
import random

import pytest

from pbem.play import creation
from pbem.play import clock, links, talk
from pbem.log import store
from pbem.db.models import Event, Game, Link, Seat, Vacation, utcnow
from pbem.db.prepared import Prepared
from pbem.present import seat as turn
from tests.conftest import play_at_random

PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"},
           {"name": "Cy", "email": "cy@example.org"}]


def fields(rows, names):
    return [tuple(getattr(r, n) for n in names) for r in rows]


def test_each_prepared_query_answers_as_its_peewee_query(app):
    game, _ = creation.create_game("tigris", PLAYERS, seed=4)
    game = play_at_random(game, 25, random.Random(4))
    talk.post(game.id, 1, "hello")
    Vacation.create(email="bob@example.org", year=utcnow().year, used_days=2)

    assert store.GAME_BY_ID.first(game.id).__data__ == Game.get_by_id(game.id).__data__
    assert store.GAME_BY_ID.first(game.id + 1000) is None
    columns = list(Seat._meta.fields)
    assert fields(store.seats_of(game), columns) == fields(
        game.seats.order_by(Seat.index), columns)
    link = Link.select().where(Link.game == game).first()
    assert links.LINK_BY_NONCE.first(link.nonce_hash).__data__ == link.__data__
    assert links.LINK_BY_NONCE.first("no such hash") is None
    assert [m.text for m in talk.LATEST(game.id)] == ["hello"]
    vacation = clock.vacation_of("bob@example.org")
    assert (vacation.email, vacation.used_days) == ("bob@example.org", 2)
    assert clock.vacation_of("cy@example.org") is None

    log = list(turn.LOG_LINES_OF(game.id).namedtuples())
    expected = list(Event.select().where(Event.game == game).order_by(Event.seq.desc())
                    .limit(turn.LOG_LINES))
    assert [(e.seq, e.seat, e.automatic, json.loads(e.action_json), e.summaries)
            for e in log] == [(e.seq, e.seat, e.automatic, e.action, e.summaries) for e in expected]
    assert all(isinstance(e.automatic, bool) and isinstance(e.summaries, dict) for e in log)
    for seat in range(3):
        for upto in (0, 5, game.seq):
            mine = (Event.select(Event.seq)
                    .where(Event.game == game, Event.seat == seat,
                           Event.automatic == False, Event.seq <= upto)  # noqa: E712
                    .order_by(Event.seq.desc()).first())
            found = turn.LAST_OWN_CHOICE.first(game.id, seat, upto)
            assert (found and found.seq) == (mine and mine.seq), (seat, upto)


def test_a_query_without_each_marker_once_is_refused(app):
    twice = Prepared(Seat, lambda game_id: Seat.select().where(Seat.game == 1))
    with pytest.raises(ValueError):
        list(twice(1))


def test_a_game_saved_whole_is_stored_as_peewee_stores_it(app):
    """prepared.save_whole writes what Model.save writes: two games given the same values, one
    saved each way, read back alike (JSON, dates, floats, booleans, None), and a locked game
    (store.locked_game, SQL built once) reads as peewee reads it."""
    import datetime as dt
    from pbem.db.prepared import save_whole
    first, _ = creation.create_game("tigris", PLAYERS, seed=4)
    second, _ = creation.create_game("tigris", PLAYERS, seed=4)
    first = play_at_random(first, 12, random.Random(4))
    values = {"state": first.state, "seq": first.seq, "head_hash": first.head_hash,
              "status": "over", "finished_at": dt.datetime(2026, 12, 7, 20, 15, 1, 123456),
              "pace_days": 1.5, "quiet_hours": False, "undo": None, "paused_at": None,
              "bank": {"days": [3, 1.25], "note": "ű"}, "title": "Ann's \"game\" ő",
              "ending": {"asked": [0, 2]}}
    for game, save in ((store.get_game(first.id), lambda g: g.save()),
                       (store.get_game(second.id), save_whole)):
        for name, value in values.items():
            setattr(game, name, value)
        assert save(game) == 1
    stored = [Game.get_by_id(g).__data__ for g in (first.id, second.id)]
    for row in stored:
        row.pop("id"), row.pop("created_at"), row.pop("salt"), row.pop("seed")
        row.pop("host_nonce_hash")
    assert stored[0] == stored[1]
    assert stored[1]["bank"] == values["bank"] and stored[1]["quiet_hours"] is False
    with store.write_transaction():
        assert store.locked_game(second.id).__data__ == Game.get_by_id(second.id).__data__
        assert store.locked_game(str(second.id)).id == second.id
        with pytest.raises(store.NotFound):
            store.locked_game(second.id + 1000)


def test_a_row_created_whole_is_stored_as_peewee_stores_it(app):
    """prepared.create_whole inserts what Model.create inserts (defaults, JSON, None, a foreign
    key given as a model) and reads back its new key; a game's events written by it verify."""
    from pbem.db.models import Outbox
    from pbem.db.prepared import create_whole
    game, _ = creation.create_game("tigris", PLAYERS, seed=4)
    game = play_at_random(game, 12, random.Random(4))
    assert store.verify(store.get_game(game.id)) == []
    values = dict(message_id="<x@pbem.test>", game=game, seat=None, kind="turn",
                  recipient="ann@example.org", subject="ő \"x\"", template="turn",
                  context={"talk": [0, 3], "names": ["Ann", None]}, language="hu",
                  rendered=False)
    made = [Outbox.create(**values), create_whole(Outbox, **{**values, "message_id": "<y@t>"})]
    assert made[1].id == made[0].id + 1 and not made[1].dirty_fields
    stored = [Outbox.get_by_id(row.id).__data__ for row in made]
    for row in stored:
        row.pop("id"), row.pop("created_at"), row.pop("message_id"), row.pop("next_try_at")
    assert stored[0] == stored[1]
