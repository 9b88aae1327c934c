"""The turn page: GET only renders (mail scanners fetch links), POST acts."""
from __future__ import annotations


from flask import Blueprint, jsonify, redirect, render_template, request
from flask_babel import gettext as _

from ..play import clock, fresh, home, limits, links, moves, pace, rematch, resigning, talk
from ..log import store, undo as undoing
from ..games import IllegalAction
from ..games.base import current_language
from .. import present
from ..present import linkstory
from ..present import seat as seat_view
from ..present import endings, results, times
from . import pagecache
from .common import (check_link, check_link_to_act, check_readable, check_signed, parse_seq)
from ..inputs import ascii_int, parse_json
from ..present import presenter_for
from ..play.keys import keys

bp = Blueprint("turn", __name__)


@bp.errorhandler(links.LinkError)
def link_error(exc: links.LinkError):
    return render_link_error(exc), exc.status


def render_link_error(exc: links.LinkError):
    """What happened to the link and what its seat can do now (pbem/present/linkstory.py)."""
    game, told = None, None
    if exc.game_id is not None:
        game = store.find_game(exc.game_id)
    if game is not None and exc.status == 410:
        link = exc.link or keys().find((request.view_args or {}).get("token", ""))
        if link is not None:
            told = linkstory.story(game, link, exc.reason)
    return render_template("link_error.html", error=exc, game=game, told=told,
                           readable=game is not None and _readable(request.view_args or {}))


def renew_refusal(game, link, to_act: list[int]):
    """Why a fresh link asked for through `link` would not be mailed (limits.Refused), or None
    when it would: the renew route's one test, which the pages obey before they offer it."""
    return limits.fresh_link_refusal(game, link.seat, to_act, through=link)


def _readable(args) -> bool:
    """Whether the page's token still opens the seat's read-only pages."""
    try:
        check_readable(args.get("token", ""))
    except links.LinkError:
        return False
    return True


def page(game, seat, state=None, message=None, error=None, status=200, done=None,
         turn_start=None, seats=None):
    """The seat's turn page: board, public facts, hidden holdings, actions and the log.
    `done`: lines saying what the player's last action did; `turn_start`: the seq at which
    the seat's current turn began (what came before it since their last turn is new)."""
    seats = store.seats_of(game) if seats is None else seats
    rules = store.rules_of(game)
    state = rules.load(game.state) if state is None else state
    payload = seat_view.turn_payload(game, seat, state, seats)
    names = store.names_of(game, seats)
    presenter = presenter_for(game.rules)
    choices = present.choices(
        presenter, payload["actions"], payload["view"],
        lambda a: present.fill_names(rules.describe(state, seat, a), names))
    pick = request.args.get("pick")
    if pick is not None and pick not in choices.firsts:
        pick, status = None, 400
        error = _("That piece cannot be chosen now: choose again.")
    language = current_language()
    log = seat_view.game_log(game, seat, names, language, turn_start)
    # the board rings what the others did since this seat's previous turn (the log's new lines)
    last_moves = presenter.last_moves(
        present.others_actions([e for e, _text, new in log if new], seat), payload["view"])
    # the link is the seat's: its deadlines are also written in the zone its address chose
    address = next((s.email for s in seats if s.index == seat), "")
    with times.reading_in(home.time_zone_of(address)):
        return render_template("turn.html", game=game, seat=seat, names=names,
                               payload=payload, view=payload["view"], presenter=presenter,
                               choices=choices, log=log, last_moves=last_moves, pick=pick,
                               message=message, error=error, done=done or [],
                               messages=payload["messages"],
                               summary=results.summary(payload["result"], names, presenter),
                               clocks=clock.clocks(game, payload["to_act"], seats=seats),
                               ending=endings.box(game, seat, seats, names),
                               token=request.view_args["token"]), status


def _done_since(game, names, until_others=False) -> list[str] | None:
    """The lines of `?done=N`: what the player's last action set off."""
    since = _query_int("done")
    if since is not None and 0 < since <= game.seq:
        return seat_view.done_lines(game, since, names, current_language(), until_others)
    return None


@bp.get("/turn/<token>")
def show(token):
    access = check_link(token)
    game = store.get_game(access.game_id)
    seats = store.seats_of(game)
    return pagecache.answer(
        pagecache.seat_validator(game, access.link, seats),
        lambda: page(game, access.seat, done=_done_since(game, store.names_of(game, seats)),
                     turn_start=access.link.turn_seq, seats=seats))


@bp.get("/turn/<token>/done")
def done(token):
    """Where the game stands for this seat, from any link it was sent (spent or not): the page
    a finished turn lands on, so a reload or a later visit never meets "link used". While this
    very link may still act, it is the turn page itself."""
    access = check_readable(token)
    game = store.get_game(access.game_id)
    if access.link.spent_at is None and game.status == "running" and \
            access.seat in store.rules_of(game).to_act(store.state_of(game)):
        return redirect(f"/turn/{token}", code=303)
    return seat_page(game, access, already=False)


