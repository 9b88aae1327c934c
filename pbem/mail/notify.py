"""Who must act now -> which emails go into the outbox, in the caller's transaction."""
from __future__ import annotations

import re
import secrets
from urllib.parse import urlsplit

from contextlib import contextmanager

from flask import current_app, render_template
from jinja2 import TemplateNotFound
from markupsafe import Markup
from flask_babel import force_locale
from flask_babel import gettext as _

from ..play import home, links, optout, talk
from ..games.base import speaking
from ..db.models import Event, Game, Outbox, Seat
from ..present import others_actions, presenter_for, results
from ..present.titles import game_name, title_of

SEAT_NAME = re.compile(r"\{p(\d+)\}")


def fill_names(text: str, names: list[str]) -> str:
    """Put the players' names where a rules engine wrote {p0}, {p1}, ..."""
    def name(match):
        index = int(match.group(1))
        return names[index] if index < len(names) else match.group(0)
    return SEAT_NAME.sub(name, text)


def absolute(path: str) -> str:
    """An absolute URL from PBEM_BASE_URL, never from the request's Host header."""
    return current_app.config["BASE_URL"].rstrip("/") + path


def turn_url(token: str) -> str:
    return absolute(f"/turn/{token}")


def host_url(token: str) -> str:
    return absolute(f"/host/{token}")


def game_url(game: Game) -> str:
    return absolute(f"/games/{game.id}")


def home_url(address: str) -> str:
    """The recipient's home page: every game of that address (in every mail's footer)."""
    return absolute(f"/me/{home.issue(current_app.config['SECRET_KEY'], address)}")


def replay_url(token: str) -> str:
    return absolute(f"/replay/{token}")


def optout_url(recipient: str) -> str:
    return absolute("/optout/" + optout.token(current_app.config["SECRET_KEY"], recipient))


def thread_root(game: Game, seat: int | None, domain: str) -> str:
    """The Message-ID of a game's first mail to a seat (its invitation; the host's page mail
    for seat None): made from the game alone, so that no column keeps it."""
    who = "host" if seat is None else f"seat{seat}"
    return f"<pbem.{game.id}.{who}.{game.created_at:%Y%m%d%H%M%S}@{domain}>"


def _message_id(game: Game | None, kind: str, seat_index: int | None = None) -> str:
    domain = urlsplit(current_app.config["BASE_URL"]).hostname or "localhost"
    if game is not None and kind in ("invite", "host"):
        # the first mail of a game to someone: the one every later mail refers to
        root = thread_root(game, seat_index, domain)
        if not Outbox.select().where(Outbox.message_id == root).exists():
            return root
    game_part = game.id if game is not None else 0
    return f"<pbem.{game_part}.{kind}.{secrets.token_hex(12)}@{domain}>"


def subject(game: Game) -> str:
    """Every mail of a game has the same subject, so that mail clients keep them together
    (what each one asks is its first line)."""
    return f"[pbem] {title_of(game)}"


def queue(game: Game | None, seat_index: int | None, kind: str, recipient: str, subject: str,
          template: str, **context) -> Outbox | None:
    """Write one email into the outbox (sent later by the mail worker); call it inside
    `in_language(...)` so that the subject and the bodies speak the recipient's language."""
    if not recipient or optout.is_opted_out(recipient):
        return None                 # an address that opted out is sent nothing more
    context.update(game=game, base_url=current_app.config["BASE_URL"],
                   optout_link=optout_url(recipient), home_link=home_url(recipient))
    return Outbox.create(
        message_id=_message_id(game, kind, seat_index), game=game, seat=seat_index, kind=kind,
        recipient=recipient, subject=subject[:300],
        body_text=render_template(f"emails/{template}.txt", **context),
        body_html=render_template(f"emails/{template}.html", **context))


@contextmanager
def in_language(language: str):
    """Pages' templates (Flask-Babel) and rules engines both speak `language` here."""
    with force_locale(language), speaking(language):
        yield


def _seats(game: Game) -> list[Seat]:
    return list(game.seats.order_by(Seat.index))


