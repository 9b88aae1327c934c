"""Moves by answering the turn mail: a reply's use case (its address is reply_address.py's).

`handle` takes a reply parsed by pbem/mail/inbound.py: its lines are codes (one per line,
played in order, each legal at its point, so that one reply can make a whole turn) and
`say: TEXT` lines (table talk). Every move goes through `moves.act` with the seq check; either
the whole reply is played, or nothing is written and the seat gets one answer saying why.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import re
import unicodedata
from dataclasses import dataclass, field

import peewee as pw
from peewee import fn

from ..db.models import InboundMail, Link, Outbox, ReplyAddress, Seat, db, utcnow
from ..errors import Refusal
from ..games import IllegalAction
from ..games.codes import codes_of, match, normal
from ..log import store
from . import links, moves, outbox, resigning, talk
from .reply_address import hash_id
from ..validate import address_key

SAY = re.compile(r"^say\s*:\s*(.*)$", re.IGNORECASE | re.DOTALL)
RESIGN = "resign"       # a reply whose only code is this resigns (pbem/log/ending.py)
MAX_LINES = 20                        # codes and messages one reply may carry
ANSWER_EVERY = dt.timedelta(hours=1)  # at most one answer per reply address in this time
ANSWERS_PER_DAY = 6                   # ... and at most these many per player's address a day
ANSWER_KIND = "reply"                 # the outbox kind of answers (outside the daily quota)
PLAYED_KIND = "played"                # ... and of a played answer's confirmation (one a reply)
UNCOUNTED_KINDS = (ANSWER_KIND, PLAYED_KIND)
NEXT_MAILS = ("turn", "over")         # the mails that confirm a played answer themselves


# -- a reply ----------------------------------------------------------------------------------------

@dataclass
class Reply:
    """What the mail layer read from one message."""
    key: str                          # its Message-ID (or a digest of the whole message)
    sender: str                       # the From address
    reply_ids: list[str]              # the reply ids of the addresses it was sent to
    lines: list[str] = field(default_factory=list)   # the new lines above quote and signature
    automatic: str = ""               # why it is an auto-reply or a bounce ("" when it is not)
    authenticated: bool = True        # dkim=pass or spf=pass from the trusted authserv-id


class Answer(Refusal):
    """A reply that is not played: `what` says why (unknown, illegal, two_codes, turn_over,
    stale, nothing, talk, other_address), `line` the line concerned (for other_address: the
    address the answer came from)."""

    def __init__(self, what: str, line: str = "", detail: str = ""):
        super().__init__(f"{what}: {line} {detail}".strip(), 422)
        self.what, self.line, self.detail = what, line, detail


def handle(reply: Reply) -> str:
    """Play or answer one reply; the outcome in a word: played, answered, duplicate, or
    ignored: <why> (nothing written, nothing sent)."""
    if reply.automatic:
        return f"ignored: {reply.automatic}"
    bound, reply_id = _bound(reply.reply_ids)
    if bound is None:
        return "ignored: not a reply address of a turn mail"
    link = bound.link
    if link.expires_at <= utcnow():
        return "ignored: the reply address is older than its turn link's age"
    seat = Seat.get_or_none(Seat.game == link.game_id, Seat.index == link.seat)
    if seat is None or not seat.email:
        return "ignored: the seat has no address"
    key = hashlib.sha256(reply.key.encode("utf-8", "replace")).hexdigest()
    if InboundMail.select().where(InboundMail.key_hash == key).exists():
        return "duplicate"
    if address_key(seat.email) != address_key(reply.sender):
        # only the player's own address plays; the player (never the sender) hears of it
        return _answer(key, bound, seat, Answer("other_address", reply.sender), reply_id)
    if not reply.authenticated:
        return "ignored: the sender is not authenticated"
    try:
        with outbox.transaction():
            if not _first_time(key, "played"):
                return "duplicate"
            marker = Outbox.select(fn.MAX(Outbox.id)).scalar() or 0
            since = _play(link, reply.lines)
            if since is not None:
                _confirm(link, seat, reply_id, since, marker)
        return "played"
    except Answer as answer:
        return _answer(key, bound, seat, answer, reply_id)
    except store.StaleSeq:
        return _answer(key, bound, seat, Answer("stale", detail="played"), reply_id)
    except Refusal as exc:               # the game is gone, its rules are not on this server
        return f"ignored: {exc}"


def _bound(reply_ids: list[str]) -> tuple[ReplyAddress | None, str]:
    """The first reply address of ours the message was sent to, and its id."""
    for reply in reply_ids:
        found = (ReplyAddress.select(ReplyAddress, Link).join(Link)
                 .where(ReplyAddress.id_hash == hash_id(reply)).first())
        if found is not None:
            return found, reply
    return None, ""


def _first_time(key: str, outcome: str) -> bool:
    """Record the reply's key in this transaction; False when it was recorded already (the
    unique key decides between two deliveries of one message at once)."""
    try:
        with db.atomic():
            InboundMail.create(key_hash=key, outcome=outcome)
    except pw.IntegrityError:
        return False
    return True


def _play(link: Link, lines: list[str]) -> int | None:
    """Every line in order, in the caller's transaction; Answer on the first that cannot be.
    The game's seq before the first move (None for a resignation, which mails everyone)."""
    game = store.locked_game(link.game_id)
    if lines and [normal(line) for line in lines if not SAY.match(line)] == [RESIGN]:
        _resign(link, lines)
        return None
    since = game.seq
    _check_live(link, game)
    if not lines:
        raise Answer("nothing")
    if len(lines) > MAX_LINES:
        raise Answer("unknown", lines[MAX_LINES], f"at most {MAX_LINES} lines")
    played_for_you: list[str] = []     # codes of this seat's moves the server played at once
    last_codes: list[str] = []         # the codes of the last position the seat was asked in
    for line in lines:
        if _said(link, line):
            continue
        game = store.get_game(link.game_id)
        rules = store.rules_of(game)
        state = rules.load(game.state)
        asked = link.seat in rules.to_act(state)
        actions = rules.legal_actions(state, link.seat) if asked else []
        codes = codes_of(rules, rules.view(state, link.seat), actions)
        index = match(codes, line)
        if index is None and normal(line) in played_for_you:
            played_for_you.remove(normal(line))   # the player wrote a move that was forced
            continue
        if not asked:
            raise Answer("turn_over" if _any_code(last_codes, line) else "unknown", line)
        last_codes = codes
        if index is None:
            if _two_codes(codes, line):
                raise Answer("two_codes", line)
            raise Answer("illegal" if _any_code(codes, line) else "unknown", line)
        try:
            applied = moves.act(game.id, link.seat, actions[index], game.seq, link_id=link.id)
        except links.LinkError:
            raise Answer("turn_over", line) from None
        except IllegalAction as exc:
            raise Answer("illegal", line, str(exc)) from None
        played_for_you += _forced_codes(rules, applied.events, link.seat)
    return since


