"""Logs without secrets: the token in a turn, host or replay link is its only credential, so
no log line (gunicorn's access and error logs, Flask's and werkzeug's) may carry one.

Two patterns, so routes added later are covered too: everything after /turn/, /host/,
/replay/, /api/turn/, /optout/ (and /confirm/, /signup/), and any path segment or query value
shaped like a signed token
(itsdangerous: base64url parts joined by dots, optionally compressed with a leading dot).
"""
from __future__ import annotations

import logging
import re

from gunicorn.glogging import Logger

REDACTED = "…"
_TOKEN_ROUTE = re.compile(r"(/(?:api/)?(?:turn|host|replay|optout|confirm|signup)/)"
                          r"[^/\s?#\"']+")
_SIGNED = re.compile(r"(?<=[/=])\.?[A-Za-z0-9_\-]{16,}(?:\.[A-Za-z0-9_\-]{2,}){1,3}"
                     r"(?=$|[/?#&\s\"'])")


def redact(text: str) -> str:
    """`text` with every token-bearing path segment or query value replaced by …"""
    return _SIGNED.sub(REDACTED, _TOKEN_ROUTE.sub(r"\1" + REDACTED, text))


class RedactTokens(logging.Filter):
    """Rewrites a record's message (and traceback) with the tokens redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a broken record is logged as it is
            return True
        record.msg, record.args = redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


_FILTER = RedactTokens()


def redact_logger(logger: logging.Logger) -> None:
    """Filter every record `logger` itself makes (idempotent)."""
    if _FILTER not in logger.filters:
        logger.addFilter(_FILTER)


def redact_flask_logs(app) -> None:
    """Flask's error log ("Exception on /turn/... [POST]") and the development server's
    request lines (the "werkzeug" logger)."""
    redact_logger(app.logger)
    redact_logger(logging.getLogger("werkzeug"))


class GunicornLogger(Logger):
    """gunicorn's logger with every handler of its error and access logs filtered
    (`logger_class = "pbem.logs.GunicornLogger"` in deploy/gunicorn.conf.py)."""

    def setup(self, cfg):
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            redact_logger(log)
            for handler in log.handlers:
                if _FILTER not in handler.filters:
                    handler.addFilter(_FILTER)
