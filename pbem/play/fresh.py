"""Fresh links: asked for by a player whose link expired or was spent (renew), mailed by the
host (resend), opened from the home page (play now), and the home link itself. Each holds the
game's lock, so parallel requests give one mail and leave one live link."""
from __future__ import annotations


from ..db.database import is_sqlite, write_transaction
from ..db.models import HomeRequest, Link, Outbox, Seat, utcnow
from ..log import ending, store
from . import announce, home, limits, links, optout, outbox
from .limits import Refused
from ..validate import address_key
from .keys import keys


def renew(link: Link) -> None:
    """Mail a fresh link to the seat of `link` (a player's request); Refused when the limiter
    or the game says no."""
    with outbox.transaction():
        game = store.locked_game(link.game_id)
        rules = store.rules_of(game)
        refusal = limits.fresh_link_refusal(game, link.seat, rules.to_act(store.state_of(game)),
                                            through=link)
        if refusal is not None:
            raise refusal
        with links.issued_by("renew"):
            announce.turn_mail(game, Seat.get(Seat.game == game, Seat.index == link.seat),
                               kind="link")


def resend(game_id: int, seat: int) -> None:
    """The host mails a fresh link to a seat that is to act (spending its older links); a seat
    not to act is left alone."""
    with outbox.transaction():
        game = store.locked_game(game_id)      # two resends at once: one mail
        rules = store.rules_of(game)
        to_act = rules.to_act(store.state_of(game))
        if game.status != "running" or seat not in to_act or \
                seat in ending.resigned(game.ending):
            return
        refusal = limits.fresh_link_refusal(game, seat, to_act)
        if refusal is not None:
            raise refusal
        with links.issued_by("resend"):
            announce.turn_mail(game, Seat.get(Seat.game == game, Seat.index == seat),
                               kind="link")


def play_now(game_id: int, seat: int) -> str | None:
    """A fresh turn link for a seat that is to act, opened at once from the home page (the
    mailed one is spent); None when the seat is not to act."""
    with outbox.transaction():
        game = store.locked_game(game_id)
        rules = store.rules_of(game)
        if game.status != "running" or seat not in rules.to_act(rules.load(game.state)) or \
                seat in ending.resigned(game.ending):
            return None
        return keys().issue(game, seat, source="play_now")


def open_first_turn(game_id: int) -> tuple[str, bool] | None:
    """A game against the computer alone, just started by its one player from the web (its
    host): their first turn opened at once on the page they are on, so its turn mail, not sent
    yet, is dropped (the host's mail is the one mail of the start). The link's token, and
    whether its seat acts now; when the computer opens, the link's page waits for its answer
    and then plays on (linkstory.may_play_on). None for any other game."""
    with outbox.transaction():
        game = store.locked_game(game_id)
        people = [s for s in Seat.select().where(Seat.game == game) if s.bot_level is None]
        rules = store.rules_of(game)
        if len(people) != 1 or address_key(people[0].email) != address_key(game.host_email):
            return None
        seat = people[0].index
        if seat not in rules.to_act(rules.load(game.state)):
            return keys().issue(game, seat, source="play_now"), False
        (Outbox.delete().where(Outbox.game == game, Outbox.seat == seat,
                               Outbox.template == "turn", Outbox.sent_at.is_null(),
                               Outbox.attempts == 0)
         .execute())
        return keys().issue(game, seat, source="play_now"), True


def ask_home_link(address: str, language: str) -> None:
    """/me: the same one write for every address, and the answer goes at once; whether the
    address plays here is looked up by the mail worker (`answer_home_requests`), so neither
    the answer nor its time tells. An address asked again before that is one request."""
    with write_transaction():
        (HomeRequest.insert(email=address_key(address), language=language,
                            requested_at=utcnow())
         .on_conflict_ignore().execute())


def answer_home_requests(limit: int = 100) -> int:
    """Take the waiting /me requests (each once, whatever the workers) and mail the home link
    to those of them that play here; the number of requests taken."""
    with outbox.transaction():
        query = HomeRequest.select().order_by(HomeRequest.id).limit(limit)
        if not is_sqlite():
            query = query.for_update(skip_locked=True)
        requests = list(query)
        if not requests:
            return 0
        HomeRequest.delete().where(HomeRequest.id.in_([r.id for r in requests])).execute()
        for request in requests:
            home_link(request.email, request.language)
    return len(requests)


def home_link(address: str, language: str) -> None:
    """Mail the home link to an address that plays here, at most once per interval (parallel
    requests for one address wait for each other); nothing for an address without games. The
    mail speaks the language of the address's latest game, else `language`."""
    with outbox.transaction():
        limits.serialize("home", address)
        seats = home.seats_of(address)
        if seats and not limits.home_link_refused(address):
            announce.home_link(address, seats[0].language or language)


def new_home_link(address: str, language: str) -> bool:
    """"Send me a new link; old ones stop": every home link of the address issued so far stops
    (410) and a fresh one is mailed to the address itself, never shown (whoever pressed it may
    hold a forwarded mail). At most once per PBEM_RENEW_INTERVAL: a second press within it
    changes nothing (False), so the link mailed at the first stays the one that works."""
    with outbox.transaction():
        if not home.renew_generation(address, unless_since=utcnow() - limits.interval()):
            return False
        announce.home_link(address, language)
        return True


def revoke(game, seat: int) -> str:
    """The host stops the seat's links: every turn link of the seat is spent, every home link
    of its address stops, and fresh ones go to the seat's address (a turn mail with a new link
    when the seat is to act, else a mail with the new home link; each mail's footer carries the
    new home link). What was mailed: "turn", "home" or "" (an address that opted out)."""
    with outbox.transaction():
        game = store.locked_game(game.id)
        row = Seat.get_or_none(Seat.game == game, Seat.index == seat)
        if row is None:
            return ""
        links.revoke(game, seat)
        if row.email:
            home.renew_generation(row.email)
        if optout.is_opted_out(row.email):
            return ""
        to_act = store.rules_of(game).to_act(store.state_of(game))
        if game.status == "running" and seat in to_act and not row.dropped:
            with links.issued_by("revoke"):
                announce.turn_mail(game, row, kind="link")
            return "turn"
        announce.home_link(row.email, row.language)
        return "home"


__all__ = ["Refused", "answer_home_requests", "ask_home_link", "home_link", "new_home_link",
           "play_now", "renew", "resend", "revoke"]
