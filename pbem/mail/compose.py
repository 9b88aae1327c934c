"""Outbox rows -> mails: the subject and both bodies, rendered outside the game's lock.

A row says what to send (pbem/play/outbox.py): its template, the recipient's language and a
context of plain values (a link's token, the move the mail was asked at, the range of messages
it carries). Rendering reads the game as it stood at that move, so a mail says the same whether
it is rendered right after its transaction committed or later by the mail worker.
"""
from __future__ import annotations

import datetime as dt
import re
from contextlib import contextmanager
from urllib.parse import urlsplit

from flask import current_app, g, has_request_context, render_template
from flask_babel import force_locale, format_decimal, format_timedelta, ngettext
from flask_babel import gettext as _
from jinja2 import TemplateNotFound
from peewee import fn
from markupsafe import Markup

from ..db.database import is_sqlite
from ..db.models import Event, Game, Outbox, Seat, Signup, db, utcnow
from ..games.base import speaking
from ..log import store
from ..games.codes import codes_of, pattern
from ..play import clock, home, links, optout, outbox, reply_address, talk
from ..present import fill_names, others_actions, presenter_for, results
from ..present.titles import game_name, title_of
from ..present.times import reading_in


class Unrenderable(Exception):
    """A row whose mail cannot be built (its game is gone, its template fails)."""


# -- addresses -------------------------------------------------------------------------------------

def absolute(path: str) -> str:
    """An absolute URL from PBEM_BASE_URL, never from the request's Host header."""
    return current_app.config["BASE_URL"].rstrip("/") + path


def turn_url(token: str) -> str:
    return absolute(f"/turn/{token}")


def host_url(token: str) -> str:
    return absolute(f"/host/{token}")


def game_host_url(game: Game, context: dict | None = None) -> str:
    """The game's live host link, for every mail to its host (rows keep no token; an older row
    may still carry the one it was queued with)."""
    token = (context or {}).get("host_token") or links.host_token(
        current_app.config["SECRET_KEY"], game)
    return host_url(token)


def game_url(game: Game) -> str:
    return absolute(f"/games/{game.id}")


def home_url(address: str) -> str:
    """The recipient's home page: every game of that address (in every mail's footer)."""
    return absolute(f"/me/{home.issue(current_app.config['SECRET_KEY'], address)}")


def replay_url(token: str) -> str:
    return absolute(f"/replay/{token}")


def optout_url(recipient: str, row: Outbox | None = None) -> str:
    """The opt-out link of mail `row` (the same in its body and its List-Unsubscribe header)."""
    return absolute("/optout/" + optout.token(
        current_app.config["SECRET_KEY"], recipient, row.id if row is not None else None,
        row.created_at if row is not None else None))


def subject(game: Game) -> str:
    """Every mail of a game has the same subject, so that mail clients keep them together
    (what each one asks is its first line)."""
    return f"[pbem] {title_of(game)}"


@contextmanager
def in_language(language: str):
    """Pages' templates (Flask-Babel) and rules engines both speak `language` here."""
    with force_locale(language), speaking(language):
        yield


# -- redaction: a mail once sent keeps no usable link ---------------------------------------------

REDACTED = "redacted"
# a path segment that can carry a credential: the signed tokens of every link (itsdangerous:
# base64url and dots), never a game's number or a route's name
_SECRET_SEGMENT = re.compile(r"[A-Za-z0-9_\-.~=]{16,}")
_URL_TAIL = re.compile(r"/[^\s\"'<>()\[\]]*")


def _redact_paths(text: str, base: str) -> str:
    """Every path under `base` in `text` without the segments that could be a credential."""
    if not text or not base:
        return text or ""
    out, at = [], 0
    while True:
        found = text.find(base, at)
        if found < 0:
            out.append(text[at:])
            return "".join(out)
        tail = _URL_TAIL.match(text, found + len(base))
        end = tail.end() if tail else found + len(base)
        path = tail.group(0) if tail else ""
        out.append(text[at:found + len(base)])
        out.append("/".join(REDACTED if _SECRET_SEGMENT.fullmatch(part) and not part.isdigit()
                            else part for part in path.split("/")))
        at = end


