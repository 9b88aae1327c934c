"""What a seat sees: the read models behind the turn page, the API, "your move is in", the
home page's game and the replay. Reads only; every write is a use case of pbem/play."""
from __future__ import annotations

import json
from typing import NamedTuple

from ..db.models import Event, Game, Link, Seat, utcnow
from ..db.prepared import Prepared
from ..log import ending, lines as log_lines, store, undo
from ..play import clock, links, talk
from . import fill_names, results


def turn_payload(game: Game, seat: int, state=None, seats=None) -> dict:
    """What one seat may know now: the API's answer and the turn page's content (`seats`: the
    game's seats, when the caller has read them already)."""
    rules = store.rules_of(game)
    seats = store.seats_of(game) if seats is None else seats
    state = rules.load(game.state) if state is None else state
    to_act = store.to_act_of(game, state, rules)
    return {
        "game": game.id,
        "rules": game.rules,
        "seat": seat,
        "seq": game.seq,
        "to_act": to_act,
        "deadlines": clock.deadlines(game, to_act, utcnow(), seats),
        "view": rules.view(state, seat),
        "actions": rules.legal_actions(state, seat),
        "result": store.result_of(game, state, rules),
        # who resigned, who agreed to abandon the game, whether that ended it (log/ending.py)
        "ending": ending.of(game.ending),
        "messages": talk.listing(game, store.names_of(game, seats)),
        "commitment": store.game_commitment(game),
        "undo": undo.may_undo(rules, game.undo, state, seat),
        "computers": computers_of(game, seats, to_act),
        **({"banks": clock.banks_of(game, seats)} if game.bank else {}),
    }


def computers_of(game: Game, seats: list[Seat], to_act: list[int]) -> list[int]:
    """The seats the computer plays: the computers' own, and the players' it stands in for in
    the decisions they are asked now (a missed deadline, a drop, a vacation handed to it)."""
    now = utcnow()
    return [s.index for s in seats if s.bot_level is not None or (
        s.index in to_act and clock.computer_level(game, s, clock.vacation_of(s.email), now)
        is not None)]


LOG_LINES = 80
# the seat's last own choice up to its turn's start; the latest lines (with the actions, for
# the last-move rings)
LAST_OWN_CHOICE = Prepared(Event, lambda game_id, seat, upto: Event.select(Event.seq).where(
    Event.game == game_id, Event.seat == seat, Event.automatic == False,  # noqa: E712
    Event.seq <= upto).order_by(Event.seq.desc()).limit(1))
LOG_LINES_OF = Prepared(Event, lambda game_id: Event.select(
    Event.seq, Event.seat, Event.automatic, Event.action.alias("action_json"), Event.summary,
    Event.summaries).where(Event.game == game_id).order_by(Event.seq.desc()).limit(LOG_LINES))


class _Stored(NamedTuple):
    """An event's line as stored: what log_lines.texts reads."""
    seq: int
    summary: str
    summaries: dict | None      # read only for a language other than English


class LogLine(NamedTuple):
    seq: int
    seat: int | None
    automatic: bool
    action: dict | None     # only on the lines that are new to the seat (for the rings)


def game_log(game, seat, names, language, turn_start=None):
    """The latest public lines, newest first, as (event, text, new): `new` marks what others
    did since this seat's previous turn (the events of seq 0 and the seat's own choices are
    never "new")."""
    turn_start = game.seq if turn_start is None else turn_start
    since = LAST_OWN_CHOICE.value(game.id, seat, turn_start) or 0
    lines = []
    # the database's own tuples, 80 of them a page: a JSON column is decoded only where read
    rows = LOG_LINES_OF.tuples(game.id)
    stored = [_Stored(seq, summary, json.loads(summaries) if language != "en" and summaries
                      else None) for seq, _seat, _auto, _action, summary, summaries in rows]
    for (seq, by, automatic, action, _s, _l), text in zip(rows, log_lines.texts(game, stored,
                                                                                language)):
        new = seq > since and seq > 0 and not (by == seat and not automatic)
        lines.append((LogLine(seq, by, bool(automatic), json.loads(action) if new else None),
                      fill_names(text, names), new))
    return lines


def done_lines(game, since_seq, names, language, until_others=False) -> list[str]:
    """What the events from `since_seq` on said: the player's action and what it set off
    (`until_others`: up to the next choice another player made)."""
    events = game.events.where(Event.seq >= since_seq).order_by(Event.seq)
    taken, first = [], None
    for e in events.limit(LOG_LINES):
        first = e.seat if first is None else first
        if until_others and e.seat != first and not e.automatic:
            break
        taken.append(e)
    return [fill_names(text, names) for text in log_lines.texts(game, taken, language)]


