"""Replay: any step of a game rebuilt from its log, from the nearest checkpoint the database
keeps (every CHECKPOINT_EVERY-th state), and the verification of a whole log against its hash
chain, its checkpoints and its snapshot."""
from __future__ import annotations

from dataclasses import dataclass

from ..db.database import read_snapshot, write_transaction
from ..db.models import Checkpoint, Event, Game, Seat
from ..games import IllegalAction
from .chain import canonical, chain_hash
from .reading import get_game, rules_of, state_of
from . import ending, undo

# every CHECKPOINT_EVERY-th event's state is kept (Checkpoint): a replay step applies fewer
# events than this (a state is ~2 KB of JSON, an apply 40-85 µs: tests/bench/bench_storage.py)
CHECKPOINT_EVERY = 50


# -- replay checkpoints ---------------------------------------------------------------------------

def keep_checkpoints(game: Game, points: list[tuple[int, str, dict]]) -> None:
    """Store (seq, hash of that event, dumped state after it) as checkpoints of `game`, in the
    caller's write transaction; one already kept at that seq stays."""
    rows = [{"game": game.id, "seq": seq, "hash": hash_, "state": dumped}
            for seq, hash_, dumped in points]
    for start in range(0, len(rows), 200):
        Checkpoint.insert_many(rows[start:start + 200]).on_conflict_ignore().execute()


def checkpoint_at_or_before(game: Game, step: int) -> Checkpoint | None:
    return (Checkpoint.select().where(Checkpoint.game == game.id, Checkpoint.seq <= step)
            .order_by(Checkpoint.seq.desc()).limit(1).first())


@dataclass
class Rebuilt:
    state: object
    event: Event | None     # the event `step` (None when the log has none at or before it)
    replayed: int           # how many events were applied to rebuild it


def state_at(game: Game, step: int) -> Rebuilt:
    """The state after event `step`, rebuilt from the nearest checkpoint at or before it (the
    game's own snapshot for its last step): fewer than CHECKPOINT_EVERY events are applied,
    whatever the length of the game. A checkpoint whose hash is not its event's is ignored
    (the replay then starts from the seed)."""
    rules = rules_of(game)
    step = max(0, min(step, game.seq))
    if step == game.seq and step > 0:
        event = game.events.where(Event.seq == step).first()
        if event is not None and event.hash == game.head_hash:
            return Rebuilt(state_of(game), event, 0)
    before = step
    while True:
        try:
            return _rebuilt(game, rules, step, checkpoint_at_or_before(game, before))
        except undo.BeforeCheckpoint as reached:    # an undo reaches back before that one:
            before = reached.checkpoint - 1         # from the checkpoint before it


def _rebuilt(game: Game, rules, step: int, point: Checkpoint | None) -> Rebuilt:
    """The state after event `step`, replayed from `point` (None: from the seed)."""
    base = point.seq if point is not None else 0
    events = list(game.events.where(Event.seq >= base, Event.seq <= step).order_by(Event.seq))
    replaying, event = undo.Replay(rules), None
    if point is not None:
        if events and events[0].seq == base and events[0].hash == point.hash:
            replaying = undo.Replay(rules, rules.load(point.state), checkpoint=base)
            event, events = events[0], events[1:]
        else:
            events = list(game.events.where(Event.seq <= step).order_by(Event.seq))
    for event in events:
        replaying.step(event.seq, event.seat, event.action, event.automatic, event.timeout)
    return Rebuilt(replaying.state, event, sum(1 for e in events if e.seq))


def fill_checkpoints(game: Game) -> int:
    """Keep the checkpoints a game lacks (an imported game, or one from before checkpoints were
    kept), replaying its log once, in the caller's write transaction; how many were added."""
    rules = rules_of(game)
    have = {seq for (seq,) in Checkpoint.select(Checkpoint.seq)
            .where(Checkpoint.game == game.id).tuples()}
    missing = [(event.seq, event.hash, rules.dump(state)) for event, state in replay(game)
               if event.seq and event.seq % CHECKPOINT_EVERY == 0 and event.seq not in have]
    keep_checkpoints(game, missing)
    return len(missing)