def _secrets_in(value, key: str = "") -> set[str]:
    """The credentials a row's context carries: the value of every key naming a token or a
    link (the digest's entries too)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for name, item in value.items():
            found |= _secrets_in(item, str(name))
    elif isinstance(value, list):
        for item in value:
            found |= _secrets_in(item, key)
    elif isinstance(value, str) and ("token" in key or "link" in key) and value:
        found.add(value)
        found.update(part for part in value.split("/") if _SECRET_SEGMENT.fullmatch(part))
    return found


def _redact_context(value, key: str = ""):
    if isinstance(value, dict):
        return {name: _redact_context(item, str(name)) for name, item in value.items()}
    if isinstance(value, list):
        return [_redact_context(item, key) for item in value]
    if isinstance(value, str) and ("token" in key or "link" in key):
        return REDACTED if value else value
    return value


def redact(text: str, secrets_: set[str] | None = None) -> str:
    """`text` with every link under PBEM_BASE_URL cut to its route, and every known secret
    (a row's tokens) replaced."""
    text = _redact_paths(text or "", current_app.config["BASE_URL"].rstrip("/"))
    for secret in sorted(secrets_ or (), key=len, reverse=True):
        if len(secret) >= 16:
            text = text.replace(secret, REDACTED)
    return text


def redacted(row: Outbox) -> dict:
    """The fields a sent row keeps: its bodies and context without any usable credential
    (the mail itself went out whole). The host page and `pbem mail` still show its recipient,
    subject and state."""
    found = _secrets_in(row.context or {})
    kept = {"body_text": redact(row.body_text, found), "body_html": redact(row.body_html, found),
            "context": _redact_context(row.context) if row.context is not None else None}
    if row.kind == "webhook":           # a webhook's URL is a credential too: its host stays
        parts = urlsplit(row.recipient)
        kept["recipient"] = f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}/…"
    return kept


# -- rendering ---------------------------------------------------------------------------------------

def init_app(app) -> None:
    """Rows are rendered as soon as their use case commits: at once in commands and workers,
    after the response has gone in a web request (a move's answer never waits for the other
    players' mails). Whatever is left the mail worker renders before sending."""
    outbox.set_renderer(app, after_commit)

    @app.after_request
    def render_after_response(response):
        ids = g.pop("pbem_unrendered", None)
        if ids:
            app_object = current_app._get_current_object()

            def render_them():
                with app_object.app_context():
                    db.connect(reuse_if_open=True)
                    try:
                        render_ids(ids)
                    except Exception:  # noqa: BLE001 - the worker renders them before sending
                        app_object.logger.exception("rendering mails %s failed", ids)
                    finally:
                        if not is_sqlite() and not db.is_closed():
                            db.close()      # back to the pool, as after a request
            response.call_on_close(render_them)
        return response


def after_commit(ids: list[int]) -> None:
    if has_request_context():
        g.setdefault("pbem_unrendered", []).extend(ids)
    else:
        render_ids(ids)


def render_ids(ids: list[int]) -> None:
    """Render the rows that are still unrendered; a failure is left for the worker, which
    marks the row failed if it fails again."""
    for row in Outbox.select().where(Outbox.id.in_(ids), Outbox.rendered == False):  # noqa: E712
        try:
            render(row)
        except Exception:  # noqa: BLE001 - the worker tries again before sending
            current_app.logger.exception("mail %s could not be rendered yet", row.id)


def render(row: Outbox) -> Outbox:
    """Fill in the row's subject and bodies from its template and context, and save them."""
    if row.rendered:
        return row
    build = TEMPLATES.get(row.template)
    if build is None:
        raise Unrenderable(f"no such mail template {row.template!r}")
    context = dict(row.context or {})
    game = Game.get_or_none(Game.id == row.game_id) if row.game_id is not None else None
    if row.game_id is not None and game is None:
        raise Unrenderable("the game of this mail is gone")
    with in_language(row.language), reading_in(home.time_zone_of(row.recipient)):
        mail_subject, values = build(row, game, context)
        if row.kind == "webhook":       # a chat post: one sentence, no mail around it
            text = html = values["sentence"]
        else:
            values.update(game=game, base_url=current_app.config["BASE_URL"],
                          optout_link=optout_url(row.recipient, row),
                          home_link=home_url(row.recipient))
            values.setdefault("game_link", game_url(game) if game is not None else None)
            text = render_template(f"emails/{row.template}.txt", **values)
            html = render_template(f"emails/{row.template}.html", **values)
    (Outbox.update(subject=mail_subject[:300], body_text=text, body_html=html, rendered=True)
     .where(Outbox.id == row.id, Outbox.rendered == False).execute())  # noqa: E712
    row.subject, row.body_text, row.body_html, row.rendered = mail_subject[:300], text, html, True
    return row