def _confirm(link: Link, seat: Seat, reply_id: str, since: int, marker: int) -> None:
    """A short mail that the answer was played, where no mail to the seat follows soon: not
    when this play queued its next turn mail or the result (they list the seat's own moves),
    nor when only computers are left to answer a game with no other person (their answer
    brings the next turn mail within a minute). While the seat's turn goes on (an action of
    several), it says Reply-To the same reply address, so answering it plays on. Everything
    it depends on (who is asked, who plays) is public."""
    if (Outbox.select().where(Outbox.game == link.game_id, Outbox.seat == seat.index,
                              Outbox.kind.in_(NEXT_MAILS), Outbox.id > marker).exists()):
        return
    game = store.get_game(link.game_id)
    if game.status == "over" or game.seq == since:     # over, or only say: lines (talk)
        return
    asked = store.to_act_of(game, store.rules_of(game).load(game.state))
    others = Seat.select().where(Seat.game == game.id, Seat.index != seat.index,
                                 Seat.bot_level.is_null())
    if seat.index not in asked and not others.exists():
        return
    live = Link.get_by_id(link.id).spent_at is None
    outbox.queue(game, seat.index, PLAYED_KIND, seat.email, "played", seat.language,
                 since=since, seq=game.seq, reply_token=reply_id if live else "")


def _resign(link: Link, lines: list[str]) -> None:
    """A reply that resigns (its `say:` lines posted first), through the mail of a link that
    still speaks for the seat (links.speaks_for_ending: its newest)."""
    if not links.speaks_for_ending(link):
        raise Answer("turn_over", RESIGN)
    for line in lines:
        _said(link, line)
    try:
        resigning.resign(link.game_id, link.seat)
    except resigning.EndingRefused as exc:
        raise Answer("illegal", RESIGN, str(exc)) from None


