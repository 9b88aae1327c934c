"""Games asked for on /new. In production a game starts only when its host confirms it from
their own mailbox (so /new cannot mail strangers), and the database counts the sign-ups per host
address and per client address in a day (so the limits hold across workers and hosts)."""
from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from flask import current_app
from flask_babel import gettext as _
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from . import announce, outbox, webhooks
from . import creation
from ..db.database import is_sqlite
from ..errors import Refusal
from ..db.models import Signup, db, utcnow
from ..validate import address_key
from .keys import keys

SALT = "pbem.signup.v1"
DAY = dt.timedelta(days=1)
LIMITS_LOCK = 0x70626D02          # PostgreSQL advisory lock: one sign-up decision at a time


class SignupError(Refusal):
    """A confirmation link that cannot start a game; `status` is the page's HTTP status."""

    def __init__(self, status: int, message: str):
        super().__init__(message, status)


class LimitReached(Refusal, ValueError):
    """Too many games started today from this host address or this client."""

    status = 429


def _serializer() -> URLSafeTimedSerializer:
    return keys().serializer(SALT)


def _hash(nonce: str) -> str:
    return hashlib.sha256(nonce.encode()).hexdigest()


# -- the limits (call inside the write transaction that records the sign-up) ------------------------

def check_limits(host_email: str, client: str, now: dt.datetime | None = None) -> None:
    """LimitReached when this host address or this client started too many games today."""
    config, since = current_app.config, (now or utcnow()) - DAY
    if not is_sqlite():
        db.execute_sql("SELECT pg_advisory_xact_lock(%s)", (LIMITS_LOCK,))
    recent = Signup.select().where(Signup.created_at > since)
    per_host, per_client = config["GAMES_PER_HOST_PER_DAY"], config["GAMES_PER_CLIENT_PER_DAY"]
    if host_email and per_host > 0 and \
            recent.where(Signup.host_email == address_key(host_email)).count() >= per_host:
        raise LimitReached(_("This address has started %(n)s games today, the most a day: "
                             "please try again tomorrow.", n=per_host))
    if client and per_client > 0 and recent.where(Signup.client == client).count() >= per_client:
        raise LimitReached(_("%(n)s games were started from your network today, the most a "
                             "day: please try again tomorrow.", n=per_client))


def _prune(now: dt.datetime) -> None:
    """Sign-ups older than both a day and their link's age count for nothing any more."""
    age = max(DAY, dt.timedelta(seconds=current_app.config["SIGNUP_MAX_AGE"]))
    Signup.delete().where(Signup.created_at < now - age).execute()


# -- recording and confirming ----------------------------------------------------------------------

def record(request: dict, host_email: str, client: str, language: str,
           game=None) -> tuple[Signup, str]:
    """A sign-up (pending, or already started as `game`) and its confirmation token."""
    now = utcnow()
    _prune(now)
    nonce = secrets.token_urlsafe(24)
    signup = Signup.create(
        nonce_hash=_hash(nonce), host_email=address_key(host_email), client=client[:64],
        request=request, language=language, created_at=now,
        expires_at=now + dt.timedelta(seconds=current_app.config["SIGNUP_MAX_AGE"]),
        confirmed_at=now if game is not None else None, game=game)
    return signup, _serializer().dumps({"s": signup.id, "n": nonce})


def find(token: str) -> Signup:
    """The sign-up a confirmation token names, or SignupError (403 forged, 410 expired)."""
    try:
        data = _serializer().loads(token, max_age=current_app.config["SIGNUP_MAX_AGE"])
    except SignatureExpired:
        raise SignupError(410, _("This confirmation link has expired: fill in the form again."))
    except BadSignature:
        raise SignupError(403, _("This confirmation link is not valid: open it again from "
                                 "the mail."))
    signup = None
    if isinstance(data, dict) and isinstance(data.get("n"), str):
        signup = Signup.get_or_none(Signup.id == data.get("s"),
                                    Signup.nonce_hash == _hash(data["n"]))
    if signup is None:
        raise SignupError(410, _("This confirmation link has expired: fill in the form again."))
    return signup


def _locked(signup: Signup) -> Signup:
    query = Signup.select().where(Signup.id == signup.id)
    if not is_sqlite():
        query = query.for_update()
    return query.get()


def confirm(signup: Signup):
    """Start the signed-up game (inside the caller's write transaction): (game, host_token),
    or (game, None) when it was started already."""
    signup = _locked(signup)
    if signup.game_id is not None or signup.confirmed_at is not None:
        return signup.game, None
    if signup.expires_at <= utcnow():
        raise SignupError(410, _("This confirmation link has expired: fill in the form again."))
    asked = signup.request
    game, host_token = creation.create_game(asked["rules"], asked["players"], asked["options"],
                                         title=asked["title"], host_email=asked["host_email"],
                                         pace=asked.get("pace"))
    webhooks.attach(game, asked.get("webhook"))
    signup.confirmed_at, signup.game = utcnow(), game
    signup.save()
    return game, host_token


def sign_up(asked: dict, client: str, language: str, confirm: bool, confirm_url) -> str | None:
    """The form's request, in one transaction within the daily limits (LimitReached): with
    `confirm`, one mail to the host's own address with the link `confirm_url(token)` (None is
    returned); else the game starts at once and its host token is returned."""
    with outbox.transaction():
        check_limits(asked["host_email"], client)
        if confirm:
            signup, token = record(asked, asked["host_email"], client, language)
            announce.signup_confirmation(signup, confirm_url(token))
            return None
        game, host_token = creation.create_game(
            asked["rules"], asked["players"], asked["options"], title=asked["title"],
            host_email=asked["host_email"], pace=asked["pace"])
        webhooks.attach(game, asked.get("webhook"))
        record(asked, asked["host_email"], client, language, game=game)
        return host_token


def confirm_and_start(signup: Signup):
    """`confirm` in its own transaction: (game, host_token), host_token None if started
    already."""
    with outbox.transaction():
        return confirm(signup)
