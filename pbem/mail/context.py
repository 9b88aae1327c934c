"""What every mail template is given: the game as it stood at a move, the moves since, the
pictures and holdings lines, the subject, and the reader's language."""
from __future__ import annotations

from contextlib import contextmanager

from flask import current_app, render_template
from flask_babel import force_locale
from jinja2 import TemplateNotFound
from markupsafe import Markup

from ..db.models import Event, Game, Seat
from ..games.base import speaking
from ..log import lines, store
from ..present import fill_names, others_actions
from ..present.titles import game_name, title_of
from ..play.keys import keys


def subject(game: Game) -> str:
    """Every mail of a game has the same subject, so that mail clients keep them together
    (what each one asks is its first line)."""
    return f"[pbem] {title_of(game)}"


@contextmanager
def in_language(language: str):
    """Pages' templates (Flask-Babel) and rules engines both speak `language` here."""
    with force_locale(language), speaking(language):
        yield


def state_at(game: Game, seq: int):
    """The game's state after move `seq`: the snapshot when the game has not moved since."""
    rules = store.rules_of(game)
    if seq == game.seq:
        return rules, rules.load(game.state)
    return rules, store.state_at(game, seq).state      # from the nearest replay checkpoint


def _moves_between(game: Game, since: int, upto: int):
    return (game.events.where(Event.seq > since, Event.seq <= upto, Event.seq > 0)
            .order_by(Event.seq))


def _own(event: Event, seat: Seat) -> bool:
    """A move the seat's player made (by page, API or answer), not one played for them."""
    return event.seat == seat.index and not event.automatic and not event.timeout


def since_last_turn(game: Game, seat: Seat, since: int, upto: int, names: list[str]) -> list[str]:
    """What the others did (and what the server played) since the seat's last mail."""
    return moves_since(game, seat, since, upto, names)[0]


def moves_since(game: Game, seat: Seat, since: int, upto: int,
                names: list[str]) -> tuple[list[str], list[str]]:
    """The log's lines since the seat's last mail, in the seat's language: (what the others
    did and the server played, the seat's own moves: the next mail confirms that an answer or
    a page's move was played)."""
    others, own = [], []
    events = [event for event in _moves_between(game, since, upto) if event.summary]
    for event, text in zip(events, lines.texts(game, events, seat.language)):
        (own if _own(event, seat) else others).append(fill_names(text, names))
    return others, own


def last_moves(game: Game, seat: Seat, since: int, upto: int, presenter, view) -> set[str]:
    """Where the others' moves since this seat's last mail went: the picture rings them."""
    events = game.events.where(Event.seq > since, Event.seq <= upto).order_by(Event.seq)
    return presenter.last_moves(others_actions(events, seat.index), view)


def picture(presenter, **context) -> Markup:
    """The game's small picture of the board for mail clients (its `email_template`), or
    nothing: a broken picture must never stop a mail."""
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
    parts of a turn mail; like the picture, a failure never stops a mail."""
    if not presenter.holdings_text_template:
        return []
    try:
        text = render_template(presenter.holdings_text_template, presenter=presenter, **context)
    except Exception:  # noqa: BLE001 - the mail goes out without the holdings
        current_app.logger.exception("the holdings %s failed", presenter.holdings_text_template)
        return []
    return [line.strip() for line in text.splitlines() if line.strip()]


def own_title(game: Game) -> str:
    """The host's own title for the game ("" when it is the default one)."""
    return "" if title_of(game).startswith(game_name(game.rules) + ":") else title_of(game)


def link_max_age_days() -> int:
    """How many days a turn link works, as a mail says it: whole days, rounded down (a mail
    never promises a link longer than it works), at least one."""
    return keys().link_days()
