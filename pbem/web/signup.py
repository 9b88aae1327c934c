"""A new game from the web form. In production (PBEM_SIGNUP_CONFIRM) the form mails one link
to the host's own address; that link's page (GET changes nothing: mail scanners follow links)
has the button (POST) that starts the game, and only then are the players invited. Every
successful POST ends in a 303, so reloading never starts a second game."""
from __future__ import annotations

from flask import Blueprint, current_app, redirect, render_template, request
from flask_babel import gettext as _
from flask_babel import ngettext

from ..play import clock, fresh, signups, webhooks
from ..play.keys import keys
from ..play import creation
from ..mail import urls
from ..log import chain
from .. import validate
from ..errors import Refusal
from ..games import RULES, IllegalAction
from ..games.base import current_language
from ..present.titles import game_name
from ..inputs import MAX_INT, ascii_int

bp = Blueprint("signup", __name__)

LANGUAGES = {"en": "English", "hu": "Magyar"}
MAX_PLAYERS = 8
COMPUTERS = {f"bot{level}": level for level in creation.COMPUTER_LEVELS}  # a seat's choice on /new


def confirming() -> bool:
    return bool(current_app.config["SIGNUP_CONFIRM"])


def _form_page(form, error=None, status=200):
    return render_template("new.html", rules=RULES, languages=LANGUAGES, form=form, error=error,
                           confirm=confirming()), status


@bp.get("/new")
def new():
    if not current_app.config["OPEN_SIGNUP"]:
        return render_template("signup_closed.html")
    return _form_page({})


@bp.post("/new")
def create():
    if not current_app.config["OPEN_SIGNUP"]:
        return render_template("signup_closed.html"), 403
    return create_from(request.form)


def create_from(form, solo: bool = False):
    """Start (or ask the host to confirm) the game `form` describes; a 303 on success: to the
    host page, or for a game against the computer started at once (`solo`) to the player's
    own turn (the host page is a link away, in the host's mail)."""
    try:
        asked = read_form(form)
    except Refusal as exc:         # validate.Invalid, IllegalAction (the options)...
        return _form_page(form, str(exc), 400)
    client = request.remote_addr or ""
    try:
        host_token = signups.sign_up(asked, client, current_language(), confirming(),
                                     confirm_url)
    except Refusal as exc:          # the daily limits (429), the players and pace (400)
        return _form_page(form, str(exc), exc.status)
    if host_token is None:
        return redirect("/new/sent", code=303)
    opened = fresh.open_first_turn(keys().check_host(host_token)) if solo else None
    if opened is not None:
        token, acts = opened        # the computer opens: its answer awaited on the seat's page
        return redirect(f"/turn/{token}" if acts else f"/turn/{token}/done", code=303)
    return redirect(f"/host/{host_token}?created=1", code=303)


@bp.post("/new/solo")
def solo():
    """The home page's one button: a game of the newcomer against the computer (level 2), at
    once where /new starts games at once, else after the confirmation mail as on /new."""
    if not current_app.config["OPEN_SIGNUP"]:
        return render_template("signup_closed.html"), 403
    form = request.form
    rules = RULES.get(form.get("rules", ""))
    email = form.get("email", "").strip()
    solo_form = {"rules": form.get("rules", ""), "name0": email.partition("@")[0][:100] or "?",
                 "email0": email, "language0": current_language(), "host_email": email,
                 "seat1": f"bot{creation.DEFAULT_LEVEL}"}
    if rules is not None:                       # the fewest players the game takes
        for i in range(2, rules.min_players):
            solo_form[f"seat{i}"] = f"bot{creation.DEFAULT_LEVEL}"
    return create_from(solo_form, solo=True)


def confirm_url(token: str) -> str:
    return urls.absolute(f"/new/confirm/{token}")


@bp.get("/new/sent")
def sent():
    """Where the form leads in production; reloading it sends nothing."""
    hours = current_app.config["SIGNUP_MAX_AGE"] // 3600
    return render_template("signup_sent.html", hours=hours)


@bp.errorhandler(signups.SignupError)
def signup_error(exc):
    return render_template("signup_confirm.html", error=str(exc), signup=None), exc.status


@bp.get("/new/confirm/<token>")
def confirm_page(token):
    signup = signups.find(token)
    asked = signup.request
    rules = RULES.get(asked["rules"])
    return render_template("signup_confirm.html", signup=signup, asked=asked, rules=rules,
                           error=None, started=signup.confirmed_at is not None,
                           game=signup.game)


