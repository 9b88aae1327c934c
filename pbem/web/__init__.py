"""The web: turn pages and their JSON API, game pages, replays, the host's pages."""
from __future__ import annotations

import re
from urllib.parse import urlencode, urlsplit

import flask_babel
from flask import Flask, abort, current_app, request

from ..errors import Refusal
from . import kept_parts, log_items
from ..present.titles import game_name, title_of


def register_blueprints(app: Flask) -> None:
    from . import api, dev, games, health, home, host, optout, replay, signup, talk, turn
    from .inputs import BoundedInt

    app.url_map.converters["int"] = BoundedInt      # before any route is added
    app.register_blueprint(turn.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(replay.bp)
    app.register_blueprint(host.bp)
    app.register_blueprint(health.bp)
    app.register_blueprint(optout.bp)
    app.register_blueprint(signup.bp)
    app.register_blueprint(talk.bp)
    app.register_blueprint(home.bp)
    if app.config["ENV"] == "development":
        app.register_blueprint(dev.bp)

    # Flask-Babel keeps the locale on `g`, which lives as long as the app context: a request
    # made inside an outer app context (tests, commands) must choose its language afresh.
    app.before_request_funcs.setdefault(None, []).insert(0, flask_babel.refresh)

    app.before_request(refuse_cross_site_posts)

    for status in (400, 403, 404, 405, 413, 429):
        app.register_error_handler(status, error_page)
    app.register_error_handler(Refusal, refusal_page)

    app.add_template_filter(title_of)
    kept_parts.init_app(app)
    log_items.init_app(app)

    @app.context_processor
    def language_switch():
        return {"lang_url": lang_url, "game_name": game_name}


def refuse_cross_site_posts():
    """403 for a POST that another site's page made (a forged form a player's browser is led
    to send): the browser says so in Sec-Fetch-Site, or older ones by an Origin that is not
    this site. Only the RFC 8058 one-click unsubscribe (POST /optout/<token>) is made by the
    mailbox provider, from its own site."""
    if request.method != "POST" or ONE_CLICK_UNSUBSCRIBE.fullmatch(request.path):
        return None
    if request.headers.get("Sec-Fetch-Site", "").lower() == "cross-site":
        abort(403, "A form of another site cannot act here.")
    origin = request.headers.get("Origin")
    # "null" says nothing: under Referrer-Policy: no-referrer (every page here) Chromium sends
    # Origin: null with its own same-site form posts; Sec-Fetch-Site above tells them apart
    if origin not in (None, "null") and _origin_of(origin) not in _own_origins():
        abort(403, "A form of another site cannot act here.")
    return None


ONE_CLICK_UNSUBSCRIBE = re.compile(r"/optout/[^/]+")


def _origin_of(url: str) -> str:
    parts = urlsplit(url.strip())
    return f"{parts.scheme}://{parts.netloc}".lower() if parts.scheme and parts.netloc else url


def _own_origins() -> set:
    """This site as PBEM_BASE_URL names it, and as the request reached it."""
    return {_origin_of(current_app.config.get("BASE_URL") or ""), _origin_of(request.host_url)}


def lang_url(code: str) -> str:
    """This page in another language: the same query with ?lang= set, as a query-only
    reference: it keeps the page's own path, so no path (`/%5Cevil.example/`, `//evil`) can
    turn the switch into a link to another site."""
    args = [(k, v) for k, v in request.args.items(multi=True) if k not in ("lang", "done")]
    return "?" + urlencode(args + [("lang", code)])


def refusal_page(refusal: Refusal):
    """Any refusal a route did not answer itself: its reason, with its status (the site's error
    page; under /api, `{"error": reason}`)."""
    from werkzeug.exceptions import HTTPException
    error = HTTPException(description=str(refusal))
    error.code = refusal.status
    return error_page(error)


def error_page(exc):
    """Errors as pages of the site (its language, its switch), not the framework's default."""
    from flask import render_template
    from flask_babel import gettext as _
    titles = {400: _("The request was not understood"), 403: _("Not allowed"),
              404: _("Not found"), 405: _("Not allowed"),
              413: _("The request is too large"), 429: _("Please wait a little")}
    code = getattr(exc, "code", 500) or 500
    description = getattr(exc, "description", "")
    if code == 413:
        description = _("A request may carry at most %(kib)s KiB.",
                        kib=(current_app.config.get("MAX_CONTENT_LENGTH") or 0) // 1024)
    if request.path.startswith("/api/"):
        from flask import jsonify
        return jsonify({"error": description or str(exc)}), code
    return render_template("error.html", title=titles.get(code, str(code)),
                           description=description), code
