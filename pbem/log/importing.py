"""A game record from outside, checked as untrusted input before anything is written.

A record is replayed through the rules with the guards of live play: every action a player
chose must be one of the actions the rules listed (`listed_action`, as for a move), every
automatic event the forced move the server plays, every deadline event the seat's default move;
seq, hash, flags and times are checked, sizes capped, and the log lines are written anew from
the rules (`describe`), never taken from the record. Every refusal is a ValueError of one line.
Nothing here touches the database: `store.import_record` writes what `check_record` returns.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from .. import validate
from ..games import IllegalAction
from ..games.base import LANGUAGES, default_move, replayable_versions, set_up
from . import chain, ending, undo

FORMAT_VERSION = 1
MAX_EVENTS = 20_000          # a long Tigris game has ~400; a record is replayed in one go
MAX_MESSAGES = 10_000
MAX_DEPTH = 32               # nesting of the record's JSON (actions are a few levels deep)
MAX_SIZE = 8 * 1024 * 1024   # characters of the record's JSON text (pbem games import)
RECORD_KEYS = {"format", "rules", "rules_version", "seats", "events"}
OPTIONAL_RECORD_KEYS = {"format_version", "title", "status", "pace", "head_hash", "messages",
                        "commitment", "seed", "salt", "result"}
EVENT_KEYS = {"seq", "seat", "action", "automatic", "created_at", "hash"}
OPTIONAL_EVENT_KEYS = {"timeout", "bot", "played_by", "summary", "summaries"}  # lines: anew
CREATION_KEYS = {"type", "rules", "rules_version", "options", "players", "names", "seed"}
OPTIONAL_CREATION_KEYS = {"salt"}       # of the shuffle commitment; absent in older games
SEAT_KEYS = {"name", "language"}
OPTIONAL_SEAT_KEYS = {"language", "computer"}       # "computer": the level of a computer's seat
COMPUTER_LEVELS = (1, 2, 3)
PACE_KEYS = {"days", "on_timeout", "drop_after", "quiet_hours", "bank"}
# created_at as the store writes it (`_now_text`): ISO, UTC, no zone, microseconds
CREATED_AT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{6})?")
EARLIEST = dt.datetime(2000, 1, 1)
HASH = re.compile(r"[0-9a-f]{64}")


@dataclass
class CheckedRecord:
    """What an import writes: the game's fields, its seats and its events, all checked."""
    rules: object
    version: int
    options: dict
    players: int
    seed: int
    salt: str | None
    title: str
    seats: list[dict]
    state: object
    head_hash: str
    events: list[dict] = field(default_factory=list)   # Event fields, summaries recomputed
    stretch: dict | None = None     # the undo stretch after the last event (pbem/log/undo.py)
    ending: dict | None = None      # how the players ended it together (pbem/log/ending.py)

    def result(self) -> dict | None:
        return ending.result(self.rules, self.state, self.ending, self.players)


def check_record(record) -> CheckedRecord:
    """The record replayed and checked (see the module's doc), or ValueError saying why not."""
    if not isinstance(record, dict) or record.get("format") != chain.EXPORT_FORMAT:
        raise ValueError(f"not a pbem game record (format {chain.EXPORT_FORMAT!r} expected)")
    _no_deeper_than(record, MAX_DEPTH)
    _only_keys(record, RECORD_KEYS, OPTIONAL_RECORD_KEYS, "the record")
    if type(record.get("format_version", FORMAT_VERSION)) is not int or \
            record.get("format_version", FORMAT_VERSION) != FORMAT_VERSION:
        raise ValueError(f"the record's format_version must be {FORMAT_VERSION}")
    events = record.get("events")
    if not isinstance(events, list) or not events:
        raise ValueError("the record has no events")
    if len(events) > MAX_EVENTS:
        raise ValueError(f"the record has {len(events)} events; at most {MAX_EVENTS} are imported")
    messages = record.get("messages")
    if messages is not None and (not isinstance(messages, list) or len(messages) > MAX_MESSAGES):
        raise ValueError(f"the record's \"messages\" must be a list of at most {MAX_MESSAGES}")
    checked = _creation(record, _event(events[0], 0))
    for seq, raw in enumerate(events[1:], start=1):
        _replay_one(checked, _event(raw, seq))
    _kept_lines(checked)
    status = "over" if checked.result() is not None else "running"
    if record.get("status", status) != status:
        raise ValueError(f"the record says the game is {record.get('status')!r}; its log "
                         f"replays to a game that is {status}")
    if record.get("head_hash", checked.head_hash) != checked.head_hash:
        raise ValueError("the record's head_hash is not the hash of its last event")
    result = checked.result()
    if "result" in record and chain.canonical(record["result"]) != chain.canonical(result):
        raise ValueError("the record's result is not the result its log replays to")
    return checked


