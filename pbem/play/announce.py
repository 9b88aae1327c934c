"""Who must hear of a change, and what each is sent: outbox rows, in the caller's transaction.

After every change the seats now asked get a fresh link and a turn mail, the links of the seats
whose turn ended are spent, and at the end everyone hears the result. The rows say what to send
(a template and its context); pbem/mail/compose.py renders them outside the game's lock.
"""
from __future__ import annotations


from ..db.models import Game, Outbox, Seat, utcnow
from ..log import ending, store
from . import clock, home, links, optout, outbox, reply_address, talk, webhooks
from .keys import keys
from ..validate import address_key


def _seats(game: Game) -> list[Seat]:
    return list(game.seats.order_by(Seat.index))


def game_created(game: Game, host_token: str | None = None) -> None:
    """Invite every player but the host (who made the game: the host's mail says it, and no
    one is invited by themselves); give the host the game's host link."""
    seats = _seats(game)
    host = address_key(game.host_email)
    for seat in seats:
        if host and address_key(seat.email) == host:
            continue
        outbox.queue(game, seat.index, "invite", seat.email, "invite", seat.language)
    if game.host_email:
        host_link(game, host_token, seats)


def host_link(game: Game, host_token: str | None = None, seats: list[Seat] | None = None,
              kind: str = "host") -> None:
    """The host's page link, to the host's address (at creation, when it is issued anew, or
    asked for from the host's home page: `kind` "host-link"). The row keeps no token: the
    mail is rendered with the game's live host link (links.host_token), as every host mail is."""
    seats = _seats(game) if seats is None else seats
    outbox.queue(game, None, kind, game.host_email, "host",
                 seats[0].language if seats else "en")


def _host_language(game: Game) -> str:
    first = game.seats.order_by(Seat.index).first()
    return first.language if first else "en"


def after_change(game: Game, rules, state, before: list[int],
                 seats: list[Seat] | None = None, at=None) -> None:
    """Spend the links of seats whose turn ended; mail a link to each seat now to act;
    tell everyone when the game is over (`seats`: read under the game's lock by the caller;
    `at`: the moment of the change, when not now)."""
    now = rules.to_act(state)
    links.spend(game, [s for s in before if s not in now], "played")
    seats = _seats(game) if seats is None else seats
    over = store.result_of(game, state, rules) is not None
    webhooks.after_change(game, before, now, over, seats)
    if over:
        links.spend(game, range(game.players), "turn_over")
        for seat in seats:
            outbox.queue(game, seat.index, "over", seat.email, "over", seat.language,
                         seq=game.seq, since=seat.seen_seq, talk=talk.mark_mailed(game, seat))
        return
    if game.paused_at is not None and clock.nobody_plays(seats):
        return                  # nobody is asked anything until the host resumes the game
    resigned = ending.resigned(game.ending)
    for index in now:       # a computer gets no mail, nor does a player who resigned
        if index not in before and seats[index].bot_level is None and index not in resigned:
            turn_mail(game, seats[index], now=at)


def turn_mail(game: Game, seat: Seat, kind: str = "turn", now=None, **extra) -> str | None:
    """Issue a fresh link for `seat` and queue its mail: what happened since its last turn, the
    board, what is asked (`kind`: turn, reminder, link — a fresh link asked for — or restored,
    after a restore, with `restored_to` in `extra`, the mail's context). A player on
    a daily digest gets no turn or reminder mail of its own unless the deadline would pass
    before the next digest (`mailed_now`): the digest lists the game (and issues its link)."""
    if kind in ("turn", "reminder") and not mailed_now(game, seat, now or utcnow()):
        return None
    token = keys().issue(game, seat.index)
    if reply_address.enabled():           # the mail's Reply-To, bound to this link
        reply_address.bind(links.newest(game.id, seat.index).id, token)
    first = kind == "turn" and game.pace_days is not None and not (
        Outbox.select().where(Outbox.game == game, Outbox.seat == seat.index,
                              Outbox.template == "turn").exists())
    outbox.queue(game, seat.index, kind, seat.email, "turn", seat.language,
                 token=token, seq=game.seq, since=seat.seen_seq, dropped=bool(seat.dropped),
                 clock_rules=first,
                 warn_drop=one_miss_from_drop(game, seat), talk=talk.mark_mailed(game, seat),
                 **extra)
    Seat.update(seen_seq=game.seq).where(Seat.id == seat.id).execute()
    seat.seen_seq = game.seq
    return token


