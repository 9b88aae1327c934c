"""The application factory: settings, database, mail, pages and commands."""
from __future__ import annotations

import logging

import peewee as pw
from flask import Flask, current_app, request
from flask.templating import Environment
from flask.sessions import SessionInterface
from jinja2 import BytecodeCache

from . import config as settings_module
from .web import i18n
from . import package
from .db.database import bind, discard_connection, end_request, parts_of
from .logs import redact_flask_logs
from .mail import compose
from .mail.mailer import mail
from .db.models import db

log = logging.getLogger(__name__)

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'")


class _CompiledTemplates(BytecodeCache):
    """Templates compiled once per process, whichever app of it renders them (the tests
    build an app per test; a command builds its own beside a worker's): Jinja checks each
    entry against its template's source, so an edited template is compiled again."""

    def __init__(self):
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket):
        code = self.code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket):
        self.code[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = _CompiledTemplates()
_DICT_ATTRIBUTES = frozenset(dir(dict))


class _PageEnvironment(Environment):
    """Flask's template environment, with `view.players` on a plain dict looked up as an item
    at once. Jinja tries the attribute first and catches the AttributeError: the views are
    dicts, and a turn page reads hundreds of their keys. The answer is the same: a plain
    dict has no attribute but its methods, and those names still go to Jinja."""

    def getattr(self, obj, attribute):
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except (KeyError, TypeError):
                pass
        return super().getattr(obj, attribute)


def create_app(config: dict | None = None) -> Flask:
    settings = settings_module.from_environment()
    settings.update(config or {})
    app = Flask(__name__, template_folder=str(package.folder("templates")))
    app.jinja_environment = _PageEnvironment
    # every template kept for good (a few dozen): Jinja's default LRU of 400 pays an O(n)
    # deque removal under a lock on each lookup, and a page looks templates up ten times
    app.jinja_options = {**app.jinja_options, "bytecode_cache": COMPILED_TEMPLATES,
                         "cache_size": -1}
    _game_files(app)
    app.config.update(settings)
    _require_secret_key(app)
    from .play import keys
    keys.install(app)              # the one object that holds the secret key and links' ages
    redact_flask_logs(app)
    # flask-mail would silently drop mail under TESTING; the tests want real SMTP.
    app.config.update(MAIL_DEFAULT_SENDER=app.config["MAIL_SENDER"], MAIL_SUPPRESS_SEND=False)
    bind(app.config["DATABASE_URL"], parts_of(app.config))
    mail.init_app(app)
    compose.init_app(app)
    _database_per_request(app)
    i18n.init_app(app)
    _security_headers(app)
    app.session_interface = _NoSessions()
    _compressed(app)
    _signup_settings(app)

    from .web import register_blueprints
    register_blueprints(app)
    from .ops.commands import register_commands
    register_commands(app.cli)
    from .ops.check import deploy_file_findings
    from .play import health
    health.HOST_CHECKS["deploy files"] = deploy_file_findings   # /health as pbem check
    return app


def _game_files(app: Flask) -> None:
    """The files a game keeps in its folder (pbem.games.FOLDERS), a built-in game's as a
    plugin's: `templates/x.html` is the template "games/<name>/x.html", `static/x.css` is
    served at /static/games/<name>/x.css."""
    from flask import Blueprint
    from jinja2 import ChoiceLoader, FileSystemLoader, PrefixLoader

    from .games import FOLDERS
    templates = {}
    for name, folder in FOLDERS.items():
        if (folder / "templates").is_dir():
            templates[name] = FileSystemLoader(folder / "templates")
        if (folder / "static").is_dir():
            app.register_blueprint(Blueprint(f"game_{name}", __name__,
                                             static_folder=str(folder / "static"),
                                             static_url_path=f"/static/games/{name}"))
    if templates:
        app.jinja_loader = ChoiceLoader([app.jinja_loader,
                                         PrefixLoader({"games": PrefixLoader(templates)})])


def is_development(app: Flask) -> bool:
    return app.config["ENV"] == "development" or bool(app.config.get("TESTING"))


def _signup_settings(app: Flask) -> None:
    """/new confirms by mail unless told otherwise, except in development and tests; the
    client address the sign-up limits count comes from X-Forwarded-For only when PBEM_PROXIES
    says how many proxies in front set it (a header a stranger could forge otherwise)."""
    confirm = app.config["SIGNUP_CONFIRM"]
    if isinstance(confirm, str):
        confirm = (not is_development(app) if confirm.strip().lower() == "auto"
                   else settings_module.flag(confirm))
    app.config["SIGNUP_CONFIRM"] = confirm
    proxies = int(app.config["PROXIES"] or 0)
    if proxies > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)