# -- replay and verification ----------------------------------------------------------------------

def replay(game: Game, upto: int | None = None):
    """Yield (event, state after it) from the log, rebuilding the game from its seed."""
    replaying = undo.Replay(rules_of(game))
    query = game.events.order_by(Event.seq)
    if upto is not None:
        query = query.where(Event.seq <= upto)
    for event in query:
        yield event, replaying.step(event.seq, event.seat, event.action, event.automatic,
                                    event.timeout)


@dataclass
class Verified:
    game: Game              # the game's row as it was verified
    problems: list[str]     # none: its log is sound


def verify(game: Game, keep: bool = True) -> list[str]:
    """Problems found in `game` as it stands now (see `verified`)."""
    return verified(game.id, keep).problems


def verified(game_id: int, keep: bool = True) -> Verified:
    """Problems found: a broken hash chain, a gap in seq, or a snapshot or replay checkpoint
    the log does not rebuild. The game's row, its checkpoints and its log are read in one
    snapshot (`read_snapshot`), so moves made meanwhile on a running server are neither half
    seen nor taken for a broken game. A sound log's missing checkpoints are kept (`keep`):
    games from before checkpoints existed get theirs at their first verify."""
    with read_snapshot():
        game = get_game(game_id)
        problems, missing = _problems(game)
    if keep and missing and not problems:
        with write_transaction():
            keep_checkpoints(game, missing)
    return Verified(game, problems)


def _problems(game: Game) -> tuple[list[str], list]:
    """(problems of the game's log, the checkpoints it lacks), read in the caller's snapshot."""
    problems, prev, expected_seq, state = [], "", 0, None
    rules = rules_of(game)
    points = {point.seq: point for point in Checkpoint.select().where(Checkpoint.game == game.id)}
    missing = []
    try:
        for event, state in replay(game):
            if event.seq != expected_seq:
                problems.append(f"event seq {event.seq} where {expected_seq} was expected")
            expected = chain_hash(prev, event.seq, event.seat, event.action, event.automatic,
                                  event.created_at, event.timeout, event.bot, event.played_by)
            if expected != event.hash:
                problems.append(f"event {event.seq}: hash does not match its content")
            point = points.pop(event.seq, None)
            if point is not None and (point.hash != event.hash or
                                      canonical(point.state) != canonical(rules.dump(state))):
                problems.append(f"the replay checkpoint at move {event.seq} differs from the "
                                "state the log replays to")
            elif point is None and event.seq and event.seq % CHECKPOINT_EVERY == 0:
                missing.append((event.seq, event.hash, rules.dump(state)))
            prev, expected_seq = event.hash, event.seq + 1
    except IllegalAction as exc:
        problems.append(f"event {expected_seq}: the rules reject it on replay: {exc}")
        return problems, missing
    if prev != game.head_hash:
        problems.append("the game's head hash is not the hash of its last event")
    if expected_seq - 1 != game.seq:
        problems.append(f"the game says move {game.seq}, the log ends at {expected_seq - 1}")
    if state is not None and canonical(rules.dump(state)) != canonical(game.state):
        problems.append("the snapshot differs from the state the log replays to")
    if canonical(_ending_of(game)) != canonical(ending.of(game.ending)):
        problems.append("the game's ending differs from the resignations and agreements its "
                        "log holds")
    if points:
        problems.append(f"replay checkpoints after the end of the log (move {min(points)})")
    return problems, missing


def _ending_of(game: Game) -> dict:
    """The table's ending folded from the game's resignations and abandon's answers alone."""
    computers = [s.index for s in Seat.select(Seat.index).where(Seat.game == game.id,
                                                                Seat.bot_level.is_null(False))]
    events = Event.select(Event.seat, Event.action).where(Event.game == game.id) \
        .order_by(Event.seq).tuples()
    try:
        return ending.fold(events, game.players, computers)
    except IllegalAction as exc:
        return {"refused": str(exc)}
