"""The event store: every accepted action is an event in an append-only, hash-chained log.

Appending is one write transaction: lock the game, check the expected seq, apply the action
through the rules, apply the forced moves that follow, insert the events, update the snapshot,
spend and issue links, and write the outbox rows. Nothing half-written ever remains.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import Refusal
from ..db.database import is_sqlite, write_transaction
from ..games import IllegalAction  # noqa: F401  (what append raises; callers catch it as store's)
from ..games.base import LANGUAGES, default_move, turn_of
from ..db.models import Event, Game, Seat, utcnow
from ..db.prepared import Prepared, create_whole, save_whole
from .chain import (COMPUTERS, EXPORT_FORMAT, TIMEOUT_MARKS, begin_lines, canonical, chain_hash,
                    commitment, describe_in_every_language, forced_move, marked_lines,
                    played_by, stored_lines)
from . import ending, lines, undo
# the store's readers, replay and verification live in rooms of their own; `store` stays the
# one name the layers above call them by
from .reading import (GAME_BY_ID, SEATS_OF_GAME, NotFound, computer_name, find_game,  # noqa: F401
                      get_game, names_of, rules_of, seat_name, seats_of, state_of)
from .replaying import (CHECKPOINT_EVERY, Rebuilt, Verified, checkpoint_at_or_before,  # noqa: F401
                        fill_checkpoints, keep_checkpoints, replay, state_at, verified, verify)

MAX_FORCED_MOVES = 10_000   # a runaway chain of forced moves is a rules bug, not a game


class StaleSeq(Refusal):
    """The action was made against an older position: someone already played it."""

    status = 409


@dataclass(frozen=True)
class By:
    """Who made a move, as its event says (`played_by`, one of PLAYED_BY: the seat's player,
    a forced move, a computer, or a default move and why), and, for a default, whether the
    seat plays by defaults now (`absent`: dropped or handed over) rather than having missed
    one deadline, whose default then goes on for the rest of the missed turn."""

    played_by: str = "player"
    absent: bool = False

    @classmethod
    def computer(cls, stand_in: bool) -> "By":
        """The computer chose it: for its own seat, or standing in for a player."""
        return cls("stand_in" if stand_in else "computer")

    @classmethod
    def default(cls, why: str | None = None, absent: bool = False) -> "By":
        """The seat's default move; `why` is what the log line says (TIMEOUT_MARKS), by
        default "absent" for an absent seat and "deadline" for a missed deadline."""
        return cls(played_by(False, True, None, why or ("absent" if absent else "deadline")),
                   absent)

    @property
    def automatic(self) -> bool:
        return self.played_by == "forced"

    @property
    def timeout(self) -> bool:
        return self.played_by in TIMEOUT_MARKS

    @property
    def bot(self) -> bool:
        return self.played_by in COMPUTERS


PLAYER, FORCED = By("player"), By("forced")


# -- times -------------------------------------------------------------------------------------------

def _now_text() -> str:
    return utcnow().isoformat(timespec="microseconds")


# -- creating a game -----------------------------------------------------------------------------

def begin(rules, players: list[dict], options: dict, seed: int, salt: str | None = None,
          **game_fields):
    """A new game's row, its seats and its creation event (seq 0) in the caller's transaction;
    (game, state after the setup). `salt`: of the shuffle commitment (`chain.commitment`),
    kept beside the seed in the creation event, which is never shown before the game is over."""
    state = rules.setup(len(players), seed, options)
    names = [p["name"] for p in players]
    creation = {"type": "create", "rules": rules.name, "rules_version": rules.version,
                "options": options, "players": len(players), "names": names, "seed": seed}
    if salt is not None:
        creation["salt"] = salt
    created_at = _now_text()
    game = Game.create(
        rules=rules.name, rules_version=rules.version, options=options,
        players=len(players), seed=seed, salt=salt, seq=0, state=rules.dump(state),
        head_hash=chain_hash("", 0, None, creation, False, created_at), **game_fields)
    for index, player in enumerate(players):
        Seat.create(game=game, index=index, name=player["name"],
                    email=player["email"], language=_language(player.get("language")),
                    bot_level=player.get("computer"))
    game.read_in = frozenset(_language(p.get("language")) for p in players)
    Event.create(game=game, seq=0, seat=None, action=creation, created_at=created_at,
                 **stored_lines(begin_lines(), game.read_in),
                 hash=game.head_hash)
    return game, state


def reads(game: Game, seats=None) -> frozenset:
    """The languages the game's seats read: an event stores its line in these (and English).
    Read once per use case (kept on the game's row object); `seats` when the caller read them."""
    known = getattr(game, "read_in", None)
    if known is None or seats is not None:
        rows = seats if seats is not None else \
            Seat.select(Seat.language).where(Seat.game == game.id)
        known = game.read_in = frozenset(seat.language for seat in rows)
    return known


def _language(raw) -> str:
    return raw if raw in LANGUAGES else "en"


# -- appending -----------------------------------------------------------------------------------

@dataclass
class Applied:
    game: Game
    state: object
    events: list


def append(game: Game, rules, state, seat: int, action: dict, dropped: set[int],
           defaulting: dict | None = None, by: By = PLAYER) -> tuple[object, list, set[int]]:
    """Record `action` by `seat` (already checked: `listed_action` or the seat's default) and
    the forced moves after it, in the caller's transaction holding the game's lock; returns the
    state after them, their events and the seats whose default moves were played (`dropped`:
    the seats that play by default moves now; a mapping seat -> why, see TIMEOUT_MARKS, says
    why for each). `defaulting`: {seat: turn} of the seats whose missed decision goes on (see
    `advance`), updated in place: a default played at a seat's deadline adds the seat, with
    the turn it missed. `by`: who made it (By: the player, the computer, a default and why;
    a default's why goes on for the rest of its decision)."""
    events: list[Event] = []
    if by.timeout and not by.absent and defaulting is not None:
        defaulting[seat] = turn_text(rules, state)
    state = record(game, rules, state, seat, action, events, by)
    restart: set[int] = {seat} if by.timeout else set()
    state = advance(game, rules, state, events, dropped, restart, defaulting,
                    reasons={seat: by.played_by} if by.timeout else None)
    return state, events, restart


def turn_text(rules, state) -> str:
    """The turn being played (the engine's `turn_of`), as canonical JSON text."""
    return canonical(turn_of(rules, state))


def end_missed_turns(rules, state, defaulting: dict) -> None:
    """Forget the seats whose missed turn is over: the turn moved on (or, for an engine that
    does not say which turn it is, the seat is no longer asked)."""
    if not defaulting:
        return
    now, asked = turn_text(rules, state), rules.to_act(state)
    for seat, turn in list(defaulting.items()):
        if turn != now or (turn == "null" and seat not in asked):
            del defaulting[seat]


def locked_game(game_id: int) -> Game:
    """The game, locked for the rest of the caller's write transaction: whoever reads it
    next waits (PostgreSQL: FOR UPDATE; SQLite: the transaction's write lock). Every write
    starts here: its SQL is built once (db/prepared.py)."""
    if type(game_id) is not int:
        game_id = int(game_id)          # an id read from a link or a row, as peewee took it
    # BEGIN IMMEDIATE already serialises SQLite writers
    game = (GAME_BY_ID if is_sqlite() else GAME_FOR_UPDATE).first(game_id)
    if game is None:
        raise NotFound(f"no game {game_id}")
    return game


GAME_FOR_UPDATE = Prepared(Game, lambda game_id: Game.select().where(Game.id == game_id)
                           .limit(1).for_update())


# Why a timeout move (the seat's default move) was played, as its log line says it.
def record(game, rules, state, seat, action, events, by: By = PLAYER):
    """Apply one action and insert its event (the caller holds the write transaction). `by`
    says who chose it: the player, a forced move, the computer ("stand_in": for a player,
    which the log says), or the seat's default move, played at its deadline or at once for a
    seat whose player stopped answering or was handed over by the host (TIMEOUT_MARKS:
    deadline, absent, host, handover). The event says so (`played_by`), which the link pages
    read."""
    after = rules.apply(state, seat, action)     # first: an illegal action is never described
    automatic, timeout, made_by = by.automatic, by.timeout, by.played_by
    game.undo = undo.after_step(rules, game.undo, state, after, seat, automatic, timeout)
    summaries = marked_lines(describe_in_every_language(rules, state, seat, action), seat,
                             timeout, made_by, stood_in=made_by == "stand_in")
    created_at = _now_text()
    game.seq += 1
    game.head_hash = chain_hash(game.head_hash, game.seq, seat, action, automatic, created_at,
                                timeout, by.bot, made_by)
    events.append(create_whole(Event, game=game, seq=game.seq, seat=seat, action=action,
                               automatic=automatic, timeout=timeout, bot=by.bot,
                               played_by=made_by, **stored_lines(summaries, reads(game)),
                               created_at=created_at, hash=game.head_hash))
    if game.seq % CHECKPOINT_EVERY == 0:
        keep_checkpoints(game, [(game.seq, game.head_hash, rules.dump(after))])
    return after


def _why(seat: int, dropped, reasons: dict | None) -> str | None:
    """Why a default is played for `seat` unasked: what `dropped` says for a dropped seat (a
    mapping seat -> why), else what the move that began its missed decision said."""
    if seat in dropped and isinstance(dropped, dict):
        return dropped[seat]
    return (reasons or {}).get(seat)


def advance(game, rules, state, events, dropped: set[int], restart: set | None = None,
            defaulting: dict | None = None, reasons: dict | None = None):
    """Apply forced moves at once, as automatic events: nobody is asked a choice they lack.
    The default moves of `dropped` seats are played as soon as they are asked too, as timeout
    events; so are those of `defaulting` seats ({seat: turn}) while the turn whose deadline
    they missed goes on: a default plays the whole decision (a turn of several actions, and
    the questions of that turn asked later), so the seat is not asked again in that turn.
    `restart` collects the seats whose defaults were played (their next clock starts)."""
    restart = set() if restart is None else restart
    defaulting = {} if defaulting is None else defaulting
    for _move in range(MAX_FORCED_MOVES):
        forced = forced_move(rules, state)
        if forced is not None:
            state = record(game, rules, state, forced[0], forced[1], events, FORCED)
            continue
        end_missed_turns(rules, state, defaulting)
        playing = set(dropped) | set(defaulting)
        for seat in rules.to_act(state) if playing else ():
            action = default_move(rules, state, seat) if seat in playing else None
            if action is not None:
                state = record(game, rules, state, seat, action, events,
                               By.default(_why(seat, dropped, reasons), absent=seat in dropped))
                restart.add(seat)
                break
        else:
            return state
    raise RuntimeError(f"more than {MAX_FORCED_MOVES} forced moves in a row in game {game.id}")


def take_back(game, rules, state, seat: int) -> tuple[object, list]:
    """Record `seat`'s undo of its last action (IllegalAction when it may not undo now, see
    pbem/log/undo.py), in the caller's transaction holding the game's lock: the state before
    that action, and the undo's event."""
    state, game.undo = undo.undone(rules, game.undo, state, seat)
    created_at = _now_text()
    game.seq += 1
    game.head_hash = chain_hash(game.head_hash, game.seq, seat, undo.UNDO, False, created_at)
    summaries = undo.line(seat)
    return state, [Event.create(game=game, seq=game.seq, seat=seat, action=dict(undo.UNDO),
                                automatic=False, played_by="player",
                                **stored_lines(summaries, reads(game)),
                                created_at=created_at, hash=game.head_hash)]


def end_together(game, rules, seat: int, action: dict, computers) -> Event:
    """Record `seat`'s resignation or answer to abandoning the game (pbem/log/ending.py;
    IllegalAction when it may not), in the caller's transaction holding the game's lock: the
    table's ending on the game's row, the game over when it ends it, and the event."""
    action = ending.checked(action)
    game.ending = ending.step(game.ending, game.players, computers, seat, action)
    created_at = _now_text()
    game.seq += 1
    game.head_hash = chain_hash(game.head_hash, game.seq, seat, action, False, created_at)
    summaries = ending.line(seat, action, game.ending)
    return create_whole(Event, game=game, seq=game.seq, seat=seat, action=action,
                        automatic=False, played_by="player",
                        **stored_lines(summaries, reads(game)),
                        created_at=created_at, hash=game.head_hash)


def result_of(game, state, rules=None) -> dict | None:
    """The game's result: the rules' own, or how its players ended it (resigned, abandoned);
    None while it runs."""
    return ending.result(rules or rules_of(game), state, game.ending, game.players)


def to_act_of(game, state, rules=None) -> list[int]:
    """The seats asked now: the rules', none once the players ended the game together."""
    if ending.ended(game.ending):
        return []
    return (rules or rules_of(game)).to_act(state)


def save(game, rules, state) -> None:
    game.state = rules.dump(state)
    if result_of(game, state, rules) is not None and game.status != "over":
        game.status, game.finished_at = "over", utcnow()
    save_whole(game)


# -- export and import ---------------------------------------------------------------------------

def game_commitment(game: Game) -> str | None:
    """The game's shuffle commitment; None for a game created before commitments."""
    return commitment(game.seed, game.salt) if game.salt is not None else None


def export(game: Game) -> dict:
    """A JSON record of the whole game that `import_record` replays elsewhere (no emails, no
    table talk: the use case adds the messages where they belong). It holds the seed and the
    salt (in the creation event, and beside the commitment): the operator's export, or the
    public record of a finished game."""
    record = {
        "format": EXPORT_FORMAT, "format_version": 1, "rules": game.rules,
        "rules_version": game.rules_version, "title": game.title, "status": game.status,
        "commitment": game_commitment(game), "seed": game.seed, "salt": game.salt,
        "seats": [_exported_seat(s) for s in game.seats.order_by(Seat.index)],
        "pace": _exported_pace(game),
        "events": _exported_events(game),
        "head_hash": game.head_hash,
        "result": result_of(game, state_of(game)),
    }
    return record


def _exported_pace(game: Game) -> dict:
    """The game's pace; `quiet_hours` only when the host turned them off (a record of a game
    that honours them reads as the records made before quiet hours existed)."""
    pace = {"days": game.pace_days, "on_timeout": game.on_timeout, "drop_after": game.drop_after}
    if not game.quiet_hours:
        pace["quiet_hours"] = False
    if game.bank:
        pace["bank"] = dict(game.bank)
    return pace


def _exported_seat(seat: Seat) -> dict:
    exported = {"name": seat.name, "language": seat.language}
    if seat.bot_level is not None:
        exported["computer"] = seat.bot_level
    return exported


def _exported_events(game: Game) -> list[dict]:
    """The log, each event with its line in every language pbem speaks (those its table did
    not read described from the log: pbem/log/lines.py)."""
    events = list(game.events.order_by(Event.seq))
    said = {language: lines.texts(game, events, language) for language in LANGUAGES}
    return [_exported_event(e, {language: said[language][n] for language in LANGUAGES})
            for n, e in enumerate(events)]


def _exported_event(e: Event, summaries: dict) -> dict:
    exported = {"seq": e.seq, "seat": e.seat, "action": e.action, "automatic": e.automatic,
                "summary": e.summary, "summaries": summaries,
                "created_at": e.created_at,
                "hash": e.hash}
    if e.timeout:
        exported["timeout"] = True
    if e.bot:
        exported["bot"] = True
    if e.played_by is not None:     # recorded since 0.3.1
        exported["played_by"] = e.played_by
    return exported


def import_record(record: dict, pace: dict) -> Game:
    """Replay an exported record into a new game (`pace`: the record's pace, checked by the
    caller), checked as untrusted input (`importing.check_record`); ValueError of one line if
    it does not replay exactly."""
    from .importing import check_record     # it replays through this module's guards
    checked = check_record(record)
    rules, version, options, state = checked.rules, checked.version, checked.options, checked.state
    with write_transaction():
        game = Game.create(rules=rules.name, rules_version=version, options=options,
                           players=checked.players, seed=checked.seed, salt=checked.salt, seq=0,
                           state={}, head_hash="", title=checked.title,
                           pace_days=pace["days"], on_timeout=pace["on_timeout"],
                           drop_after=pace["drop_after"],
                           quiet_hours=pace.get("quiet_hours", True), bank=pace.get("bank"))
        game.undo, game.ending = checked.stretch, checked.ending
        for index, seat in enumerate(checked.seats):
            Seat.create(game=game, index=index, name=seat["name"],
                        language=_language(seat.get("language")),
                        bot_level=seat.get("computer"))
        for event in checked.events:
            Event.create(game=game, **event)
        game.seq, game.head_hash = checked.events[-1]["seq"], checked.head_hash
        save(game, rules, state)
        fill_checkpoints(game)
    return game
