"""No token in any log line. A real gunicorn runs with
deploy/gunicorn.conf.py (its access log and error log to stdout, as under systemd) and the
captured lines are read."""
from __future__ import annotations

import logging

import requests

from pbem.play import creation
from pbem.mail import mailer, urls
from pbem.log import store
from pbem.logs import GunicornLogger, redact
from tests.conftest import free_port, token_of, on_sqlite
from tests.support.gunicorn_server import Gunicorn

database_url = on_sqlite     # what gunicorn and Flask log, not storage: SQLite alone

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]


def secret_parts(token: str) -> list[str]:
    """The pieces of a token that would give it away (its payload and its signature)."""
    return [part for part in token.split(".") if len(part) > 8]


def test_gunicorn_and_flask_logs_redact_every_token(app, smtp, database_url):
    game, host_token = creation.create_game("duel", PLAYERS, seed=3)
    mailer.send_due()
    token = token_of(smtp.inbox.last_link("ann@example.org"))
    optout = urls.optout_url("a@b.org").rsplit("/", 1)[1]          # a short one
    env = {"PBEM_DATABASE_URL": database_url, "PBEM_SECRET_KEY": app.config["SECRET_KEY"],
           "PBEM_BASE_URL": "http://pbem.test", "PBEM_MAIL_PORT": str(smtp.port)}
    with Gunicorn(free_port(), env, workers=1, app="tests.support.failing_wsgi:app",
                  config="deploy/gunicorn.conf.py") as server:
        visits = [("get", f"/turn/{token}?done=1"), ("get", f"/api/turn/{token}"),
                  ("get", f"/replay/{token}"), ("get", f"/host/{host_token}"),
                  ("post", f"/turn/{token}/renew"), ("get", f"/turn/{token}/fail"),
                  ("get", f"/?next=/turn/{token}"), ("get", f"/confirm/{token}"),
                  ("post", f"/host/{host_token}/resend/1"), ("get", f"/optout/{optout}")]
        for method, path in visits:
            answer = requests.request(method, server.url + path, timeout=30,
                                      allow_redirects=False)
            assert answer.status_code < 500 or path.endswith("/fail"), path
    log = server.output
    for secret in secret_parts(token) + secret_parts(host_token) + [optout]:
        assert secret not in log, f"a token in the log:\n{log}"
    for shown in ('"GET /turn/…?done=1 ', '"GET /api/turn/… ', '"GET /replay/… ',
                  '"GET /host/… ', '"POST /turn/…/renew ', '"GET /confirm/… ',
                  '"GET /optout/… ',
                  "Exception on /turn/…/fail [GET]", "RuntimeError: a failure inside"):
        assert shown in log, f"{shown!r} not in the log:\n{log}"


def test_gunicorns_error_log_redacts_a_token_in_a_message_and_a_traceback(tmp_path):
    from gunicorn.config import Config
    cfg = Config()
    cfg.set("errorlog", str(tmp_path / "error.log"))
    logger = GunicornLogger(cfg)
    token = "eyJnIjoxLCJzIjowLCJuIjoiYWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoifQ.aw2HPA.jMFfRiWq2MDPYTMkMR"
    logger.error("Error handling request %s", f"/turn/{token}")
    try:
        raise ValueError(f"while reading /host/{token}")
    except ValueError:
        logger.exception("Error handling request")
    for handler in logger.error_log.handlers:
        handler.flush()
    text = (tmp_path / "error.log").read_text()
    assert "Error handling request /turn/…" in text and "/host/…" in text
    assert "ValueError" in text and "aw2HPA" not in text and "jMFfRiWq" not in text


def test_redact_keeps_ordinary_paths_and_hides_signed_values():
    token = "eyJnIjoxLCJzIjowfQ.aw2HPA.jMFfRiWq2MDPYTMkMRthv4t8Pyw"
    compressed = ".eJyrVkpUslJKVNJRKkktLlGyUjI0MDQ.ZyYcXw.abcdefghij_klmnopq"
    assert redact("GET /static/turn.js HTTP/1.1") == "GET /static/turn.js HTTP/1.1"
    assert redact("GET /games/12/record.json") == "GET /games/12/record.json"
    assert redact(f"GET /turn/{token}/renew") == "GET /turn/…/renew"
    assert redact(f"GET /unsubscribe/{compressed} HTTP/1.1") == "GET /unsubscribe/… HTTP/1.1"
    assert redact(f"GET /?token={token}&lang=hu") == "GET /?token=…&lang=hu"
    assert redact("/turn/nonsense") == "/turn/…"


def test_flask_logger_redacts_under_any_server(app, caplog):
    with caplog.at_level(logging.ERROR, logger=app.logger.name):
        app.logger.error("Exception on %s [%s]", "/host/abcdefghijklmnopqrstuvwx.yz.abc", "GET")
    assert "/host/…" in caplog.text and "abcdefghijklmnop" not in caplog.text