def _require_secret_key(app: Flask) -> None:
    """Outside development the key that signs every link must be set, long and not the
    example's: anyone who knows it can forge any player's turn link."""
    key = app.config.get("SECRET_KEY")
    if is_development(app):
        app.config["SECRET_KEY"] = key or settings_module.DEV_SECRET_KEY
        return
    if not key:
        raise RuntimeError("PBEM_SECRET_KEY is not set: pbem refuses to start outside "
                           "development (PBEM_ENV=development) without a secret key")
    weakness = settings_module.secret_key_weakness(key)
    if weakness:
        raise settings_module.SettingsError(f"PBEM_SECRET_KEY {weakness}: pbem refuses to start with it "
                           "outside development. Make one with: python3 -c \"import secrets; "
                           "print(secrets.token_urlsafe(48))\"")


def _database_per_request(app: Flask) -> None:
    @app.before_request
    def connect():
        if request.blueprint == "health":
            return                      # /health connects itself, to say when it cannot
        db.connect(reuse_if_open=True)

    for unreachable in DATABASE_DOWN:
        app.register_error_handler(unreachable, database_down_page)

    @app.teardown_request
    def close(exc):
        # Every request ends its transaction, whatever happened in it: after a failure the
        # connection is dropped and the next request opens a fresh one.
        end_request(exc)


class _NoSessions(SessionInterface):
    """pbem keeps no session: a signed link or a home link is a visitor's only identity, and
    nothing is ever stored in a cookie session. Flask's own interface built a signing
    serializer on every request to read a cookie that never exists."""

    def open_session(self, app, request):
        return self.make_null_session(app)

    def save_session(self, app, session, response):
        return None


def _security_headers(app: Flask) -> None:
    @app.after_request
    def headers(response):
        response.headers["Referrer-Policy"] = "no-referrer"
        # a page that needs another policy (the development mail viewer) sets its own
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers.setdefault("Cache-Control", "no-store")
        return response


def _compressed(app: Flask) -> None:
    """Text answers (pages, JSON, CSS, the calendar) compressed for a client that asks (gzip,
    brotli or zstd), when pbem serves directly; behind nginx the site does it too
    (deploy/nginx-pbem.conf). A turn page is about 52 KB raw and 9 KB gzipped."""
    from flask_compress import Compress
    app.config.setdefault("COMPRESS_MIMETYPES", [
        "text/html", "text/css", "text/plain", "text/calendar", "application/json",
        "application/javascript", "text/javascript", "image/svg+xml"])
    app.config.setdefault("COMPRESS_MIN_SIZE", 1024)
    Compress(app)


DATABASE_DOWN = (pw.OperationalError, pw.InterfaceError)   # peewee's words for "cannot reach it"
RETRY_AFTER = 30            # seconds a visitor is asked to wait while the database is down


def database_down_page(exc):
    """503 with Retry-After while the database cannot be reached (a PostgreSQL restarting, a
    network gone, SQLite's disk full or its lock held too long), not 500: the request may be
    made again. The connection goes, the pool's idle ones with it; the log gets one line."""
    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    log.warning("%s %s: the database cannot be used: %s: %s", request.method, request.path,
                type(exc).__name__, first[:300])
    discard_connection(pool_too=True)
    title, description = "The server cannot reach its database", "Please try again in a minute."
    try:
        from flask_babel import gettext as _
        title, description = _(title), _(description)
    except Exception:  # noqa: BLE001 - no language to be had: English
        pass
    if request.path.startswith("/api/"):
        from flask import jsonify
        response = jsonify({"error": f"{title}. {description}"})
    else:
        try:
            from flask import render_template
            response = current_app.make_response(
                render_template("error.html", title=title, description=description))
        except Exception:  # noqa: BLE001 - the page must not fail: plain words then
            response = current_app.make_response(f"{title}. {description}\n")
            response.mimetype = "text/plain"
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response