# -- the parts of a record ------------------------------------------------------------------------

def _creation(record: dict, raw: dict) -> CheckedRecord:
    """The game the creation event (seq 0) sets up, checked against the record around it."""
    creation = raw["action"]
    if raw["seat"] is not None or raw["automatic"] or raw.get("timeout") or raw.get("bot") or \
            "played_by" in raw:
        raise ValueError("event 0: the creation has no seat and is not automatic")
    if not isinstance(creation, dict) or creation.get("type") != "create":
        raise ValueError("event 0 is not the game's creation")
    _only_keys(creation, CREATION_KEYS, OPTIONAL_CREATION_KEYS, "event 0")
    players = creation["players"]
    if type(players) is not int:
        raise ValueError("event 0: \"players\" must be a whole number")
    rules, options = chain.validate_new_game(record.get("rules"), players, creation["options"])
    if creation["rules"] != record.get("rules"):
        raise ValueError("event 0 names other rules than the record")
    version = record.get("rules_version")
    known = replayable_versions(rules)
    if type(version) is not int or version not in known or creation["rules_version"] != version:
        raise ValueError(f"the record was played with {rules.name} version {version!r}; this "
                         f"server replays versions {known.start} to {known.stop - 1}")
    try:
        seed = validate.seed(creation["seed"])
    except validate.Invalid as exc:
        raise ValueError(f"event 0: {exc}") from None
    salt = _commitment(record, creation, seed)
    seats = _seats(record.get("seats"), players)
    if creation["names"] != [seat["name"] for seat in seats]:
        raise ValueError("event 0 names other players than the record's seats")
    title = validate.title(record.get("title", ""))
    pace = record.get("pace")
    if pace is not None:
        if not isinstance(pace, dict):
            raise ValueError("the record's \"pace\" must be an object")
        _only_keys(pace, set(), PACE_KEYS, "the record's pace")
    state = set_up(rules, players, seed, options, version)
    head = chain.chain_hash("", 0, None, creation, False, raw["created_at"])
    if head != raw["hash"]:
        raise ValueError("event 0: its hash does not match the record")
    checked = CheckedRecord(rules=rules, version=version, options=options, players=players,
                            seed=seed, salt=salt, title=title, seats=seats, state=state,
                            head_hash=head)
    checked.events.append(_row(raw, 0, None, creation, False, False, head,
                               chain.begin_lines()))
    return checked


def _commitment(record: dict, creation: dict, seed: int) -> str | None:
    """The salt of the game's shuffle commitment (None for a game created before them), after
    checking that the commitment, seed and salt beside the log are those of its creation."""
    salt = creation.get("salt")
    if salt is not None and (not isinstance(salt, str) or not chain.SALT.fullmatch(salt)):
        raise ValueError("event 0: the salt must be 32 lowercase hexadecimal digits")
    if "seed" in record and (type(record["seed"]) is not int or record["seed"] != seed):
        raise ValueError("the record's seed is not the one its creation event holds")
    if "salt" in record and record["salt"] != salt:
        raise ValueError("the record's salt is not the one its creation event holds")
    expected = chain.commitment_of(creation)
    if record.get("commitment", expected) != expected:
        raise ValueError("the record's commitment is not sha256(\"pbem-commit-1:\" + salt + "
                         "\":\" + seed) of the seed and salt it reveals" if expected else
                         "the record names a commitment, but its game was created without one")
    return salt


def _seats(seats, players: int) -> list[dict]:
    if not isinstance(seats, list) or len(seats) != players:
        raise ValueError(f"the record must have {players} seats, one for each player")
    for number, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise ValueError(f"seat {number}: not an object")
        _only_keys(seat, {"name"}, OPTIONAL_SEAT_KEYS, f"seat {number}")
        if seat.get("language", "en") not in LANGUAGES:
            raise ValueError(f"seat {number}: the language must be one of {', '.join(LANGUAGES)}")
        if "computer" in seat and (type(seat["computer"]) is not int
                                   or seat["computer"] not in COMPUTER_LEVELS):
            raise ValueError(f"seat {number}: \"computer\" is a level, 1, 2 or 3")
    return validate.players(seats)