@bp.post("/turn/<token>/rematch")
def ask_rematch(token):
    """Anyone at a finished game's table, from any link they were sent: the rematch (made now,
    its invitations mailed, or the one made already) and its page."""
    access = check_readable(token)
    new, _made = rematch.ask(access.game_id, access.seat)
    return redirect(f"/games/{new.id}?rematch=1", code=303)


@bp.get("/turn/<token>/end")
def end(token):
    """The seat's page to end the game together: who resigned, the proposal to abandon it and
    who agreed, and the forms, for a link that may speak for the seat (else it only reads)."""
    access = check_readable(token)
    game = store.get_game(access.game_id)
    seats = store.seats_of(game)
    names = store.names_of(game, seats)
    return render_template("ending.html", game=game, seat=access.seat, names=names,
                           token=token, ending=endings.box(
                               game, access.seat, seats, names,
                               links.speaks_for_ending(access.link)))


@bp.post("/turn/<token>/resign")
def resign(token):
    """Resign (a form that says `confirm=yes`), through a link that still speaks for the seat
    (links.speaks_for_ending: its newest, or the one that asked it to agree to abandon the
    game); then the seat's page, which says so. The rulings: pbem/log/ending.py."""
    check_signed(token)
    access = keys().check_ending(token)
    if request.form.get("confirm") != "yes":
        raise resigning.EndingRefused(_("Tick the box to confirm that you resign."), 400)
    resigning.resign(access.game_id, access.seat)
    return redirect(f"/turn/{token}/done", code=303)


@bp.post("/turn/<token>/abandon")
def abandon(token):
    """Propose or agree to abandon the game (`agree=yes`), or decline (`agree=no`), through a
    link that still speaks for the seat; then back to the page it came from."""
    check_signed(token)
    access = keys().check_ending(token)
    agree = request.form.get("agree")
    if agree not in ("yes", "no"):
        raise resigning.EndingRefused(_("Choose whether you agree to abandon the game."), 400)
    resigning.abandon(access.game_id, access.seat, agree == "yes")
    return redirect(f"/turn/{token}/done", code=303)


@bp.post("/turn/<token>/play-on")
def play_on(token):
    """Against the computer alone, the seat's turn opened again from the page its own move
    landed on (linkstory.may_play_on), without a trip to the mailbox; else back to that page."""
    access = check_readable(token)
    game = store.get_game(access.game_id)
    fresh_token = (fresh.play_now(game.id, access.seat)
                   if linkstory.story(game, access.link)["play_on"] else None)
    if fresh_token is None:
        return redirect(f"/turn/{token}/done", code=303)
    return redirect(f"/turn/{fresh_token}", code=303)


def seat_page(game, access, already: bool, status: int = 200):
    """The seat's read-only page: its move is in (or a newer link was mailed), the board, what
    the move did, whose turn it is, and the way to the replay. A link that no longer acts shows
    the game as it stood when it stopped (what its seat saw then), not the seat's holdings now:
    a forwarded or old mail must not keep showing them."""
    told = linkstory.story(game, access.link)
    upto = told["seen_upto"] if game.status == "running" else None
    if upto is not None and upto < game.seq:
        board = linkstory.board_at(game, access.seat, upto)
    else:
        board = seat_view.board(game, access.seat)
        upto = None
    names = board["names"]
    return render_template(
        "played.html", **board, told=told,
        done=_done_since(game, names, until_others=True) or [], already=already,
        log=linkstory.log_until(seat_view.game_log(game, access.seat, names, current_language(),
                                                   access.link.turn_seq), upto),
        messages=linkstory.messages_until(talk.listing(game, names), access.link, upto),
        token=request.view_args["token"],
        ending=endings.box(game, access.seat, store.seats_of(game), names,
                           links.speaks_for_ending(access.link)) if upto is None else None,
        rematch=rematch.rematch_of(game.id) if game.status == "over" else None), status


class Taps(list):
    """An action named by its taps (the board's data-tap tokens), as turn.js and the no-script
    lists post it: shorter than the action itself, resolved against the legal actions."""

    MAX_LENGTH = 1000

    @classmethod
    def parse(cls, raw: str) -> "Taps":
        tokens = raw.split()
        if not tokens or len(raw) > cls.MAX_LENGTH or len(tokens) > 20:
            raise ValueError("taps: one to twenty tokens")
        return cls(tokens)

    def choices(self, game, seat) -> present.Choices:
        payload = seat_view.turn_payload(game, seat)
        return present.choices(presenter_for(game.rules), payload["actions"], payload["view"],
                               lambda a: None)

    def resolve(self, game, seat) -> dict | None:
        found = self.choices(game, seat).by_taps(list(self))
        return found.action if found is not None else None


def posted_action(form):
    """The action a form names: the action itself (buttons), else its taps."""
    if form.get("action"):
        return parse_json(form["action"])
    return Taps.parse(form.get("taps", ""))


