"""The log's lines in a reader's language.

An event stores its line in English and in the languages its table reads (chain.stored_lines):
what a game's pages and mails show. A reader of another language (a spectator, a player whose
language changed since, an export) gets the lines described anew from the log: the game
replayed from the checkpoint before the first line asked (from its seed when an undo reaches
back past that checkpoint), each event described as it was when it was recorded (the rules'
own line, its default or computer mark, an undo's or an ending's). The replay is kept per game
and language, a few of them per process with their latest lines, and goes on from where it
stopped when the log grows; the log only grows, and an entry whose last event's hash is no
longer the log's (another database) starts again.
"""
from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import peewee as pw

from ..db.models import Event, Game, Seat
from ..db.prepared import Prepared
from ..games.base import LANGUAGES
from . import chain, ending, undo
from .reading import rules_of
from .replaying import checkpoint_at_or_before

log = logging.getLogger(__name__)
KEPT = 32           # games (in one language each) whose replay a process keeps
LINES_KEPT = 400    # the latest lines each keeps (a page shows at most 200)
HASH_AT = Prepared(Event, lambda game_id, seq: Event.select(Event.hash).where(
    Event.game == game_id, Event.seq == seq))
EVENTS_BETWEEN = Prepared(Event, lambda game_id, first, last: Event.select(
    Event.seq, Event.seat, Event.action, Event.automatic, Event.timeout, Event.bot,
    Event.played_by, Event.summary, Event.hash).where(
    Event.game == game_id, Event.seq >= first, Event.seq <= last).order_by(Event.seq))


def _kind_is(kind: str):
    """An event whose action's type is `kind`, found in its JSON text (kept with sorted keys
    and no spaces); the pattern goes as it is, not through the field's JSON conversion."""
    return pw.Expression(Event.action, pw.OP.ILIKE, pw.Value(f'%"type":"{kind}"%', converter=False))


# the table's own events (ending.KINDS) up to a seq
ENDINGS_UPTO = Prepared(Event, lambda game_id, seq: Event.select(Event.seat, Event.action).where(
    Event.game == game_id, Event.seq <= seq, _kind_is("resign") | _kind_is("abandon"))
    .order_by(Event.seq))


def texts(game: Game, rows, language: str) -> list[str]:
    """The lines of `rows` (events of `game`, or rows with their seq, summary and summaries)
    in `language`, names as {p0}..."""
    rows = list(rows)
    if language == "en" or language not in LANGUAGES:
        return [row.summary for row in rows]
    missing = [row.seq for row in rows if language not in (row.summaries or {})]
    described = described_lines(game, language, missing) if missing else {}
    return [(row.summaries or {}).get(language) or described.get(row.seq) or row.summary
            for row in rows]


def text(game: Game, row, language: str) -> str:
    return texts(game, [row], language)[0]


@dataclass
class _Described:
    """A game's log replayed in one language from event `first` up to `upto` (the event whose
    hash is `head`)."""
    replaying: undo.Replay
    computers: list[int]
    players: int
    first: int = 0
    upto: int = -1
    head: str = ""
    ending: dict | None = None
    lines: dict[int, str] = field(default_factory=dict)


_kept: OrderedDict[tuple[int, str], _Described] = OrderedDict()
_lock = threading.Lock()


def described_lines(game: Game, language: str, seqs: list[int]) -> dict[int, str]:
    """{seq: line in `language`} of the events `seqs` of `game`, described anew."""
    with _lock:
        entry = _kept.pop((game.id, language), None)
    if entry is not None:
        last = HASH_AT.first(game.id, entry.upto) if entry.upto >= 0 else None
        if last is None or last.hash != entry.head or min(seqs) < entry.first:
            entry = None                # another game of that id (another database), or
                                        # lines before those it began with
    try:
        entry = entry if entry is not None else _started(game, min(seqs))
        try:
            _describe(game, entry, max(seqs), language)
        except undo.BeforeCheckpoint:   # an undo reaches before the checkpoint: from the seed
            entry = _fresh(game)
            _describe(game, entry, max(seqs), language)
    except Exception:  # noqa: BLE001 - a log that does not replay: its English lines are read
        log.exception("game %s: its log does not replay past move %s", game.id,
                      entry.upto if entry is not None else "its checkpoint")
        return {seq: entry.lines[seq] for seq in seqs if seq in entry.lines} if entry else {}
    described = {seq: entry.lines[seq] for seq in seqs if seq in entry.lines}
    for seq in [seq for seq in entry.lines if seq <= entry.upto - LINES_KEPT]:
        del entry.lines[seq]            # a long game's export: its latest lines are kept
    entry.first = min(entry.lines, default=entry.upto + 1)
    with _lock:
        _kept[(game.id, language)] = entry
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return described


def _describe(game: Game, entry: _Described, last: int, language: str) -> None:
    for event in EVENTS_BETWEEN(game.id, entry.upto + 1, last):
        entry.lines[event.seq] = _line(entry, event, language)
        entry.upto, entry.head = event.seq, event.hash


def _fresh(game: Game) -> _Described:
    """A replay from the game's seed."""
    computers = [seat.index for seat in Seat.select(Seat.index, Seat.bot_level)
                 .where(Seat.game == game.id) if seat.bot_level is not None]
    return _Described(undo.Replay(rules_of(game)), computers, game.players)


def _started(game: Game, first: int) -> _Described:
    """A replay that begins describing at event `first`: from the nearest checkpoint before
    it (the table's ending folded from the resignations and abandons before it), so a page of
    recent lines never replays a long game from its seed."""
    entry = _fresh(game)
    point = checkpoint_at_or_before(game, first - 1) if first > 1 else None
    event = HASH_AT.first(game.id, point.seq) if point is not None else None
    if point is None or event is None or event.hash != point.hash:
        return entry                    # none, or not this log's: from the seed
    rules = entry.replaying.rules
    entry.replaying = undo.Replay(rules, rules.load(point.state), checkpoint=point.seq)
    entry.first, entry.upto, entry.head = point.seq + 1, point.seq, point.hash
    for event in ENDINGS_UPTO(game.id, point.seq):
        if ending.is_ending(event.action):
            entry.ending = ending.step(entry.ending, entry.players, entry.computers,
                                       event.seat, event.action)
    return entry


def _line(entry: _Described, event, language: str) -> str:
    """The event's line in `language`, as it was recorded (store.record, take_back,
    end_together, begin), with the replay stepped past it."""
    before = entry.replaying.state
    entry.replaying.step(event.seq, event.seat, event.action, event.automatic, event.timeout)
    seat, action = event.seat, event.action
    if event.seq == 0:
        return chain.begin_lines()[language]
    if ending.is_ending(action):
        entry.ending = ending.step(entry.ending, entry.players, entry.computers, seat, action)
        return ending.line(seat, action, entry.ending)[language]
    if undo.is_undo(action):
        return undo.line(seat)[language]
    stood_in = event.played_by == "stand_in" or (event.played_by is None and event.bot
                                                 and seat not in entry.computers)
    return chain.marked_lines(
        chain.describe_in_every_language(entry.replaying.rules, before, seat, action), seat,
        event.timeout, event.played_by, event.summary, stood_in)[language]
