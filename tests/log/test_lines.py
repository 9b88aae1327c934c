"""The log's lines in a language nobody at the table reads are described anew from the log
(pbem/log/lines.py), and say exactly what the line recorded with the move said: the rules' own
lines, an undo, a default played by the host and at the deadline, a resignation and the defaults
played for the resigned seat. Two games of the same seed play the same moves: in one a player
reads Hungarian (its events store the Hungarian lines), in the other nobody does."""
from __future__ import annotations

import datetime as dt
import random

import pytest

from pbem.db.models import Checkpoint, Event, utcnow
from pbem.log import lines, store, undo
from pbem.play import creation, hosting, moves, resigning
from tests.conftest import play_at_random


def seats(hungarian: bool):
    return [{"name": name, "email": f"{name.lower()}@example.org",
             "language": "hu" if hungarian and name == "Ann" else "en"}
            for name in ("Ann", "Bob", "Cy")]


def first_action(game, seat):
    game = store.get_game(game.id)
    rules = store.rules_of(game)
    return rules.legal_actions(store.state_of(game), seat)[0]


def the_same_story(hungarian: bool):
    game, _ = creation.create_game("tigris", seats(hungarian), seed=11)
    moves.act(game.id, 0, first_action(game, 0), game.seq)
    game = store.get_game(game.id)
    moves.undo(game.id, 0, game.seq)                          # "took back their last action"
    for _action in range(2):                                  # Ann's turn: two actions
        game = store.get_game(game.id)
        moves.act(game.id, 0, first_action(game, 0), game.seq)
    later = utcnow() + dt.timedelta(days=30)                  # past Bob's wait
    hosting.play_default_once(game.id, 1, now=later)          # the host plays Bob's default
    resigning.resign(game.id, 2, now=later)                   # Cy resigns: defaults from now
    return store.get_game(game.id)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_lines_described_from_the_log_are_the_lines_recorded(app, smtp):
    told = the_same_story(hungarian=True)
    untold = the_same_story(hungarian=False)
    assert told.seq == untold.seq and told.seq >= 7
    recorded = list(Event.select().where(Event.game == told.id).order_by(Event.seq))
    untold_events = list(Event.select().where(Event.game == untold.id).order_by(Event.seq))
    assert all(set(e.summaries) == {"hu"} for e in recorded)
    assert all(e.summaries == {} for e in untold_events)      # one line: nobody reads Hungarian
    said = [e.summaries["hu"] for e in recorded]
    assert any("visszavonta" in line for line in said)         # the undo
    assert any("feladta" in line for line in said)             # the resignation
    assert sum(e.timeout for e in recorded) >= 1
    assert lines.texts(untold, untold_events, "hu") == said
    assert lines.texts(untold, untold_events, "en") == [e.summary for e in recorded]
    # asked again, later, after more moves: the kept replay goes on from where it stopped
    game = store.get_game(untold.id)
    rules = store.rules_of(game)
    to_act = rules.to_act(store.state_of(game))[0]
    moves.act(game.id, to_act, first_action(game, to_act), game.seq)
    grown = list(Event.select().where(Event.game == untold.id).order_by(Event.seq))
    assert lines.texts(untold, grown, "hu")[:len(said)] == said
    assert all(lines.texts(untold, grown, "hu"))


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_log_that_does_not_replay_shows_its_english_lines(app, smtp, caplog):
    game = the_same_story(hungarian=False)
    Event.update(action={"type": "no such move"}).where(Event.game == game.id,
                                                        Event.seq == 3).execute()
    events = list(Event.select().where(Event.game == game.id).order_by(Event.seq))
    said = lines.texts(game, events, "hu")
    assert said[:3] == ["A játék elkezdődik.", "{p0} lerakta a papját ide: B1.",
                        "{p0} visszavonta az utolsó lépését."]
    assert said[3:] == [e.summary for e in events[3:]]        # English from there on
    assert "does not replay past move 2" in caplog.text


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_recent_lines_are_described_from_the_nearest_checkpoint(app, smtp):
    """A page of recent lines replays from the checkpoint before them, not from the seed; the
    table's ending comes from the resignation long before it (Cy's: the resigned do not vote,
    so two agreements abandon the game)."""
    game, _ = creation.create_game("tigris", seats(hungarian=True), seed=5)
    resigning.resign(game.id, 2)
    rng = random.Random(5)
    while store.get_game(game.id).seq < 2 * store.CHECKPOINT_EVERY + 5:
        play_at_random(store.get_game(game.id), 1, rng)
    resigning.abandon(game.id, 0, True)
    resigning.abandon(game.id, 1, True)
    game = store.get_game(game.id)
    assert game.status == "over"
    recorded = list(Event.select().where(Event.game == game.id).order_by(Event.seq))
    recent = [e.seq for e in recorded[-12:]]
    lines._kept.clear()
    read = []
    replays = undo.Replay.step

    def counted(self, seq, *args, **kwargs):
        read.append(seq)
        return replays(self, seq, *args, **kwargs)

    undo.Replay.step = counted
    try:
        described = lines.described_lines(game, "hu", recent)
    finally:
        undo.Replay.step = replays
    assert described == {e.seq: e.summaries["hu"] for e in recorded[-12:]}
    assert "győztes nélkül" in described[recent[-1]]         # every player left agreed
    assert min(read) > store.CHECKPOINT_EVERY               # from a checkpoint, not the seed
    # a checkpoint that is not this log's (its hash is not its event's) is never started from
    Checkpoint.update(hash="0" * 64).where(Checkpoint.game == game.id).execute()
    lines._kept.clear()
    read.clear()
    undo.Replay.step = counted
    try:
        assert lines.described_lines(game, "hu", recent) == described
    finally:
        undo.Replay.step = replays
    assert min(read) == 0


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_long_games_export_keeps_only_its_latest_lines_in_memory(app, smtp, monkeypatch):
    monkeypatch.setattr(lines, "LINES_KEPT", 5)
    game = the_same_story(hungarian=False)
    events = list(Event.select().where(Event.game == game.id).order_by(Event.seq))
    lines._kept.clear()
    every = lines.texts(game, events, "hu")
    kept = lines._kept[(game.id, "hu")]
    assert len(kept.lines) == 5 and kept.first == events[-5].seq
    assert lines.texts(game, events, "hu") == every          # earlier ones: described again
    assert lines.texts(game, events[-3:], "hu") == every[-3:]