@bp.post("/new/confirm/<token>")
def confirm(token):
    signup = signups.find(token)
    game, host_token = signups.confirm_and_start(signup)
    if host_token is None:           # started already (a second click, another tab)
        return render_template("signup_confirm.html", signup=signup, asked=signup.request,
                               rules=RULES.get(signup.request["rules"]), error=None,
                               started=True, game=game)
    return redirect(f"/host/{host_token}?created=1", code=303)


# -- the form ---------------------------------------------------------------------------------------

def read_form(form) -> dict:
    """The checked request: rules, players, options, title, host address; ValueError says
    what to change."""
    rules_name = form.get("rules", "")
    if rules_name not in RULES:
        raise validate.Invalid(_("Choose a game."))
    players = []
    for i in range(MAX_PLAYERS):
        name, email = form.get(f"name{i}", "").strip(), form.get(f"email{i}", "").strip()
        language = form.get(f"language{i}", "en")
        language = language if language in LANGUAGES else "en"
        level = COMPUTERS.get(form.get(f"seat{i}", ""))
        if level is not None:
            players.append({"computer": level, "language": language})
            continue
        if not name and not email:
            continue
        players.append({"name": name, "email": email, "language": language})
    if not players:
        raise validate.Invalid(_("Every seat is empty: give each player a name and an email "
                                 "address, or choose the computer for a seat."))
    players = creation.seated(players, email_required=True)       # each seat's entries first
    _check_seat_count(RULES[rules_name], players)
    options = {key: _option(form, key, default)
               for key, default in RULES[rules_name].options.items()}
    _rules, options = chain.validate_new_game(rules_name, len(players), options)
    host_email = validate.host_email(form.get("host_email"), required=confirming())
    # an address that opted out is not refused here: the answer would tell anyone which
    # addresses did. It is simply sent nothing (the outbox queues nothing for it).
    return {"rules": rules_name, "players": players, "options": options,
            "title": validate.title(form.get("title")), "host_email": host_email,
            "pace": pace_of_form(form), "webhook": webhooks.check_optional(form.get("webhook"))}


def _check_seat_count(rules, players: list[dict]) -> None:
    """The form's own words for seats left empty: which seats to fill, in the reader's
    language (the engine's check says only how many it takes)."""
    if len(players) < rules.min_players:
        missing = rules.min_players - len(players)
        raise validate.Invalid(ngettext(
            "%(game)s takes at least %(min)s players: fill %(num)s more seat, with a player's "
            "name and address or the computer.",
            "%(game)s takes at least %(min)s players: fill %(num)s more seats, with players' "
            "names and addresses or the computer.", missing,
            game=game_name(rules.name), min=rules.min_players))


def pace_of_form(form) -> dict:
    """The pace chosen on /new: days per decision (empty: no limit), the policy, drop-after."""
    raw_days, raw_drop = form.get("pace", "").strip(), form.get("drop_after", "").strip() or "3"
    try:
        days = float(raw_days) if raw_days else None
        if days is not None and not (0 < days <= clock.MAX_PACE_DAYS):
            raise ValueError
    except ValueError:
        raise validate.Invalid(_("Days per decision must be a positive number.")) from None
    if form.get("on_timeout", "wait") not in clock.POLICIES:
        raise validate.Invalid(_("Choose what happens at a missed deadline."))
    if not raw_drop.isascii() or not raw_drop.isdigit() or \
            not 1 <= int(raw_drop) <= clock.MAX_DROP_AFTER:
        raise validate.Invalid(_("The number of missed deadlines must be a whole number from 1 to 100."))
    if form.get("quiet_hours", "on") not in ("on", "off"):
        raise validate.Invalid(_("Choose whether the players' quiet hours stop their clocks."))
    if form.get("clock", "pace") not in ("pace", "bank"):
        raise validate.Invalid(_("Choose a pace per decision or a bank of days."))
    return clock.check_pace(days, form.get("on_timeout", "wait"), int(raw_drop),
                            quiet_hours=form.get("quiet_hours", "on") == "on",
                            bank={} if form.get("clock") == "bank" else None)


def _option(form, key, default):
    raw = form.get(f"option_{key}")
    if isinstance(default, bool):
        return raw in ("1", "on", "true")
    if isinstance(default, int):
        try:
            return ascii_int(raw, low=-MAX_INT) if raw not in (None, "") else default
        except ValueError:
            raise IllegalAction(_("option %(key)s takes a whole number", key=key)) from None
    return raw if raw is not None else default
