"""The daily digest: for an address that chose one mail a day, every game waiting for it, each
with a fresh turn link, what happened since and the messages, once a day after its chosen
hour (the pace pass runs `digest_pass`)."""
from __future__ import annotations

from ..db.models import Outbox, Seat
from ..games import RULES
from . import home, outbox, talk
from .keys import keys


def digest_pass(now) -> int:
    """Send each address on a daily digest its digest, once a day after its chosen hour;
    race-free (the day is claimed with a conditional update). The number of digests queued."""
    queued = 0
    for settings in home.digest_due(now):
        with outbox.transaction():
            if home.claim_digest(settings, now):
                queued += send_digest(settings.email) is not None
    return queued


def send_digest(address: str) -> Outbox | None:
    """One mail listing every game waiting for `address`, each with a fresh turn link, what
    happened since and the messages; nothing when no game waits (inside a transaction)."""
    entries, language = [], None
    for seat in home.seats_of(address):
        game = seat.game
        rules = RULES.get(game.rules)
        if game.status != "running" or rules is None:
            continue
        state = rules.load(game.state)
        if seat.index not in rules.to_act(state):
            continue
        language = language or seat.language
        token = keys().issue(game, seat.index)
        entries.append({"game": game.id, "seat": seat.index, "token": token, "seq": game.seq,
                        "since": seat.seen_seq, "talk": talk.mark_mailed(game, seat),
                        "reminder": seat.reminded_at is not None})
        Seat.update(seen_seq=game.seq).where(Seat.id == seat.id).execute()
    if not entries:
        return None
    return outbox.queue(None, None, "digest", address, "digest", language or "en",
                        entries=entries)