def _event(raw, seq: int) -> dict:
    """One event's fields, typed and in place (the replay checks what they say)."""
    if not isinstance(raw, dict):
        raise ValueError(f"event {seq}: not an object")
    _only_keys(raw, EVENT_KEYS, OPTIONAL_EVENT_KEYS, f"event {seq}")
    if type(raw["seq"]) is not int or raw["seq"] != seq:
        raise ValueError(f"event {seq}: its seq must be the whole number {seq}, not "
                         f"{raw['seq']!r:.24} (no gaps, no repeats)")
    if seq > 0 and (type(raw["seat"]) is not int or not isinstance(raw["action"], dict)):
        raise ValueError(f"event {seq}: a move needs a seat number and an action object")
    if type(raw["automatic"]) is not bool:
        raise ValueError(f"event {seq}: \"automatic\" must be true or false")
    for flag in ("timeout", "bot"):
        if flag in raw and raw[flag] is not True:
            raise ValueError(f"event {seq}: \"{flag}\" is written only when true")
    if "played_by" in raw and not (isinstance(raw["played_by"], str)
                                   and raw["played_by"] in chain.PLAYED_BY):
        raise ValueError(f"event {seq}: \"played_by\" is one of {', '.join(chain.PLAYED_BY)}")
    if not isinstance(raw["hash"], str) or not HASH.fullmatch(raw["hash"]):
        raise ValueError(f"event {seq}: its hash must be 64 hexadecimal digits")
    _created_at(raw["created_at"], seq)
    return raw


def _created_at(raw, seq: int) -> None:
    if not isinstance(raw, str) or not CREATED_AT.fullmatch(raw):
        raise ValueError(f"event {seq}: created_at must be a time like 2026-12-01T10:00:00.000000")
    try:
        moment = dt.datetime.fromisoformat(raw)
    except ValueError:
        raise ValueError(f"event {seq}: created_at {raw!r} is not a date") from None
    now = dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)
    if not EARLIEST <= moment <= now + dt.timedelta(days=1):
        raise ValueError(f"event {seq}: created_at {raw!r} is not between 2000 and now")


def _replay_one(checked: CheckedRecord, raw: dict) -> None:
    """Apply one move of the record as live play would have: the same guards, a new line."""
    rules, state, seq = checked.rules, checked.state, raw["seq"]
    seat, action, automatic = raw["seat"], raw["action"], raw["automatic"]
    timeout, bot = raw.get("timeout", False), raw.get("bot", False)
    if ending.ended(checked.ending):
        raise ValueError(f"event {seq}: the players had ended the game")
    if ending.is_ending(action):
        return _ending_one(checked, raw)
    if seat not in rules.to_act(state):
        raise ValueError(f"event {seq}: seat {seat} is not to act then")
    if automatic + timeout + bot > 1:
        raise ValueError(f"event {seq}: a move is automatic, played at the deadline or chosen "
                         f"by the computer, only one of them")
    if undo.is_undo(action):
        return _undo_one(checked, raw)
    if checked.version == rules.version:
        _as_the_server_plays(rules, state, seat, action, automatic, seq)
    try:
        action = (_default(rules, state, seat, action, seq) if timeout
                  else chain.listed_action(rules, state, seat, action))
        after = rules.apply(state, seat, action)
    except IllegalAction as exc:
        raise ValueError(f"event {seq}: the rules refuse it: {exc}") from None
    played_by = raw.get("played_by")
    recorded = raw.get("summary") if isinstance(raw.get("summary"), str) else ""
    summaries = chain.marked_lines(chain.describe_in_every_language(rules, state, seat, action),
                                   seat, timeout, played_by, recorded,
                                   stood_in=bot and "computer" not in checked.seats[seat])
    head = chain.chain_hash(checked.head_hash, seq, seat, action, automatic, raw["created_at"],
                            timeout, bot, played_by)
    if head != raw["hash"]:
        raise ValueError(f"event {seq}: its hash does not match its content")
    _check_played_by(checked, raw)
    checked.events.append(_row(raw, seq, seat, action, automatic, timeout, head,
                               summaries, bot, played_by))
    checked.stretch = undo.after_step(rules, checked.stretch, state, after, seat, automatic,
                                      timeout)
    checked.state, checked.head_hash = after, head


def _check_played_by(checked: CheckedRecord, raw: dict) -> None:
    """Who made the move, where the record says it (a record from before 0.3.1 does not): a
    default's why is one of TIMEOUT_MARKS (its hash covers it); any other move's is what its
    flags and its seat say."""
    said, seq = raw.get("played_by"), raw["seq"]
    if said is None:
        return
    if raw.get("timeout"):
        if said not in chain.TIMEOUT_MARKS:
            raise ValueError(f"event {seq}: a move played at the deadline says why it was "
                             f"played ({', '.join(chain.TIMEOUT_MARKS)}), not {said!r}")
        return
    computer = "computer" if "computer" in checked.seats[raw["seat"]] else "stand_in"
    expected = chain.played_by(raw["automatic"], False, computer if raw.get("bot") else None)
    if said != expected:
        raise ValueError(f"event {seq}: \"played_by\" says {said!r}, its flags and seat "
                         f"{expected!r}")


