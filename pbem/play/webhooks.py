"""A game's chat webhook: its turns, missed deadlines and result posted to a group chat.

The host gives a URL (`pbem games create --webhook`, the field on /new, the host page). Posts
go through the outbox like mail (kind "webhook", the URL as recipient), so they are retried with
backoff and a permanent failure shows on the host page; pbem/mail/webhooks.py delivers them.
What a post says is public: who is to act, who missed a deadline, the result, the game page's
address — never a link, a token or anything a seat holds.

The URL is checked where it enters and again before each post (a name may resolve elsewhere
later): https only, no credentials in it, and a host whose every address is public — no
loopback, private, link-local (cloud metadata), shared or reserved address, nor an IPv6 address
that carries a non-public IPv4 one (see is_public). The post never
follows a redirect. PBEM_WEBHOOK_ALLOW_PRIVATE=true lifts the address check (and allows plain
http) for development and tests.
"""
from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from flask import current_app
from flask_babel import gettext as _

from ..db.models import Game, Seat, Webhook
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
    """The host's addresses, each checked: WebhookError when it does not resolve, or when any
    address is not public (unless `private`)."""
    private = allow_private() if private is None else private
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        raise Unresolved(_("The webhook's host %(host)s could not be found.", host=host)) from None
    ips = []
    for _family, _type, _proto, _name, sockaddr in found:
        ip = ipaddress.ip_address(sockaddr[0].split("%")[0])
        if not private and not is_public(ip):
            carried = carried_ipv4(ip)
            shown = f"{ip}, which carries {carried}" if carried is not None else str(ip)
            raise WebhookError(_("The webhook's host %(host)s is not on the public internet "
                                 "(%(ip)s): pbem posts only to public addresses.",
                                 host=host, ip=shown))
        ips.append(str(ip))
    if not ips:
        raise Unresolved(_("The webhook's host %(host)s could not be found.", host=host))
    return ips


# Never posted to, whatever Python's is_global says of them (3.11 calls some of them global).
NEVER_PUBLIC = [ipaddress.ip_network(network) for network in (
    "192.0.0.0/24",         # IETF protocol assignments (DS-Lite, NAT64 discovery, dummy address)
    "2001::/32",            # Teredo: a tunnel to IPv4 addresses hidden inside it
    "64:ff9b:1::/48",       # NAT64 for local use: the site's own translator, to its own network
)]
# IPv6 forms whose last 32 bits are an IPv4 address the packets may end up at.
CARRYING_IPV4 = [ipaddress.ip_network(network) for network in (
    "::/96",                # IPv4-compatible, ::a.b.c.d (deprecated)
    "::ffff:0:0/96",        # IPv4-mapped, ::ffff:a.b.c.d: the IPv4 host itself
    "::ffff:0:0:0/96",      # IPv4-translated (SIIT), ::ffff:0:a.b.c.d
    "64:ff9b::/96",         # NAT64's well-known prefix (DNS64 answers with it)
)]


def carried_ipv4(ip) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (the forms above, or 6to4's 2002::/16), or
    None."""
    if ip.version != 6 or ip.is_loopback or ip.is_unspecified:     # ::1 and :: are no IPv4
        return None
    if ip.sixtofour is not None:
        return ip.sixtofour
    if any(ip in network for network in CARRYING_IPV4):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def is_public(ip) -> bool:
    """True when a post may go to `ip`: a global unicast address, not one of NEVER_PUBLIC, and
    when it carries an IPv4 address (NAT64, 6to4, mapped...), that one public too: a form that
    embeds 127.0.0.1 reaches the loopback through a translator or the kernel."""
    if any(ip in network for network in NEVER_PUBLIC):
        return False
    carried = carried_ipv4(ip)
    if carried is not None:
        return is_public(carried)
    return ip.is_global and not ip.is_multicast


def url_of(game: Game) -> str | None:
    row = Webhook.get_or_none(Webhook.game == game.id)
    return row.url if row is not None else None


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
