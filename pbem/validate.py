"""What people type in (names, titles, email addresses) checked where it enters: the web form,
`pbem games create` and imported records all pass through here before anything is written.

A name or a title ends up in mail headers and pages: no control or format characters (a line
break in a Subject stops the mail), and never longer than its column (PostgreSQL refuses what
SQLite would keep). Addresses are checked by email-validator, without DNS.
"""
from __future__ import annotations

import functools
import unicodedata

from .errors import Refusal

from email_validator import EmailNotValidError, validate_email
from flask_babel import gettext as _

NAME_LENGTH = 100      # Seat.name
TITLE_LENGTH = 200     # Game.title
EMAIL_LENGTH = 254     # Seat.email, Game.host_email, Outbox.recipient
ELLIPSIS = "…"

# Cc: controls (CR, LF, TAB, NUL...); Cf: format characters (bidi overrides, zero-width...);
# Zl/Zp: the Unicode line and paragraph separators (U+2028, U+2029).
FORBIDDEN_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}


class Invalid(Refusal, ValueError):
    """Input that cannot be stored; the message says what to change, in the reader's language."""


def has_forbidden_characters(text: str) -> bool:
    # Every forbidden category is one that str.isprintable() refuses (it refuses all of "Other"
    # and "Separator" but the ASCII space): a text it accepts, nearly every one, is answered
    # at C speed (an imported record's names ran a million characters a second through the loop)
    if text.isprintable():
        return False
    return any(unicodedata.category(ch) in FORBIDDEN_CATEGORIES for ch in text)


def _text(raw, length: int, what: str, required: bool) -> str:
    if raw is None:
        raw = ""
    if not isinstance(raw, str):
        raise Invalid(_("%(what)s must be text.", what=what))
    text = raw.strip()
    if required and not text:
        raise Invalid(_("%(what)s is missing.", what=what))
    if has_forbidden_characters(text):
        raise Invalid(_("%(what)s contains a line break or another control character.",
                        what=what))
    if len(text) > length:
        raise Invalid(_("%(what)s is too long: at most %(n)s characters.", what=what, n=length))
    return text


def name(raw, what: str | None = None) -> str:
    """A player's name: 1 to 100 characters on one line."""
    return _text(raw, NAME_LENGTH, what or _("The name"), required=True)


def title(raw) -> str:
    """A game's title (may be empty: the game then gets its default title)."""
    return _text(raw, TITLE_LENGTH, _("The title"), required=False)


def email(raw, what: str | None = None, required: bool = True) -> str:
    """An RFC-valid address (syntax only, no DNS), normalised; "" when optional and empty."""
    what = what or _("The address")
    text = _text(raw, EMAIL_LENGTH, what, required=required)
    if not text:
        return ""
    try:
        checked = validate_email(text, check_deliverability=False, allow_smtputf8=False)
    except EmailNotValidError:
        raise Invalid(_("%(what)s is not a valid email address.", what=what)) from None
    address = checked.ascii_email or checked.normalized
    if len(address) > EMAIL_LENGTH:
        raise Invalid(_("%(what)s is too long: at most %(n)s characters.", what=what,
                        n=EMAIL_LENGTH))
    return address


def host_email(raw, required: bool) -> str:
    return email(raw, _("The host's address"), required=required)


def players(raw_players: list[dict], email_required: bool = False) -> list[dict]:
    """Each player's name, email and language checked; ValueError names the player."""
    checked = []
    for index, player in enumerate(raw_players):
        if not isinstance(player, dict):
            raise Invalid(_("Player %(n)s: %(problem)s", n=index + 1,
                            problem=_("write a name and an email address.")))
        try:
            checked.append(dict(
                player, name=name(player.get("name")),
                email=email(player.get("email"), required=email_required)))
        except Invalid as exc:
            raise Invalid(_("Player %(n)s: %(problem)s", n=index + 1, problem=exc)) from None
    return checked


MAX_SEED = 2**63 - 1     # Game.seed is a BIGINT


def seed(raw) -> int:
    """A game's random seed: a whole number from 0 to 2**63 - 1 (what the database keeps).
    Only the host's command and records carry one: the message is in English."""
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= MAX_SEED:
        raise Invalid(f"the seed must be a whole number from 0 to {MAX_SEED}")
    return raw


def default_title(game_title: str, names: list[str]) -> str:
    """"<game>: A vs B vs C", shortened with an ellipsis to fit the title column."""
    full = f"{game_title}: {' vs '.join(names)}"
    if len(full) <= TITLE_LENGTH:
        return full
    return full[:TITLE_LENGTH - len(ELLIPSIS)].rstrip() + ELLIPSIS


def address_key(raw) -> str:
    """How pbem tells addresses apart, the one rule for comparing and looking them up: the
    address as email-validator writes it (the domain in ASCII, lower case), then all of it in
    lower case, as nearly every mail host treats the part before the @. Text that is no valid
    address is only stripped and lowered (so a stored address always finds itself). Kept for
    the addresses a process meets most (a turn page asked it of each seat's address twice)."""
    text = raw.strip() if isinstance(raw, str) else ""
    if not text:
        return ""
    return _address_key(text) if len(text) <= EMAIL_LENGTH else _normalized(text)


@functools.lru_cache(maxsize=4096)
def _address_key(text: str) -> str:
    return _normalized(text)


def _normalized(text: str) -> str:
    try:
        checked = validate_email(text, check_deliverability=False, allow_smtputf8=False)
    except EmailNotValidError:
        return text.lower()
    return (checked.ascii_email or checked.normalized).lower()
