"""Settings: defaults, overridden by PBEM_* environment variables, then by create_app(config)."""
from __future__ import annotations

import os

DEFAULTS = {
    "ENV": "production",                  # PBEM_ENV=development for `make run`
    "DATABASE_URL": "sqlite:///instance/pbem.db",
    "SECRET_KEY": None,
    "BASE_URL": "http://localhost:5000",
    "MAIL_SERVER": "localhost",
    "MAIL_PORT": 25,
    "MAIL_USE_TLS": False,
    "MAIL_USE_SSL": False,
    "MAIL_USERNAME": None,
    "MAIL_PASSWORD": None,
    "MAIL_SENDER": "pbem <pbem@localhost>",
    "MAIL_TIMEOUT": 20,                   # seconds; flask-mail has no timeout of its own
    "LINK_MAX_AGE": 30 * 24 * 3600,       # seconds a turn link stays valid
    "HOST_LINK_MAX_AGE": 2 * 365 * 24 * 3600,
    "RENEW_INTERVAL": 300,                # seconds between two fresh links on request
    "MAIL_CATCHER_DIR": None,             # development: where the local catcher keeps mail
}

DEV_SECRET_KEY = "pbem-development-only-not-secret"


def _coerce(default, raw: str):
    if isinstance(default, bool):
        return raw.strip().lower() in ("1", "true", "yes", "on")
    if isinstance(default, int):
        return int(raw)
    return raw


def from_environment(environ=os.environ) -> dict:
    """The settings, with every PBEM_<NAME> variable applied over the defaults."""
    settings = dict(DEFAULTS)
    for key, default in DEFAULTS.items():
        raw = environ.get(f"PBEM_{key}")
        if raw is not None and raw != "":
            try:
                settings[key] = _coerce(default, raw)
            except ValueError:
                raise SystemExit(f"PBEM_{key}={raw!r} is not a valid {type(default).__name__}")
    return settings