def _undo_one(checked: CheckedRecord, raw: dict) -> None:
    """An undo: exactly {"type": "undo"}, by the seat on turn, where it may undo."""
    seq, seat = raw["seq"], raw["seat"]
    if chain.canonical(raw["action"]) != chain.canonical(undo.UNDO) or raw["automatic"] or \
            raw.get("timeout") or raw.get("bot") or raw.get("played_by", "player") != "player":
        raise ValueError(f"event {seq}: an undo is {{\"type\": \"undo\"}}, by the seat itself")
    try:
        state, stretch = undo.undone(checked.rules, checked.stretch, checked.state, seat)
    except IllegalAction as exc:
        raise ValueError(f"event {seq}: this undo is not allowed there: {exc}") from None
    head = chain.chain_hash(checked.head_hash, seq, seat, undo.UNDO, False, raw["created_at"])
    if head != raw["hash"]:
        raise ValueError(f"event {seq}: its hash does not match its content")
    checked.events.append(_row(raw, seq, seat, dict(undo.UNDO), False, False, head,
                               undo.line(seat), played_by=raw.get("played_by")))
    checked.state, checked.stretch, checked.head_hash = state, stretch, head


def _ending_one(checked: CheckedRecord, raw: dict) -> None:
    """A resignation or an answer to abandoning the game, by a player's seat itself, where it
    may (pbem/log/ending.py)."""
    seq, seat = raw["seq"], raw["seat"]
    if raw["automatic"] or raw.get("timeout") or raw.get("bot") or \
            raw.get("played_by", "player") != "player" or type(seat) is not int or \
            not 0 <= seat < checked.players:
        raise ValueError(f"event {seq}: a resignation or an abandon's answer is a player's own")
    computers = [s for s, shown in enumerate(checked.seats) if "computer" in shown]
    try:
        action = ending.checked(raw["action"])
        after = ending.step(checked.ending, checked.players, computers, seat, action)
    except IllegalAction as exc:
        raise ValueError(f"event {seq}: this ending is not allowed there: {exc}") from None
    head = chain.chain_hash(checked.head_hash, seq, seat, action, False, raw["created_at"])
    if head != raw["hash"]:
        raise ValueError(f"event {seq}: its hash does not match its content")
    checked.events.append(_row(raw, seq, seat, action, False, False, head,
                               ending.line(seat, action, after), played_by=raw.get("played_by")))
    checked.ending, checked.head_hash = after, head


def _as_the_server_plays(rules, state, seat, action, automatic, seq: int) -> None:
    """Where the server plays a forced move itself the record must show that very move, marked
    automatic; elsewhere nothing is automatic. (Records of older rules versions are not held
    to today's forced moves: their engines list more actions now, the standing answers.)"""
    forced = chain.forced_move(rules, state)
    if forced is None and automatic:
        raise ValueError(f"event {seq}: marked automatic, but the seat had a choice")
    if forced is not None and (not automatic or forced[0] != seat or
                               chain.canonical(forced[1]) != chain.canonical(action)):
        raise ValueError(f"event {seq}: the server plays seat {forced[0]}'s forced move "
                         f"there, marked automatic")


def _default(rules, state, seat, action, seq: int) -> dict:
    """A deadline event: the seat's default move, and nothing else."""
    default = default_move(rules, state, seat)
    if default is None or chain.canonical(default) != chain.canonical(action):
        raise ValueError(f"event {seq}: marked as played at the deadline, but it is not the "
                         f"seat's default move")
    return default


def _row(raw, seq, seat, action, automatic, timeout, head, summaries, bot=False,
         played_by=None) -> dict:
    """An event's fields, with its lines in every language (`_kept_lines` keeps those its
    table reads)."""
    return {"seq": seq, "seat": seat, "action": action, "automatic": automatic,
            "timeout": timeout, "bot": bot, "played_by": played_by,
            **chain.stored_lines(summaries), "created_at": raw["created_at"], "hash": head}


def _kept_lines(checked: CheckedRecord) -> None:
    """The events keep their lines in the languages the record's seats read, as play does."""
    reads = {seat.get("language") or "en" for seat in checked.seats}
    for row in checked.events:
        row["summaries"] = {language: line for language, line in row["summaries"].items()
                            if language in reads}


# -- shapes ---------------------------------------------------------------------------------------

def _only_keys(obj: dict, required: set, optional: set, what: str) -> None:
    keys = set(obj)
    missing, unknown = required - keys, keys - required - optional
    if missing:
        raise ValueError(f"{what} lacks {', '.join(sorted(missing))}")
    if unknown:
        shown = ", ".join(sorted(repr(str(k)[:40]) for k in unknown)[:5])
        raise ValueError(f"{what} has keys a record does not have: {shown}")


def _no_deeper_than(obj, limit: int) -> None:
    """ValueError when `obj` nests lists and dicts deeper than `limit` (walked without
    recursion, so no depth is a RecursionError)."""
    stack = [(obj, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > limit:
                raise ValueError(f"the record is nested more than {limit} levels deep")
            stack.extend((v, depth + 1) for v in (value.values() if isinstance(value, dict)
                                                  else value))