def turn_began(game, seat: int, last_seq: int) -> int:
    """The seq of the first of `seat`'s own actions in the run that ends at `last_seq` (the
    actions of its turn, with the forced moves between them, back to another player's choice):
    where the "What your move did" of a finished turn begins."""
    start = last_seq
    earlier = (game.events.where(Event.seq < last_seq, Event.seq > 0)
               .order_by(Event.seq.desc()).limit(LOG_LINES))
    for e in earlier:
        if e.seat == seat and not e.automatic:
            start = e.seq
        elif not e.automatic:
            break
    return start


def newer_mailed(game, link: Link):
    """When the seat's newest link was issued, if it is newer than `link`; else None."""
    newest = links.newest(game.id, link.seat)
    return newest.created_at if newest is not None and newest.id > link.id else None


def is_dropped(game: Game, seat: int) -> bool:
    """Whether the seat plays by default moves now (its player stopped answering)."""
    return (Seat.select().where(Seat.game == game, Seat.index == seat,
                                Seat.dropped == True).exists())  # noqa: E712


def link_is_spent(link_id: int) -> bool:
    return Link.get_by_id(link_id).spent_at is not None


SEAT_LANGUAGE = Prepared(Seat, lambda game_id, index: Seat.select(Seat.language)
                         .where(Seat.game == game_id, Seat.index == index).limit(1))


def language_of(game_id: int, index: int) -> str | None:
    """The language a seat was invited in (None for an unknown seat)."""
    return SEAT_LANGUAGE.value(game_id, index)


def home_entries(seats: list[Seat]) -> list[dict]:
    """The home page's games, one for each of the address's `seats` (their games joined): the
    seats of all those games and the messages from others read in one query each."""
    if not seats:
        return []
    games = sorted({seat.game_id for seat in seats})
    table: dict[int, list[Seat]] = {game: [] for game in games}
    for other in Seat.select().where(Seat.game.in_(games)).order_by(Seat.game, Seat.index):
        table[other.game_id].append(other)
    messages = talk.from_others_in(seats)
    return [home_entry(seat, table[seat.game_id], messages[(seat.game_id, seat.index)])
            for seat in seats]


def home_entry(seat: Seat, seats: list[Seat] | None = None, messages: int | None = None) -> dict:
    """One game of the home page: who plays, whose turn, the result (`seats`: the game's,
    `messages`: how many are from others, when the caller read them)."""
    game = seat.game
    rules = store.rules_of(game)
    state = rules.load(game.state)
    names = store.names_of(game, seats)
    to_act = store.to_act_of(game, state, rules)
    result = store.result_of(game, state, rules)
    asked = seat.index in to_act and game.status == "running"
    in_force = clock.clock_of(game, seat) if asked else None
    return {"game": game, "seat": seat.index, "names": names, "to_act": to_act,
            "running": game.status == "running", "your_turn": seat.index in to_act,
            "deadline": in_force.deadline if in_force else None,
            "held": in_force.held if in_force else None,
            "away_until": in_force.away_until if in_force else None,
            "dropped": bool(seat.dropped) and game.status == "running",
            "summary": results.summary(result, names) if result else None,
            "messages": talk.from_others(game, seat.index) if messages is None else messages}


def board(game: Game, seat: int | None, state=None, seq: int | None = None,
          seats: list[Seat] | None = None) -> dict:
    """What a read-only page shows of the game for `seat` (None: a spectator): the board as that
    seat sees it, who is to act, the result — the one builder behind "your move is in", the home
    page's game, the game page and the replay (`state`, `seq`: a replay's step)."""
    from . import presenter_for
    rules = store.rules_of(game)
    state = rules.load(game.state) if state is None else state
    names = store.names_of(game, seats)
    if seq is None or seq >= game.seq:     # the game now: how its players ended it counts
        to_act, result = store.to_act_of(game, state, rules), store.result_of(game, state, rules)
    else:
        to_act, result = rules.to_act(state), rules.result(state)
    return dict(game=game, seat=seat, rules=rules, names=names, view=rules.view(state, seat),
                presenter=presenter_for(game.rules), to_act=to_act, result=result,
                summary=results.summary(result, names, presenter_for(game.rules)), choices=[],
                read_only=True,
                commitment=store.game_commitment(game),
                payload={"seq": game.seq if seq is None else seq, "to_act": to_act,
                         "actions": [], "result": result})