def _said(link: Link, line: str) -> bool:
    """Post a `say:` line as table talk (Answer when talk refuses it); False for other lines."""
    said = SAY.match(line)
    if said is None:
        return False
    try:
        talk.post(link.game_id, link.seat, said.group(1))
    except talk.TalkError as exc:
        raise Answer("talk", line, str(exc)) from None
    return True


def _forced_codes(rules, events, seat: int) -> list[str]:
    """The codes of the seat's own moves that the server played at once after its action
    (its only choice): a reply that names them too is still right. Only for a game whose codes
    name the action itself (its own `codes`), not its place in a list."""
    if getattr(rules, "codes", None) is None:
        return []
    forced = [e.action for e in events[1:] if e.seat == seat and e.automatic]
    return [normal(code) for code in codes_of(rules, {}, forced)] if forced else []


def _any_code(codes: list[str], line: str) -> bool:
    """Whether `line` looks like a code of this position (its first word begins one): then it
    is "not legal now" rather than "not understood"."""
    word = line.split()[0].lower() if line.split() else ""
    return any(code.split()[0].lower() == word for code in codes if code.split())


def _two_codes(codes: list[str], line: str) -> bool:
    """Whether `line` is a code of this position followed by what looks like another code:
    two moves written on one line."""
    words = line.split()
    return any(match(codes, " ".join(words[:cut])) is not None
               and _any_code(codes, " ".join(words[cut:])) for cut in range(1, len(words)))


def _check_live(link: Link, game) -> None:
    """The mail's link must still work: else the answer says the move was made or a newer
    mail was sent."""
    fresh = Link.get_by_id(link.id)
    if fresh.spent_at is not None:
        raise Answer("stale", detail=fresh.spent_reason or "played")
    if fresh.expires_at <= utcnow():
        raise Answer("stale", detail="expired")


def _answer(key: str, bound: ReplyAddress, seat: Seat, answer: Answer, reply_id: str) -> str:
    """One answer to the seat's own address, recorded with the reply's key so that the same
    message is never answered twice; at most one per reply address in ANSWER_EVERY and
    ANSWERS_PER_DAY per address, else nothing is written or sent (forged replies to an old
    address cannot fill its player's mailbox). Answers never count against the player's daily
    quota of turn mail (pbem/mail/mailer.py). While the turn mail's link still works, the
    answer says Reply-To that mail's reply address, so answering it plays as well."""
    try:
        return _answer_once(key, bound, seat, answer, reply_id, utcnow())
    except _Duplicate:
        return "duplicate"


class _Duplicate(Exception):
    """The reply's key was recorded meanwhile (the same message delivered twice at once)."""


def _answer_once(key: str, bound: ReplyAddress, seat: Seat, answer: Answer, reply_id: str,
                 now: dt.datetime) -> str:
    link = bound.link
    with outbox.transaction():
        answered = (Outbox.select().where(Outbox.kind == ANSWER_KIND,
                                          Outbox.recipient == seat.email,
                                          Outbox.created_at > now - dt.timedelta(days=1))
                    .count())
        if answered >= ANSWERS_PER_DAY:
            return f"ignored: {ANSWERS_PER_DAY} answers to this address in 24 hours"
        claimed = (ReplyAddress.update(answered_at=now)
                   .where(ReplyAddress.id == bound.id,
                          ReplyAddress.answered_at.is_null()
                          | (ReplyAddress.answered_at <= now - ANSWER_EVERY))
                   .execute())
        if not claimed:
            return "ignored: this reply address was answered less than an hour ago"
        if not _first_time(key, "answered"):
            raise _Duplicate
        game = store.get_game(link.game_id)
        live = answer.what != "stale" and Link.get_by_id(link.id).spent_at is None
        outbox.queue(game, seat.index, ANSWER_KIND, seat.email, "reply", seat.language,
                     what=answer.what, line=printable(answer.line)[:200],
                     detail=printable(answer.detail)[:300], seq=game.seq,
                     reply_token=reply_id if live else "")
    return "answered"


def printable(text: str) -> str:
    """`text` with its control characters (a NUL, which PostgreSQL cannot keep, among them)
    shown as U+FFFD: what an answer quotes of a reply."""
    return "".join("\ufffd" if unicodedata.category(c) in ("Cc", "Cs") and c not in "\t"
                   else c for c in text)
