"""A game's chat webhook: its turns, missed deadlines and result posted to a group chat.

The host gives a URL (`pbem games create --webhook`, the field on /new, the host page). Posts
go through the outbox like mail (kind "webhook", the URL as recipient), so they are retried with
backoff and a permanent failure shows on the host page; pbem/mail/webhooks.py delivers them.
What a post says is public: who is to act, who missed a deadline, the result, the game page's
address — never a link, a token or anything a seat holds.

The URL is checked where it enters and again before each post (a name may resolve elsewhere
later): https only, no credentials in it, and a host whose every address is public — no
loopback, private, link-local (cloud metadata), shared or reserved address, nor an IPv6 address
that carries a non-public IPv4 one (pbem/outbound.py). The post never follows a redirect. PBEM_WEBHOOK_ALLOW_PRIVATE=true lifts the address check (and allows plain
http) for development and tests.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app
from flask_babel import gettext as _

from .. import outbound
from ..db.models import Game, Seat, Webhook
from ..db.prepared import Prepared
from ..log import store
from ..validate import Invalid
from . import outbox

MAX_URL = 254          # it rides in the outbox's recipient column
KIND = "webhook"


class WebhookError(Invalid):
    """A webhook URL that cannot be used (400); the message says why."""


class Unresolved(WebhookError):
    """The URL's host name did not resolve: it may again later (a DNS outage)."""


def allow_private() -> bool:
    return bool(current_app.config.get("WEBHOOK_ALLOW_PRIVATE"))


def check_url(raw, private: bool | None = None, resolve: bool = True) -> str:
    """The URL as it will be used, or WebhookError. Resolves the host name (every address must
    be public unless `private`) unless not `resolve` (the caller looks it up itself)."""
    private = allow_private() if private is None else private
    if not isinstance(raw, str) or not raw.strip():
        raise WebhookError(_("Write the webhook's URL, starting with https://."))
    url = raw.strip()
    if len(url) > MAX_URL or not url.isascii() or any(c.isspace() or ord(c) < 32 or c == "\x7f"
                                                      for c in url):
        raise WebhookError(_("A webhook URL is at most %(n)s characters of plain text, "
                             "without spaces.", n=MAX_URL))
    parts = urlsplit(url)
    schemes = ("https", "http") if private else ("https",)
    if parts.scheme.lower() not in schemes:
        raise WebhookError(_("A webhook URL must start with https://."))
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        raise WebhookError(_("The webhook URL's port is not a number.")) from None
    if not host:
        raise WebhookError(_("The webhook URL names no host."))
    if parts.username is not None or parts.password is not None:
        raise WebhookError(_("A webhook URL may not carry a user name or password."))
    if resolve:
        addresses(host, port or (443 if parts.scheme.lower() == "https" else 80), private)
    return url


def addresses(host: str, port: int, private: bool | None = None) -> list[str]:
    """The host's addresses, each checked (pbem/outbound.py): Unresolved when it does not
    resolve, WebhookError when any address is not public (unless `private`)."""
    private = allow_private() if private is None else private
    try:
        return outbound.addresses(host, port, private)
    except outbound.Unresolvable:
        raise Unresolved(_("The webhook's host %(host)s could not be found.", host=host)) from None
    except outbound.NotPublic as refused:
        shown = (f"{refused.ip}, which carries {refused.carried}" if refused.carried is not None
                 else str(refused.ip))
        raise WebhookError(_("The webhook's host %(host)s is not on the public internet "
                             "(%(ip)s): pbem posts only to public addresses.",
                             host=host, ip=shown)) from None


def url_of(game: Game) -> str | None:
    return URL_OF.value(game.id)


# asked on every change of every game: its SQL built once
URL_OF = Prepared(Webhook, lambda game_id: Webhook.select(Webhook.url)
                  .where(Webhook.game == game_id).limit(1))


def set_url(game: Game, url: str | None) -> None:
    """Set, change (`url` checked already, see check_url) or remove (None) the game's webhook."""
    Webhook.delete().where(Webhook.game == game.id).execute()
    if url:
        Webhook.create(game=game.id, url=url)


def check_optional(raw) -> str | None:
    """A form's or a command's webhook field: None when left empty, else the checked URL."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    return check_url(raw)


def attach(game: Game, url: str | None) -> None:
    """Set (or with None remove) the game's webhook, in the caller's transaction; a running
    game posts at once who is to act, so the chat sees it works."""
    set_url(game, url)
    if url and game.status == "running":
        rules = store.rules_of(game)
        to_act = rules.to_act(store.state_of(game))
        if to_act:
            post(game, "turn", list(game.seats.order_by(Seat.index)), to_act=sorted(to_act))


def change(game: Game, raw) -> str | None:
    """The host sets, changes or (with an empty field) removes the game's webhook; the URL
    kept, or None."""
    url = check_optional(raw)
    with outbox.transaction():
        attach(store.get_game(game.id), url)
    return url


def _language(seats: list[Seat]) -> str:
    return seats[0].language if seats else "en"


def post(game: Game, what: str, seats: list[Seat], **context) -> None:
    """Queue one post about the game (`what`: turn, late or over) when it has a webhook; in the
    caller's transaction, like its mails."""
    url = url_of(game)
    if url is None:
        return
    outbox.queue(game, None, KIND, url, KIND, _language(seats), what=what, seq=game.seq,
                 **context)


def after_change(game: Game, before: list[int], now: list[int], over: bool,
                 seats: list[Seat]) -> None:
    """Post when the game ended, or when who is to act changed."""
    if over:
        post(game, "over", seats)
    elif set(now) != set(before) and now:
        post(game, "turn", seats, to_act=sorted(now))
