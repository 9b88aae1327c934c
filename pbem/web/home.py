"""The player's home: /me asks for an address and mails its home link; the home link opens
every game of that address, its settings, and a way into each game.

The answer to /me is the same page with the same status for every address, so it never tells
whether an address has games here.
"""
from __future__ import annotations

import re

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request
from flask_babel import gettext as _

from ..play import (choices, fresh, home, hosting, limits, links, optout, pace, quiet, talk,
                    vacations)
from .. import validate
from ..log import store
from ..games.base import current_language, speaking
from ..present import calendar as deadlines_calendar, seat as seat_view
from ..present import hosting as hosted_view, reliability, times
from . import replay
from ..validate import address_key
from ..play.keys import keys

bp = Blueprint("home", __name__)

ADDRESS = re.compile(r"^[^@\s<>]{1,64}@[^@\s<>]{1,189}\.[^@\s<>]{1,60}$")
LANGUAGES = ("en", "hu")


@bp.errorhandler(links.LinkError)
def link_error(exc: links.LinkError):
    return render_template("link_error.html", error=exc, game=None, renewable=False), exc.status


def _address(token: str) -> str:
    return keys().check_home(token)


def _seat(address: str, game_id: int):
    """The address's seat in game `game_id`, or 404 (the same for a game it does not play)."""
    for seat in home.seats_of(address):
        if seat.game_id == game_id:
            return seat
    abort(404, _("There is no such game."))


# -- asking for the home link ---------------------------------------------------------------------

@bp.get("/me")
def ask():
    return render_template("home_ask.html", sent=False, error=None)


@bp.post("/me")
def send_link():
    """Mail the home link to an address that plays here; the same answer for every address."""
    address = address_key(request.form.get("email", ""))
    if len(address) > 254 or not ADDRESS.match(address):
        return render_template("home_ask.html", sent=False,
                               error=_("Write a valid email address.")), 400
    fresh.ask_home_link(address, current_language())   # looked up later, for every address
    return render_template("home_ask.html", sent=True, error=None)


def _language_of(address: str) -> str:
    seats = home.seats_of(address)
    return seats[0].language if seats else current_language()


# -- the home page ----------------------------------------------------------------------------------

@bp.get("/me/<token>")
def show(token):
    return _home_page(token, _address(token))


def _home_page(token: str, address: str, error: str | None = None):
    seats = home.seats_of(address)
    entries = seat_view.home_entries(seats)
    settings = home.settings_of(address)
    with times.reading_in(settings.time_zone):
        return render_template("home.html", token=token, address=address,
                               home_days=keys().home_days(),
                               waiting=[e for e in entries if e["your_turn"]],
                               running=[e for e in entries if e["running"] and not e["your_turn"]],
                               finished=[e for e in entries if not e["running"]],
                               settings=settings, saved=request.args.get("saved"),
                               quiet=home.quiet_of(address), quiet_day_names=_day_names(),
                               language_now=_language_of(address), vacation=vacations.vacation(address),
                               opted_out=optout.is_opted_out(address),
                               optout_link="/optout/" + keys().optout(address),
                               away_error=request.args.get("away_error"),
                               calendar_url=current_app.config["BASE_URL"].rstrip("/")
                               + f"/me/{token}/calendar.ics",
                               table=reliability.at_the_table(
                                   [s for s in seats if s.game.status == "running"]),
                               **_hosted(address, error))


def _day_names() -> list[tuple[str, str]]:
    names = (_("Monday"), _("Tuesday"), _("Wednesday"), _("Thursday"), _("Friday"),
             _("Saturday"), _("Sunday"))
    return list(zip(quiet.DAYS, names))


def _hosted(address: str, error: str | None = None) -> dict:
    """The games the address hosts, and what the last "Email me the host page's link" did."""
    sent, raw = None, request.args.get("host_sent", "")
    entries = hosted_view.hosted_by(address)
    if raw.isascii() and raw.isdigit() and len(raw) <= 12:
        sent = next((h["game"] for h in entries if h["game"].id == int(raw)), None)
    return dict(hosted=entries, host_sent=sent, host_error=error)


@bp.post("/me/<token>/hosted/<int:game_id>/link")
def host_link(token, game_id):
    """Mail the host page's link of a game this address hosts (to this address only)."""
    address = _address(token)
    try:
        game = hosting.mail_host_link(address, game_id)
    except limits.Refused as refusal:
        return _home_page(token, address, error=refusal.reason), refusal.status
    if game is None:
        abort(404, _("There is no such game."))
    return redirect(f"/me/{token}?host_sent={game_id}", code=303)


@bp.get("/me/<token>/calendar.ics")
def calendar(token):
    """The address's deadlines as a calendar to subscribe to (see pbem/present/calendar.py).
    Opting out ends it, as does a new home link (the old one no longer opens anything). A
    calendar app keeps the address it was given, so the feed outlives the home page's
    PBEM_HOME_LINK_MAX_AGE: it works home.CALENDAR_MAX_AGE (a year) while its generation holds."""
    address = keys().check_home(token, calendar=True)
    if optout.is_opted_out(address):
        abort(410, _("This address asked for no more mail from pbem, so its calendar has ended."))
    home_url = current_app.config["BASE_URL"].rstrip("/") + f"/me/{token}"
    with speaking(_language_of(address)):
        body = deadlines_calendar.calendar(address, home_url)
    response = Response(body, mimetype="text/calendar")
    response.headers["Content-Disposition"] = 'inline; filename="pbem.ics"'
    # calendar apps poll: a quarter of an hour in their own cache, never in a shared one
    response.headers["Cache-Control"] = "private, max-age=900"
    return response


