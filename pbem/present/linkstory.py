"""What happened to a turn link, for its pages: how it stopped (a move by its player, a move
played for them, a newer link and where that came from, the host's revoke, its age), and what
the seat can do now (wait, come back, ask for a fresh link). Every sentence the link pages say
is chosen from this, so none is said that did not happen: "emailed" only for a link that went
by mail, "we email you" only to an address that gets mail.
"""
from __future__ import annotations

from ..db.models import Event, Game, Link, Seat, utcnow
from ..log import store
from ..play import home, limits, links, optout

MAILED = ("mail", "renew", "resend", "revoke")


def story(game: Game | None, link: Link | None, reason: str = "") -> dict:
    """The facts the link pages speak from (`reason`: the LinkError's, when there is one)."""
    told = {"ended": None, "ended_at": None, "replaced_by": None, "newer": None,
            "now": None, "waiting_for": [], "dropped": False, "handed_over": False,
            "computer": False,
            "missed": 0, "opted_out": False, "digest": False, "renewable": False,
            "back": False, "seen_upto": None, "computers_only": False, "play_on": False}
    if game is None or link is None:
        told["ended"] = reason or None
        return told
    seat = Seat.get_or_none(Seat.game == game, Seat.index == link.seat)
    email = seat.email if seat is not None else ""
    told["opted_out"] = optout.is_opted_out(email)
    told["digest"] = home.wants_digest(email)
    if link.source in links.ASIDE:
        pass                # a drop mail's or an ask's link: it never acted, nothing of it ended
    elif link.spent_at is not None:
        told["ended_at"] = link.spent_at
        if link.spent_reason == "replaced":
            told["ended"], told["replaced_by"] = "replaced", link.spent_by or "mail"
        elif link.spent_reason in ("revoked", "resigned"):
            told["ended"] = link.spent_reason
        elif link.spent_reason == "turn_over" and game.status == "over" and \
                link.spent_by in ("", "forced"):
            told["ended"] = "over"
        else:       # played (or the last move of the game): who made it
            told["ended"] = link.spent_by or "other"
        told["seen_upto"] = links.seen_upto(link)
    elif link.expires_at <= utcnow() or reason == "expired":
        told["ended"], told["ended_at"] = "expired", link.expires_at
    newest = links.newest(game.id, link.seat)
    if newest is not None and newest.id > link.id:
        told["newer"] = {"source": newest.source or "mail", "at": newest.created_at,
                         "live": newest.spent_at is None and newest.expires_at > utcnow(),
                         "mailed": (newest.source or "mail") in MAILED and not told["opted_out"]}
    if seat is not None and seat.dropped and game.status == "running":
        told["dropped"] = True
        told["missed"] = seat.missed
        # under "wait" only the host drops a seat (a hand-over before migration 015 left no
        # mark); under "bot" the computer plays a dropped seat's moves, not its defaults
        told["handed_over"] = bool(seat.handed_over) or game.on_timeout == "wait"
        told["computer"] = game.on_timeout == "bot"
    if game.status != "running":
        told["now"] = "over"
        return told
    rules = store.rules_of(game)
    to_act = rules.to_act(store.state_of(game))
    names = store.names_of(game)
    told["waiting_for"] = [names[s] for s in to_act if s != link.seat]
    told["now"] = "your_turn" if link.seat in to_act else "waiting"
    _against_the_computer(told, game, link)
    if told["now"] == "your_turn" and not told["opted_out"]:
        told["renewable"] = limits.fresh_link_refusal(game, link.seat, to_act,
                                                      through=link) is None
    told["back"] = told["dropped"] and told["ended"] not in ("revoked", "expired") and \
        (told["newer"] is None or links.speaks_for_seat(link))
    return told


def _against_the_computer(told: dict, game: Game, link: Link) -> None:
    """In a game against the computer alone, the page waits for its answer (it looks again
    while the computer thinks), then plays on."""
    others = [s for s in store.seats_of(game) if s.index != link.seat]
    solo = bool(others) and all(s.bot_level is not None for s in others)
    told["computers_only"] = solo and told["now"] == "waiting"
    told["play_on"] = solo and told["now"] == "your_turn" and may_play_on(link)


def may_play_on(link: Link) -> bool:
    """Whether this link's page may open the seat's turn again at once: a game against the
    computer alone (the caller checks), the link spent by its own player's move, and no newer
    link of the seat made since but by the server after that move (the mail of the turn that
    came back), so that an old or forwarded link cannot."""
    if _waited_for_the_opening(link):
        return True
    if link.spent_at is None or link.spent_reason not in ("played", "turn_over"):
        return False
    if link.spent_by != "you" and not (link.spent_by == "forced" and _moved_through(link)):
        return False
    newest = links.newest(link.game_id, link.seat)
    return newest is None or newest.id == link.id or (
        (newest.source or "mail") == "mail" and newest.created_at >= link.spent_at)


def _waited_for_the_opening(link: Link) -> bool:
    """The page a solo game's player landed on while the computer opened the game: its link
    (never mailed) was replaced by the turn mail of their first turn, now the seat's newest."""
    if link.source != "play_now" or link.spent_reason != "replaced" or link.spent_by != "mail":
        return False
    newest = links.newest(link.game_id, link.seat)
    return newest is not None and (newest.source or "mail") == "mail" and \
        newest.spent_at is None and newest.created_at >= link.spent_at and \
        not _moved(link)


def _moved_through(link: Link) -> bool:
    """Whether the seat's player moved while the link was live (the server then played their
    lone options, which spent it): a link nobody used never opens a turn."""
    return link.spent_seq is not None and _moved(link, link.turn_seq, link.spent_seq)


def _moved(link: Link, after: int = -1, upto: int | None = None) -> bool:
    """Whether the link's seat made a move of its own (not forced, not a default) in the
    game's moves `after` < seq <= `upto` (all of them by default)."""
    query = Event.select(Event.seq).where(
        Event.game == link.game_id, Event.seat == link.seat, Event.seq > after,
        Event.automatic == False, Event.timeout == False)  # noqa: E712
    if upto is not None:
        query = query.where(Event.seq <= upto)
    return query.exists()


# -- the read-only pages of a link that no longer acts: the game as it stood then -------------------

def board_at(game: Game, seat: int, seq: int) -> dict:
    """The seat's read-only board after move `seq` (rebuilt from the log)."""
    from . import replay as replaying
    from . import seat as seat_view
    state, _event = replaying.state_at(game, seq)
    return seat_view.board(game, seat, state, seq=seq)


def log_until(lines: list, upto: int | None) -> list:
    """A seat's log lines (`seat.game_log`) up to move `upto` (all of them for None)."""
    return lines if upto is None else [line for line in lines if line[0].seq <= upto]


def messages_until(messages: list[dict], link: Link, upto: int | None) -> list[dict]:
    """The table talk a link's page shows: up to when the link stopped, for one that did."""
    if upto is None or link.spent_at is None:
        return messages
    until = link.spent_at.replace(microsecond=0).isoformat() + "Z"
    return [m for m in messages if m["at"] <= until]