def mailed_now(game: Game, seat: Seat, now) -> bool:
    """Whether a turn or a reminder for `seat` is mailed now. Always for a player mailed per
    turn. A digest reader's waits for the next digest, which lists the game with its deadline
    (a reminder rides in it too), unless the deadline in force would pass before that digest
    goes out: then it is mailed at once. A clock that stands still waits for the digest."""
    settings = home.digest_settings(seat.email)
    if settings is None:
        return True
    in_force = clock.clock_of(game, seat, now)
    if in_force is None or in_force.deadline is None or in_force.held is not None:
        return False
    return in_force.deadline <= home.next_digest_at(settings, now)


def mail_waiting_games(address: str) -> int:
    """Back to one mail per turn: mail each game waiting for `address` now, with a fresh link
    (inside a transaction); the number mailed."""
    mailed = 0
    for seat in home.seats_of(address):
        if seat.game.status != "running":
            continue
        game = store.locked_game(seat.game_id)
        rules = store.rules_of(game)
        if seat.index in rules.to_act(rules.load(game.state)):
            mailed += turn_mail(game, Seat.get_by_id(seat.id)) is not None
    return mailed


def opted_out(address: str) -> None:
    """`address` stopped all mail: the host of each game in which it is to act is told."""
    for seat in home.seats_of(address):
        game = seat.game
        if game.status != "running" or not game.host_email:
            continue
        rules = store.rules_of(game)
        if seat.index in rules.to_act(rules.load(game.state)):
            host_notice(game, seat, "optout")


def one_miss_from_drop(game: Game, seat: Seat) -> bool:
    """Whether the seat's next missed deadline has its moves played for it from then on."""
    return (game.on_timeout == "auto" and game.pace_days is not None and not seat.dropped
            and seat.missed == game.drop_after - 1)


def dropped(game: Game, seat: Seat, missed: int, by_host: bool = False) -> None:
    """Tell the player at once that their moves are played for them from now on (`by_host`:
    the host handed them over), with a link of its own that brings them back: it, and every
    link sent after it, answer "I am back" (links.speaks_for_seat, links.issue_back)."""
    if not seat.email or optout.is_opted_out(seat.email):
        return
    token = keys().issue_back(game, seat.index)
    outbox.queue(game, seat.index, "dropped", seat.email, "dropped", seat.language,
                 token=token, missed=missed, by_host=by_host)


def asked_to_abandon(game: Game, seats: list[Seat], by: int) -> None:
    """Ask every other player still in the game to agree to abandon it (`by` proposed it),
    each with a link of its own that answers (links.ASKED) and reads the game."""
    computers = [s.index for s in seats if s.bot_level is not None]
    for index in ending.voters(game.ending, game.players, computers):
        seat = seats[index]
        if index == by or not seat.email or optout.is_opted_out(seat.email):
            continue
        outbox.queue(game, index, "abandon-asked", seat.email, "abandon_asked", seat.language,
                     token=keys().issue_asked(game, index), by=by, seq=game.seq)


def more_time(game: Game, seat: Seat, deadline) -> None:
    """Tell the player the host gave them more time, and their new deadline."""
    outbox.queue(game, seat.index, "more-time", seat.email, "host_more_time", seat.language,
                 deadline=deadline.replace(microsecond=0).isoformat())


def given_back(game: Game, seat: Seat) -> None:
    """Tell the player the host took back the hand-over: they play their own moves again."""
    outbox.queue(game, seat.index, "given-back", seat.email, "host_given_back", seat.language)


def host_notice(game: Game, seat: Seat, what: str) -> None:
    """Tell the host that a seat ran late (`late`: they choose what happens, on the host page)
    or was dropped to default moves (`dropped`), naming the player."""
    if not game.host_email:
        return
    outbox.queue(game, None, f"host-{what}", game.host_email, "host_notice",
                 _host_language(game), what=what, seat=seat.index)


def signup_confirmation(signup, link: str) -> None:
    """The one mail /new sends in production: to the host's own address, with the link whose
    page starts the game. Nobody else is mailed until the host confirms."""
    outbox.queue(None, None, "confirm", signup.host_email, "confirm", signup.language,
                 signup=signup.id, link=link)


def home_link(address: str, language: str) -> None:
    """The link to the page of all the address's games."""
    outbox.queue(None, None, "home", address, "home", language)