@bp.post("/me/<token>/settings")
def settings(token):
    address = _address(token)
    form = request.form
    language = form.get("language", "")
    mode = form.get("mail_mode", "each")
    hour = form.get("digest_hour", "7")
    zone = form.get("time_zone")            # absent: as it was; empty: none
    if language not in LANGUAGES or mode not in home.MAIL_MODES or not (
            hour.isascii() and hour.isdigit() and 0 <= int(hour) <= 23):
        abort(400, _("Choose a language, a way to receive mail and an hour between 0 and 23."))
    if zone is not None:
        zone = zone.strip() if len(zone) <= 2 * times.ZONE_MAX else zone
        if zone and not times.is_time_zone(zone):
            abort(400, _("There is no time zone called %(zone)s: write one like Europe/Budapest, "
                         "or leave the field empty.", zone=zone[:times.ZONE_MAX]))
    choices.save_settings(address, language, mode, int(hour), zone)
    return redirect(f"/me/{token}?saved=1&lang={language}", code=303)


@bp.post("/me/<token>/quiet")
def quiet_hours(token):
    """Quiet hours (pbem/play/quiet.py): a daily window and/or quiet days, in the address's
    time zone; both times empty and no day ticked: none."""
    address = _address(token)
    form = request.form
    days = form.getlist("quiet_days")
    zone = home.settings_of(address).time_zone
    try:
        chosen = quiet.check(zone, form.get("quiet_start", "")[:10],
                             form.get("quiet_end", "")[:10], days[:len(quiet.DAYS) + 1])
    except validate.Invalid as exc:
        abort(400, _("Quiet hours not saved: %(why)s.", why=str(exc)))
    home.store_quiet(address, chosen)
    return redirect(f"/me/{token}?saved=1", code=303)


@bp.post("/me/<token>/away")
def away(token):
    """A vacation of some days: the address's deadlines stand still meanwhile."""
    address = _address(token)
    raw = request.form.get("days", "")
    if not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= 366):
        abort(400, _("Write a whole number of days, from 1 to the days left."))
    try:
        vacations.go_away(address, int(raw), bot=request.form.get("bot") == "1")
    except pace.PaceError:
        abort(400, _("Write a whole number of days, from 1 to the days left."))
    return redirect(f"/me/{token}?saved=1", code=303)


@bp.post("/me/<token>/new-link")
def new_link(token):
    """"Send me a new link; old ones stop": the new one goes to the address, not to this page."""
    address = _address(token)
    fresh.new_home_link(address, _language_of(address))
    return render_template("renew.html", game=None, sent=False, home_renewed=True,
                           reason=None)


@bp.post("/me/<token>/back")
def back(token):
    vacations.come_home(_address(token))
    return redirect(f"/me/{token}?saved=1", code=303)


# -- one game from the home page ------------------------------------------------------------------

@bp.get("/me/<token>/games/<int:game_id>")
def game_page(token, game_id):
    """The seat's view of one game, read-only: board, its own holdings, the log, the talk."""
    address = _address(token)
    seat = _seat(address, game_id)
    board = seat_view.board(store.get_game(game_id), seat.index)
    game, names = board["game"], board["names"]
    return render_template(
        "home_game.html", **board, token=token, messages=talk.listing(game, names),
        log=seat_view.game_log(game, seat.index, names, current_language()))


@bp.post("/me/<token>/games/<int:game_id>/play")
def play(token, game_id):
    """Play now: a fresh turn link for this seat (spending the mailed one), then the turn."""
    address = _address(token)
    seat = _seat(address, game_id)
    link = fresh.play_now(game_id, seat.index)
    if link is None:
        return redirect(f"/me/{token}/games/{game_id}", code=303)
    return redirect(f"/turn/{link}", code=303)


@bp.get("/me/<token>/games/<int:game_id>/replay")
def replay_page(token, game_id):
    address = _address(token)
    seat = _seat(address, game_id)
    return replay.render(store.get_game(game_id), seat=seat.index,
                         base=f"/me/{token}/games/{game_id}/replay",
                         talk_action=f"/me/{token}/games/{game_id}/messages")


@bp.post("/me/<token>/games/<int:game_id>/messages")
def post_message(token, game_id):
    address = _address(token)
    seat = _seat(address, game_id)
    try:
        talk.post(game_id, seat.index, request.form.get("text", ""))
    except talk.TalkError as exc:
        abort(exc.status, _("The message was not kept: write between 1 and %(n)s characters of "
                            "plain text.", n=talk.MAX_LENGTH) if exc.status == 400 else
              _("The message was not kept: you wrote several in the last minutes. "
                "Please wait a little."))
    return redirect(f"/me/{token}/games/{game_id}#talk", code=303)