def _seats(game: Game) -> list[Seat]:
    return list(game.seats.order_by(Seat.index))


def state_at(game: Game, seq: int):
    """The game's state after move `seq`: the snapshot when the game has not moved since."""
    rules = store.rules_of(game)
    if seq == game.seq:
        return rules, rules.load(game.state)
    return rules, store.state_at(game, seq).state      # from the nearest replay checkpoint


def since_last_turn(game: Game, seat: Seat, since: int, upto: int, names: list[str]) -> list[str]:
    events = (game.events.where(Event.seq > since, Event.seq <= upto, Event.seq > 0)
              .order_by(Event.seq))
    return [fill_names(e.text(seat.language), names) for e in events
            if e.summary and not (e.seat == seat.index and not e.automatic and not e.timeout)]


def _last_moves(game: Game, seat: Seat, since: int, upto: int, presenter, view) -> set[str]:
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


def _own_title(game: Game) -> str:
    """The host's own title for the game ("" when it is the default one)."""
    return "" if title_of(game).startswith(game_name(game.rules) + ":") else title_of(game)


def _max_age_days() -> int:
    return max(1, -(-current_app.config["LINK_MAX_AGE"] // 86400))


# -- one builder per template: (subject, the template's values) ------------------------------------

def has_played(address: str) -> bool:
    """Whether `address` ever made a move of its own here (in any game)."""
    return (Event.select(Event.id)
            .join(Seat, on=((Seat.game == Event.game) & (Seat.index == Event.seat)))
            .where(fn.LOWER(Seat.email) == (address or "").strip().lower(),
                   Event.automatic == False, Event.timeout == False)  # noqa: E712
            .exists())


def _invite(row, game, context):
    """The first mail of a game to a seat. To an address that has never played here its subject
    is fixed (nothing the host wrote: /new is open to anyone) and it names the host's address,
    so a stranger's invitation says who sent it."""
    seats = _seats(game)
    mail_subject = subject(game)
    if not has_played(row.recipient):
        mail_subject = "[pbem] " + _("An invitation to play %(game)s by email",
                                     game=game_name(game.rules))
    return mail_subject, dict(seat=seats[row.seat], names=[store.seat_name(s) for s in seats],
                               host=game.host_email or "",
                               game_name=game_name(game.rules), own_title=_own_title(game),
                               commitment=store.game_commitment(game), **clock_rules_of(game))


def clock_rules_of(game: Game) -> dict:
    """What the invitation and the first turn mail of a paced game say of its clock (the days
    written in the mail's language: 2, 0.5, 0,5)."""
    days = game.pace_days
    return dict(pace_days=days, on_timeout=game.on_timeout, drop_after=game.drop_after,
                pace_days_text=format_decimal(days) if days is not None else "")


def _host(row, game, context):
    return subject(game), dict(names=[store.seat_name(s) for s in _seats(game)],
                               host_link=game_host_url(game, context))


def _turn(row, game, context):
    seats = _seats(game)
    seat, names = seats[row.seat], [store.seat_name(s) for s in seats]
    seq, since = context["seq"], context["since"]
    rules, state = state_at(game, seq)
    presenter = presenter_for(game.rules)
    view = rules.view(state, seat.index)
    prompt = presenter.subject(view) or _("Your turn")
    reminder = row.kind == "reminder"
    if reminder:
        prompt = _("Reminder: %(prompt)s", prompt=prompt)
    token = context["token"]
    in_force = clock.clock_of(game, seat)
    return subject(game), dict(
        seat=seat, names=names, prompt=prompt, view=view, rules=rules, reminder=reminder,
        deadline=in_force.deadline if in_force else None,
        held=in_force.held if in_force else None,
        away_until=in_force.away_until if in_force else None,
        overdue=bool(in_force and in_force.deadline and in_force.held is None
                     and in_force.deadline <= utcnow()),
        warn_drop=context.get("warn_drop", False),
        clock_rules=bool(context.get("clock_rules")),      # the seat's first turn mail
        **clock_rules_of(game),
        dropped=context.get("dropped", False), presenter=presenter,
        happened=since_last_turn(game, seat, since, seq, names),
        messages=talk.mailed_between(game, seat.index, context.get("talk"), names),
        picture=picture(presenter, view=view, names=names, seat=seat.index, game=game,
                        last_moves=_last_moves(game, seat, since, seq, presenter, view)),
        holdings=holdings_lines(presenter, view=view, names=names, seat=seat.index),
        link=turn_url(token), replay_link=replay_url(token), max_age_days=_max_age_days(),
        reply=reply_help(rules, state, seat.index, view),
        restored_to=(dt.datetime.fromisoformat(context["restored_to"])
                     if context.get("restored_to") else None))


LISTED_CODES = 40       # a mail lists this many reply codes; beyond, their shapes with examples


def reply_help(rules, state, seat: int, view) -> dict | None:
    """How to answer a mail with a move: the codes of `seat`'s actions now (all of them when
    they are few, else one example of each shape); None when replies are off or none is asked."""
    if not reply_address.enabled():
        return None
    actions = rules.legal_actions(state, seat)
    if not actions:
        return None
    codes = codes_of(rules, view, actions)
    if len(codes) <= LISTED_CODES:
        return {"codes": codes, "examples": [], "count": len(codes)}
    return {"codes": [], "examples": pattern(codes)[:LISTED_CODES // 2], "count": len(codes)}


def _reply(row, game, context):
    """The one answer to a reply that was not played: why, and the codes valid now."""
    seat = _seats(game)[row.seat]
    rules, state = state_at(game, min(context["seq"], game.seq))
    return subject(game), dict(seat=seat, what=context["what"], line=context.get("line", ""),
                               detail=context.get("detail", ""),
                               reply=reply_help(rules, state, seat.index,
                                                rules.view(state, seat.index)))


def _over(row, game, context):
    seats = _seats(game)
    seat, names = seats[row.seat], [store.seat_name(s) for s in seats]
    rules, state = state_at(game, context["seq"])
    result = rules.result(state)
    presenter = presenter_for(game.rules)
    view = rules.view(state, seat.index)
    return subject(game), dict(
        seat=seat, names=names, ranking=[[names[i] for i in tie]
                                         for tie in result.get("ranking", [])],
        result=result, summary=results.summary(result, names), view=view, presenter=presenter,
        picture=picture(presenter, view=view, names=names, seat=seat.index, game=game),
        happened=since_last_turn(game, seat, context["since"], context["seq"], names),
        messages=talk.mailed_between(game, seat.index, context.get("talk"), names),
        replay_link=absolute(f"/games/{game.id}/replay"),
        record_link=absolute(f"/games/{game.id}/record.json"))


def _host_notice(row, game, context):
    seat = _seats(game)[context["seat"]]
    if context["what"] == "dropped" and game.on_timeout == "bot":
        said = _("the computer plays for %(name)s now", name=seat.name)
    elif context["what"] == "dropped":
        said = _("%(name)s now plays by default moves", name=seat.name)
    elif context["what"] == "nobody":
        said = _("nobody is playing; resume when someone is back")
    elif context["what"] == "optout":
        said = _("%(name)s, who is to move, stopped all mail", name=seat.name)
    else:
        said = _("%(name)s missed a deadline", name=seat.name)
    return f"[pbem] {title_of(game)}: {said}", dict(
        what=context["what"], name=seat.name, drop_after=game.drop_after,
        on_timeout=game.on_timeout, host_link=game_host_url(game))


def _more_time(row, game, context):
    """The host gave a seat more time: its new deadline (the one in force when rendered)."""
    seat = _seats(game)[row.seat]
    in_force = clock.clock_of(game, seat)
    deadline = in_force.deadline if in_force and in_force.deadline else \
        dt.datetime.fromisoformat(context["deadline"])
    return subject(game), dict(seat=seat, deadline=deadline,
                               held=in_force.held if in_force else None)


def _given_back(row, game, context):
    return subject(game), dict(seat=_seats(game)[row.seat])


def _confirm(row, game, context):
    signup = Signup.get_by_id(context["signup"])
    asked = signup.request
    return "[pbem] " + _("confirm your new game"), dict(
        link=context["link"], game_title=game_name(asked["rules"]), title=asked["title"],
        names=[p["name"] for p in asked["players"]],
        hours=current_app.config["SIGNUP_MAX_AGE"] // 3600, game_link=None)


def _home(row, game, context):
    return "[pbem] " + _("All your games"), dict(game_link=None)


def _digest(row, game, context):
    entries = []
    for entry in context["entries"]:
        game_of = Game.get_or_none(Game.id == entry["game"])
        if game_of is None:
            continue
        seats = _seats(game_of)
        seat, names = seats[entry["seat"]], [store.seat_name(s) for s in seats]
        rules, state = state_at(game_of, entry["seq"])
        view = rules.view(state, seat.index)
        prompt = presenter_for(game_of.rules).subject(view) or _("Your turn")
        in_force = clock.clock_of(game_of, seat)      # the deadline in force, as in turn mails
        entries.append({
            "game": game_of, "title": title_of(game_of),
            "prompt": _("Reminder: %(prompt)s", prompt=prompt) if entry.get("reminder")
            else prompt,
            "deadline": in_force.deadline if in_force else None,
            "held": in_force.held if in_force else None,
            "away_until": in_force.away_until if in_force else None,
            "overdue": bool(in_force and in_force.deadline and in_force.held is None
                            and in_force.deadline <= utcnow()),
            "happened": since_last_turn(game_of, seat, entry["since"], entry["seq"], names),
            "messages": talk.mailed_between(game_of, seat.index, entry.get("talk"), names),
            "link": turn_url(entry["token"]), "replay_link": replay_url(entry["token"])})
    if len(entries) == 1:
        mail_subject = f"[pbem] {entries[0]['title']}: {entries[0]['prompt']}"
    else:
        mail_subject = "[pbem] " + _("%(n)s games wait for you", n=len(entries))
    return mail_subject, dict(entries=entries, game_link=None,
                              max_age_days=current_app.config["LINK_MAX_AGE"] // 86400)


def _dropped(row, game, context):
    """The drop mail, with the link that brings the player back (none in the rows queued
    before it carried one)."""
    seats = _seats(game)
    token = context.get("token")
    return subject(game), dict(seat=seats[row.seat], missed=context.get("missed", 0),
                               by_host=context.get("by_host", False),
                               link=turn_url(token) if token else None)


def _webhook(row, game, context):
    """A chat post (pbem/play/webhooks.py): one public sentence and the game page's address."""
    names = [store.seat_name(s) for s in _seats(game)]
    title, what = title_of(game), context["what"]
    if what == "over":
        rules, state = state_at(game, context["seq"])
        rows = (results.summary(rules.result(state), names) or {}).get("rows", [])
        ranking = ", ".join(f"{r['rank'] or '-'}. {r['name']}"
                            + (f" ({r['score']})" if r["score"] is not None else "")
                            for r in rows)
        sentence = _("%(title)s is over: %(ranking)s.", title=title, ranking=ranking)
    elif what == "late":
        asked = dt.datetime.fromisoformat(context["asked_at"].rstrip("Z"))
        sentence = _("%(name)s missed the deadline in %(title)s (to move since %(since)s).",
                     name=names[context["seat"]], title=title,
                     since=format_timedelta(max(utcnow() - asked, dt.timedelta(0)),
                                            add_direction=False))
    else:
        who = [names[i] for i in context["to_act"] if i < len(names)]
        sentence = ngettext("%(names)s to move in %(title)s.", "%(names)s to move in %(title)s.",
                            len(who), names=", ".join(who), title=title)
    return subject(game), dict(sentence=f"{sentence} {game_url(game)}")


TEMPLATES = {"invite": _invite, "host": _host, "turn": _turn, "over": _over,
             "host_notice": _host_notice, "confirm": _confirm, "home": _home,
             "digest": _digest, "dropped": _dropped, "webhook": _webhook,
             "reply": _reply, "host_more_time": _more_time, "host_given_back": _given_back}
