"""Languages: English and Hungarian, chosen by the switch on every page (a cookie), else the
player's language when invited, else the browser's."""
from __future__ import annotations

from flask import Flask, g, has_request_context, request
from flask_babel import Babel, get_locale
from jinja2 import pass_eval_context
from markupsafe import Markup

from ..present import seat as seat_view
from ..games.base import (LANGUAGES, TRANSLATION_DIRECTORIES, _, current_language,
                          set_language)
from ..play.keys import keys

COOKIE = "pbem_lang"
babel = Babel()


def _seat_language() -> str | None:
    """The invited player's language, when the page belongs to a turn link."""
    token = (request.view_args or {}).get("token")
    if not token or not request.path.startswith(("/turn/", "/api/turn/", "/replay/")):
        return None
    found = keys().identify(token)
    if found is None:
        return None
    return seat_view.language_of(found[0], found[1])


def select_locale() -> str:
    if not has_request_context():
        return current_language()           # emails and commands: what `speaking` chose
    chosen = request.args.get("lang")
    if chosen in LANGUAGES:
        g.chosen_language = chosen
        return chosen
    cookie = request.cookies.get(COOKIE)
    if cookie in LANGUAGES:
        return cookie
    return _seat_language() or request.accept_languages.best_match(LANGUAGES) or "en"


def _template_ngettext(singular: str, plural: str, num: int) -> str:
    """The plural form for templates, unformatted: Jinja's newstyle ngettext calls this with
    the number alone and then formats the text with every variable the template gave
    (formatting here with `num` only would fail on "%(name)s")."""
    from ..games.base import _catalogue
    return _catalogue(current_language()).ngettext(singular, plural, num)


@pass_eval_context
def _template_gettext(eval_ctx, message: str, **variables) -> str:
    """`_("...", name=...)` in a template, as Jinja's newstyle gettext does it (the message
    is always a format string; in an autoescaped template the variables are escaped into
    it) but in one call: Jinja's own `_` calls through the context three times, and a page
    says `_` seventy times."""
    text = _(message)
    return (Markup(text) if eval_ctx.autoescape else text) % variables


def init_app(app: Flask) -> None:
    # pbem's own catalogue and each game's, merged (relative to the pbem package). Flask-Babel
    # lets a later folder override an earlier one, so pbem's own goes last: it wins, as it
    # does for the engines (pbem.games.base._catalogue).
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES",
                          ";".join(reversed(TRANSLATION_DIRECTORIES)))
    babel.init_app(app, locale_selector=select_locale, default_locale="en")
    # one time format on every page and in every mail (Flask-Babel's filter of that name took
    # the format per call, and pages mixed four of them)
    from ..present.times import bank_days, in_their_zone, local, when
    app.jinja_env.filters["datetimeformat"] = when
    app.jinja_env.filters["when"] = when
    app.jinja_env.filters["local"] = local      # the reader's own zone, after a UTC sentence
    app.jinja_env.filters["in_zone"] = in_their_zone    # another's zone: a player's quiet hours
    app.jinja_env.filters["bank_days"] = bank_days      # a clock's bank: "3 days 4 hours"
    # Templates translate through the same catalogues as the engines, looked up by the
    # language set below: a board calls gettext hundreds of times a render, and Flask-Babel's
    # own callables walk the request context on every call.
    from ..present import gettext
    app.jinja_env.install_gettext_callables(gettext=gettext, ngettext=_template_ngettext,
                                            newstyle=True)
    app.jinja_env.globals["_"] = _template_gettext

    @app.before_request
    def speak():
        set_language(str(get_locale()))       # the rules engines speak it too

    @app.teardown_request
    def back_to_english(exc):
        set_language("en")                    # the next work in this thread starts afresh

    @app.after_request
    def remember(response):
        chosen = g.get("chosen_language")
        if chosen:
            response.set_cookie(COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax",
                                httponly=True)
        return response

    @app.context_processor
    def languages():
        return {"languages": LANGUAGES, "language": str(get_locale())}