@bp.get("/turn/<token>/says")
def says(token):
    """What an action chosen on the board is and what it would set off, for the confirm bar:
    the only place a move is played through before it is made (`describe`)."""
    access = check_link(token)
    game = store.get_game(access.game_id)
    try:
        taps = Taps.parse(request.args.get("taps", ""))
    except ValueError as exc:
        return jsonify({"error": str(exc)}), 400
    choices = taps.choices(game, access.seat)
    found = choices.by_taps(list(taps))
    if found is None:
        return jsonify({"error": "no legal action is chosen by those taps"}), 404
    presenter = choices.presenter
    label = presenter.label(found.action, choices.view)
    if label and not presenter.says_outcome:
        effect = getattr(presenter, "effect", None)     # optional for a plugin's presenter
        said = effect(found.action, choices.view) if effect else ""
        return jsonify({"label": label,
                        "says": present.fill_names(said, store.names_of(game)) if said else ""})
    said = present.fill_names(store.rules_of(game).describe(store.state_of(game), access.seat,
                                                           found.action), store.names_of(game))
    return jsonify({"label": label or said, "says": said if label else ""})


def _query_int(name: str) -> int | None:
    """A number in the query string, or None when absent or not plain ASCII digits in range."""
    try:
        return ascii_int(request.args.get(name, ""))
    except ValueError:
        return None


@bp.post("/turn/<token>")
def act(token):
    found = check_signed(token)
    access = check_link(token) if "seq" not in request.form else None
    try:
        seq = parse_seq(request.form.get("seq"))
        action = posted_action(request.form)
    except ValueError:
        access = access or check_link(token)
        return page(store.get_game(access.game_id), access.seat, status=400,
                    error=_("The form was incomplete: choose an action."))
    try:
        access = check_link_to_act(token, seq, found)
    except store.StaleSeq:
        readable = check_readable(token)
        return seat_page(store.get_game(readable.game_id), readable, already=True, status=409)
    game = store.get_game(access.game_id)
    if isinstance(action, Taps):
        action = action.resolve(game, access.seat)
        if action is None:
            return page(game, access.seat, status=422,
                        error=_("That action is not allowed: %(why)s",
                                why=_("no legal action is chosen by those taps")))
    try:
        moves.act(access.game_id, access.seat, action, seq, link_id=access.link.id)
    except store.StaleSeq:
        return page(game, access.seat, status=409,
                    error=_("This move was already played (perhaps from another tab). "
                            "Here is the game as it stands now."))
    except IllegalAction as exc:
        return page(game, access.seat, status=422,
                    error=_("That action is not allowed: %(why)s", why=str(exc)))
    if not seat_view.link_is_spent(access.link.id):
        # still this seat's turn: the refreshed page says what the action did
        return redirect(f"/turn/{token}?done={seq + 1}", code=303)
    # the turn passed: a page that stays reachable after the link is spent, saying what every
    # action of the turn did
    began = seat_view.turn_began(game, access.seat, seq + 1)
    return redirect(f"/turn/{token}/done?done={began}", code=303)


@bp.post("/turn/<token>/undo")
def undo(token):
    """The Undo button (a plain form): take back the seat's last action while it may, then
    show the turn as it was before it; the reason when it may not."""
    check_signed(token)
    access = check_link(token)
    game = store.get_game(access.game_id)
    try:
        moves.undo(access.game_id, access.seat, parse_seq(request.form.get("seq")),
                   link_id=access.link.id)
    except ValueError:
        return page(game, access.seat, status=400, error=_("The form was incomplete: choose an action."))
    except (store.StaleSeq, undoing.UndoRefused) as exc:
        return page(store.get_game(access.game_id), access.seat, status=409,
                    error=_("That cannot be undone: %(why)s", why=str(exc)))
    return redirect(f"/turn/{token}", code=303)


@bp.post("/turn/<token>/back")
def back(token):
    """The player of a seat dropped to default moves is back: they play for themselves again
    from their next decision. Only through a link that still speaks for the seat
    (links.speaks_for_seat): its newest, or any sent since its drop was mailed (the drop
    mail's own link too), not expired, not revoked (spent by a default played for it is fine):
    an older, forwarded or revoked mail cannot take the seat back."""
    access = keys().check_back(token)
    game = store.get_game(access.game_id)
    pace.come_back(access.game_id, access.seat)
    return render_template("renew.html", game=game, sent=False, back=True,
                           reason=_("Welcome back: from your next decision on you play your own "
                                    "moves, and we email you when it is your turn.")), 200


@bp.post("/turn/<token>/renew")
def renew(token):
    """Email a fresh link to a seat that is still to act (its old link expired or was spent).
    Under the game's lock, so parallel requests send one mail and leave one live link; only
    the seat's newest link may ask (an older one, even expired, cannot spend it), and a link
    younger than PBEM_RENEW_INTERVAL is never replaced."""
    link = keys().find(token)
    if link is None:
        raise links.LinkError(403, "tampered", "This link is not valid.")
    try:        # asking for a link through the seat's newest is acting through it
        keys().check_newest(token)
        pace.come_back(link.game_id, link.seat)
    except links.LinkError:
        pass
    try:
        fresh.renew(link)
    except limits.Refused as refusal:
        return render_template("renew.html", game=store.get_game(link.game_id), sent=False,
                               reason=refusal.reason), refusal.status
    return render_template("renew.html", game=store.get_game(link.game_id), sent=True,
                           reason=None)
