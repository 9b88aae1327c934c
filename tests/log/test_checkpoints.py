"""Replay checkpoints in the database: every CHECKPOINT_EVERY-th state is kept
with its event, shared by every worker, so any replay step of a game of any length applies
fewer than CHECKPOINT_EVERY events; verify checks them, fills those a game lacks, and an import
keeps them."""
from __future__ import annotations

import pytest

import random

from pbem.db.database import write_transaction
from pbem.db.models import Checkpoint, Event, Game, Seat, db
from pbem.games import RULES
from pbem.log import chain, store
from pbem.play import moves as playing, records
from pbem.play import creation
from tests.conftest import play_at_random

PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}]
EVERY = store.CHECKPOINT_EVERY
PASS = chain.canonical({"type": "pass"})


def passing_game(moves: int) -> Game:
    """A card game of `moves` events after its creation, nearly all of them `pass` (the rules
    accept it for ever): made with the engine and inserted in bulk, as a long game's log is,
    with the checkpoints the use case would have kept."""
    game, _ = creation.create_game("tigris_cards", PLAYERS, seed=5)
    rules = RULES["tigris_cards"]
    state, head, seq = store.state_of(game), game.head_hash, game.seq
    created_at = "2026-12-01T12:00:00.000000"
    rows, points = [], []
    while seq < moves:
        seat = rules.to_act(state)[0]
        seq += 1
        action = {"type": "pass"}
        state = rules.apply(state, seat, action)
        head = chain.chain_hash(head, seq, seat, action, False, created_at)
        rows.append((game.id, seq, seat, PASS, False, False, False, "{p%d} passes." % seat, "{}",
                     created_at, Event.hash.db_value(head)))
        if seq % EVERY == 0:
            points.append((seq, head, rules.dump(state)))
    with write_transaction():
        marks = ", ".join([db.obj.param] * 11)
        db.obj.cursor().executemany(          # peewee's insert_many takes ~10 times as long
            "INSERT INTO event (game_id, seq, seat, action, automatic, timeout, bot, summary, "
            f"summaries, created_at, hash) VALUES ({marks})", rows)
        game = store.locked_game(game.id)
        game.seq, game.head_hash = seq, head
        store.save(game, rules, state)
        store.keep_checkpoints(game, points)
        Seat.update(seen_seq=seq).where(Seat.game == game.id).execute()   # mailed up to here
    return store.get_game(game.id)


@pytest.mark.slow
def test_any_step_of_a_45000_move_game_replays_from_a_checkpoint(app, client, monkeypatch):
    game = passing_game(44_990)
    rules = store.rules_of(game)
    for _ in range(12):             # the last moves through the use case: it keeps checkpoint 45,000
        game = store.get_game(game.id)
        playing.act(game.id, rules.to_act(store.state_of(game))[0], {"type": "pass"}, game.seq)
    game = store.get_game(game.id)
    assert game.seq == 45_002
    kept = Checkpoint.get(Checkpoint.game == game.id, Checkpoint.seq == 45_000)
    assert kept.hash == Event.get(Event.game == game.id, Event.seq == 45_000).hash

    applied = {"n": 0}
    real_apply = rules.apply

    def counting(state, seat, action):
        applied["n"] += 1
        return real_apply(state, seat, action)
    monkeypatch.setattr(rules, "apply", counting)
    for step in (45_002, 45_001, 45_000, 44_999, 44_951, 22_222, 49, 1, 0):
        rebuilt = store.state_at(game, step)
        assert rebuilt.event.seq == step and rebuilt.replayed < EVERY, step
    assert store.state_at(game, 45_001).replayed == 1
    assert store.state_at(game, 44_999).replayed == EVERY - 1
    assert rules.dump(store.state_at(game, 45_002).state) == game.state
    applied["n"] = 0
    page = client.get(f"/games/{game.id}/replay?step=45002")
    assert page.status_code == 200 and "Move 45002 of 45002" in page.get_data(as_text=True)
    assert applied["n"] < EVERY
    applied["n"] = 0
    assert client.get(f"/games/{game.id}/replay?step=44999").status_code == 200
    assert applied["n"] < EVERY


@pytest.mark.slow
def test_every_step_from_checkpoints_equals_the_replay_from_the_seed(app):
    game, _ = creation.create_game("tigris", PLAYERS, seed=3)
    game = play_at_random(game, 130, random.Random(3))
    assert game.seq >= 2 * EVERY
    assert [c.seq for c in Checkpoint.select().where(Checkpoint.game == game.id)
            .order_by(Checkpoint.seq)] == list(range(EVERY, game.seq + 1, EVERY))
    rules = store.rules_of(game)
    expected = {event.seq: rules.dump(state) for event, state in store.replay(game)}
    for step in expected:
        rebuilt = store.state_at(game, step)
        assert rebuilt.event.seq == step and rules.dump(rebuilt.state) == expected[step], step
        assert rebuilt.replayed < EVERY
    assert store.verify(game) == []


def test_a_checkpoint_off_the_chain_is_not_used_and_verify_names_a_wrong_one(app):
    game, _ = creation.create_game("tigris", PLAYERS, seed=4)
    game = play_at_random(game, 60, random.Random(4))
    rules = store.rules_of(game)
    expected = {event.seq: rules.dump(state) for event, state in store.replay(game)}
    point = Checkpoint.get(Checkpoint.game == game.id, Checkpoint.seq == EVERY)
    right = point.state
    bogus = rules.dump(rules.setup(2, 99, None))
    Checkpoint.update(hash="0" * 64, state=bogus).where(Checkpoint.id == point.id).execute()
    rebuilt = store.state_at(game, EVERY + 1)        # from the seed, not from the bogus one
    assert rules.dump(rebuilt.state) == expected[EVERY + 1] and rebuilt.replayed == EVERY + 1
    assert any("checkpoint at move 50" in p for p in store.verify(game))
    Checkpoint.update(hash=Event.get(Event.game == game.id, Event.seq == EVERY).hash
                      ).where(Checkpoint.id == point.id).execute()
    assert any("checkpoint at move 50 differs" in p for p in store.verify(game))
    Checkpoint.update(state=right).where(Checkpoint.id == point.id).execute()
    assert store.verify(game) == []


def test_verify_keeps_the_checkpoints_of_an_older_game_and_an_import_keeps_its_own(app):
    game, _ = creation.create_game("tigris", PLAYERS, seed=6)
    game = play_at_random(game, 110, random.Random(6))
    Checkpoint.delete().where(Checkpoint.game == game.id).execute()   # as before migration 011
    assert store.state_at(game, game.seq - 1).replayed == game.seq - 1    # from the seed
    assert store.verify(game) == []
    assert Checkpoint.select().where(Checkpoint.game == game.id).count() == game.seq // EVERY
    assert store.state_at(game, game.seq - 1).replayed < EVERY
    copy = records.import_game(store.export(game))
    assert copy.head_hash == game.head_hash and store.verify(copy, keep=False) == []
    assert Checkpoint.select().where(Checkpoint.game == copy.id).count() == game.seq // EVERY
    assert store.state_at(copy, game.seq - 1).replayed < EVERY