def game_created(game: Game, host_token: str) -> None:
    """Invite every player; give the host the game's host link."""
    seats = _seats(game)
    names = [s.name for s in seats]
    host = getattr(game, "host_name", "") or ""
    for seat in seats:
        with in_language(seat.language):
            queue(game, seat.index, "invite", seat.email, subject(game),
                  "invite", seat=seat, names=names, game_link=game_url(game), host=host,
                  game_name=game_name(game.rules), own_title=_own_title(game))
    if game.host_email:
        with in_language(seats[0].language):
            queue(game, None, "host", game.host_email, subject(game),
                  "host", names=names, host_link=host_url(host_token))


def signup_confirmation(signup, link: str) -> None:
    """The one mail /new sends in production: to the host's own address, with the link whose
    page starts the game. Nobody else is mailed until the host confirms."""
    asked = signup.request
    with in_language(signup.language):
        queue(None, None, "confirm", signup.host_email,
              "[pbem] " + _("confirm your new game"), "confirm", link=link,
              game_title=game_name(asked["rules"]), title=asked["title"],
              names=[p["name"] for p in asked["players"]],
              hours=current_app.config["SIGNUP_MAX_AGE"] // 3600)


def _own_title(game: Game) -> str:
    """The host's own title for the game ("" when it is the default one)."""
    return "" if title_of(game).startswith(game_name(game.rules) + ":") else title_of(game)


def after_change(game: Game, rules, state, before: list[int]) -> None:
    """Spend the links of seats whose turn ended; mail a link to each seat now to act;
    tell everyone when the game is over."""
    now = rules.to_act(state)
    links.spend(game, [s for s in before if s not in now], "played")
    result = rules.result(state)
    seats = _seats(game)
    if result is not None:
        links.spend(game, range(game.players), "turn_over")
        for seat in seats:
            _game_over_mail(game, rules, state, seat, seats, result)
        return
    for index in now:
        if index not in before:
            send_turn_mail(game, rules, state, seats[index], seats)


def _since_last_turn(game: Game, seat: Seat, names: list[str]) -> list[str]:
    events = (game.events.where(Event.seq > seat.seen_seq, Event.seq > 0)
              .order_by(Event.seq))
    return [fill_names(e.text(seat.language), names) for e in events
            if e.summary and not (e.seat == seat.index and not e.automatic)]


def _last_moves(game: Game, seat: Seat, presenter, view) -> set[str]:
    """Where the others' moves since this seat's last mail went: the picture rings them."""
    events = game.events.where(Event.seq > seat.seen_seq).order_by(Event.seq)
    return presenter.last_moves(others_actions(events, seat.index), view)


def picture(presenter, **context) -> Markup:
    """The game's small picture of the board for mail clients (its `email_template`), or
    nothing: a broken picture must never stop a move from being recorded."""
    if not presenter.email_template:
        return Markup("")
    try:
        return Markup(render_template(presenter.email_template, presenter=presenter, **context))
    except TemplateNotFound:
        current_app.logger.warning("no email picture: %s is missing", presenter.email_template)
        return Markup("")
    except Exception:  # noqa: BLE001 - the mail goes out without its picture
        current_app.logger.exception("the email picture %s failed", presenter.email_template)
        return Markup("")


def holdings_lines(presenter, **context) -> list[str]:
    """The seat's own holdings as plain lines (the game's `holdings_text_template`), for both
    parts of a turn mail; like the picture, a failure never stops a move."""
    if not presenter.holdings_text_template:
        return []
    try:
        text = render_template(presenter.holdings_text_template, presenter=presenter, **context)
    except Exception:  # noqa: BLE001 - the mail goes out without the holdings
        current_app.logger.exception("the holdings %s failed", presenter.holdings_text_template)
        return []
    return [line.strip() for line in text.splitlines() if line.strip()]


def send_turn_mail(game: Game, rules, state, seat: Seat, seats: list[Seat],
                   kind: str = "turn") -> str | None:
    """Issue a fresh link for `seat` and mail it with what happened since its last turn, a
    small picture of the board (the game's `email_template`) and what is asked. A player on a
    daily digest gets no mail per turn: the digest lists the game (and issues its link)."""
    config = current_app.config
    if kind == "turn" and home.wants_digest(seat.email):
        return None
    token = links.issue(config["SECRET_KEY"], game, seat.index, config["LINK_MAX_AGE"])
    names = [s.name for s in seats]
    presenter = presenter_for(game.rules)
    with in_language(seat.language):
        view = rules.view(state, seat.index)
        prompt = presenter.subject(view) or _("Your turn")
        if kind == "reminder":
            prompt = _("Reminder: %(prompt)s", prompt=prompt)
        queue(game, seat.index, kind, seat.email, subject(game),
              "turn", seat=seat, names=names, prompt=prompt, view=view, rules=rules,
              reminder=kind == "reminder", deadline=seat.deadline, dropped=seat.dropped,
              presenter=presenter, happened=_since_last_turn(game, seat, names),
              messages=talk.unmailed(game, seat, names),
              picture=picture(presenter, view=view, names=names, seat=seat.index, game=game,
                              last_moves=_last_moves(game, seat, presenter, view)),
              holdings=holdings_lines(presenter, view=view, names=names, seat=seat.index),
              link=turn_url(token), replay_link=replay_url(token),
              max_age_days=max(1, -(-config["LINK_MAX_AGE"] // 86400)), game_link=game_url(game))
    Seat.update(seen_seq=game.seq).where(Seat.id == seat.id).execute()
    return token


def _game_over_mail(game, rules, state, seat, seats, result) -> None:
    names = [s.name for s in seats]
    ranking = [[names[i] for i in tie] for tie in result.get("ranking", [])]
    presenter = presenter_for(game.rules)
    with in_language(seat.language):
        view = rules.view(state, seat.index)
        queue(game, seat.index, "over", seat.email, subject(game),
              "over", seat=seat, names=names, ranking=ranking, result=result,
              summary=results.summary(result, names), view=view, presenter=presenter,
              picture=picture(presenter, view=view, names=names, seat=seat.index, game=game),
              happened=_since_last_turn(game, seat, names), game_link=game_url(game),
              messages=talk.unmailed(game, seat, names),
              replay_link=absolute(f"/games/{game.id}/replay"),
              record_link=absolute(f"/games/{game.id}/record.json"))


def host_notice(game: Game, seat: Seat, what: str) -> None:
    """Tell the host that a seat ran late (`late`: they choose what happens, on the host page)
    or was dropped to default moves (`dropped`), naming the player."""
    if not game.host_email:
        return
    seats = _seats(game)
    with in_language(seats[0].language):
        if what == "dropped":
            subject = _("%(name)s now plays by default moves", name=seat.name)
        else:
            subject = _("%(name)s missed a deadline", name=seat.name)
        queue(game, None, f"host-{what}", game.host_email, f"[pbem] {title_of(game)}: {subject}",
              "host_notice", what=what, name=seat.name, drop_after=game.drop_after,
              on_timeout=game.on_timeout, game_link=game_url(game))


# -- the daily digest ------------------------------------------------------------------------------

def digest_pass(now) -> int:
    """Send each address on a daily digest its digest, once a day after its chosen hour;
    race-free (the day is claimed with a conditional update). The number of digests queued."""
    from ..db.database import write_transaction
    queued = 0
    for settings in home.digest_due(now):
        with write_transaction():
            if home.claim_digest(settings, now):
                queued += send_digest(settings.email) is not None
    return queued


def send_digest(address: str) -> Outbox | None:
    """One mail listing every game waiting for `address`, each with a fresh turn link, what
    happened since and the messages; nothing when no game waits (inside a transaction)."""
    from ..games import RULES
    config = current_app.config
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
        seats = _seats(game)
        names = [s.name for s in seats]
        token = links.issue(config["SECRET_KEY"], game, seat.index, config["LINK_MAX_AGE"])
        with in_language(seat.language):
            view = rules.view(state, seat.index)
            entries.append({"game": game, "title": title_of(game),
                            "prompt": presenter_for(game.rules).subject(view) or _("Your turn"),
                            "happened": _since_last_turn(game, seat, names),
                            "messages": talk.unmailed(game, seat, names),
                            "link": turn_url(token), "replay_link": replay_url(token)})
        Seat.update(seen_seq=game.seq).where(Seat.id == seat.id).execute()
    if not entries:
        return None
    with in_language(language or "en"):
        return queue(None, None, "digest", address,
                     "[pbem] " + _("%(n)s games wait for you", n=len(entries))
                     if len(entries) > 1 else f"[pbem] {entries[0]['title']}: {entries[0]['prompt']}",
                     "digest", entries=entries, game_link=None,
                     max_age_days=config["LINK_MAX_AGE"] // 86400)
