"""The server's keys: made once by the app factory from PBEM_SECRET_KEY and the links' ages
(PBEM_LINK_MAX_AGE, PBEM_HOST_LINK_MAX_AGE, PBEM_HOME_LINK_MAX_AGE, PBEM_OPTOUT_LINK_MAX_AGE),
and the one door through which every signed link is issued and checked: turn and back links
(links.py), host links, home links (home.py), opt-out links (optout.py), reply ids and sign-up
confirmations. Nothing else reads the secret key.
"""
from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
from dataclasses import dataclass

from flask import current_app
from itsdangerous import URLSafeTimedSerializer

from ..db.models import Game, Link
from . import home, links, optout

EXTENSION = "pbem.keys"
DAY = 86400
REPLY_SALT = b"pbem.reply-id.v1:"
REPLY_ID_LENGTH = 26                  # base32 characters: 130 bits


@dataclass(frozen=True)
class Keys:
    secret: str
    link_max_age: int           # seconds a turn link lives
    host_link_max_age: int
    home_link_max_age: int
    optout_link_max_age: int

    @classmethod
    def from_settings(cls, config) -> Keys:
        return cls(secret=config["SECRET_KEY"], link_max_age=int(config["LINK_MAX_AGE"]),
                   host_link_max_age=int(config["HOST_LINK_MAX_AGE"]),
                   home_link_max_age=int(config["HOME_LINK_MAX_AGE"]),
                   optout_link_max_age=int(config["OPTOUT_LINK_MAX_AGE"]))

    # -- turn links (links.py) -------------------------------------------------------------

    def issue(self, game: Game, seat: int, source: str | None = None) -> str:
        return links.issue(self.secret, game, seat, self.link_max_age, source=source)

    def issue_back(self, game: Game, seat: int) -> str:
        return links.issue_back(self.secret, game, seat, self.link_max_age)

    def issue_asked(self, game: Game, seat: int) -> str:
        return links.issue_aside(self.secret, game, seat, self.link_max_age, links.ASKED)

    def check_ending(self, token: str) -> links.Access:
        return links.check_ending(self.secret, token, self.link_max_age)

    def check(self, token: str, found: Link | None = None) -> links.Access:
        return links.check(self.secret, token, self.link_max_age, found)

    def check_readable(self, token: str) -> links.Access:
        return links.check_readable(self.secret, token, self.link_max_age)

    def check_newest(self, token: str) -> links.Access:
        return links.check_newest(self.secret, token, self.link_max_age)

    def check_back(self, token: str) -> links.Access:
        return links.check_back(self.secret, token, self.link_max_age)

    def find(self, token: str) -> Link | None:
        return links.find(self.secret, token)

    def identify(self, token: str) -> tuple[int, int] | None:
        return links.identify(self.secret, token)

    def link_days(self) -> int:
        """A turn link's life in whole days, rounded down (at least 1), as mails say it."""
        return max(1, self.link_max_age // DAY)

    # -- host links ----------------------------------------------------------------------------

    def issue_host(self, game: Game) -> str:
        return links.issue_host(self.secret, game)

    def host_token(self, game: Game) -> str:
        return links.host_token(self.secret, game)

    def check_host(self, token: str) -> int:
        return links.check_host(self.secret, token, self.host_link_max_age)

    # -- home links (home.py) ------------------------------------------------------------------

    def home_link(self, address: str) -> str:
        return home.issue(self.secret, address)

    def check_home(self, token: str, calendar: bool = False) -> str:
        """The address of a home link; a calendar feed's link lives at least a year (a calendar
        app cannot fetch a newer one from a mail)."""
        max_age = self.home_link_max_age
        return home.check(self.secret, token,
                          max(max_age, home.CALENDAR_MAX_AGE) if calendar else max_age)

    def home_days(self) -> int:
        return max(1, self.home_link_max_age // DAY)

    # -- opt-out links (optout.py) -------------------------------------------------------------

    def optout(self, email: str, mail_id: int | None = None,
               made_at: dt.datetime | None = None) -> str:
        return optout.token(self.secret, email, mail_id, made_at)

    def optout_address(self, token: str) -> str | None:
        return optout.address_of(self.secret, token, self.optout_link_max_age)

    # -- what else is signed ---------------------------------------------------------------------

    def reply_id(self, token: str) -> str:
        """The reply id of the mail that carries turn link `token` (reply_address.py)."""
        digest = hmac.new(self.secret.encode(), REPLY_SALT + token.encode(),
                          hashlib.sha256).digest()
        return base64.b32encode(digest).decode().lower()[:REPLY_ID_LENGTH]

    def serializer(self, salt: str) -> URLSafeTimedSerializer:
        """For a signed value of its own kind (`salt`): a sign-up's confirmation."""
        return URLSafeTimedSerializer(self.secret, salt=salt)


def install(app) -> Keys:
    """The app factory's step: the keys from the app's settings (checked before)."""
    made = app.extensions[EXTENSION] = Keys.from_settings(app.config)
    return made


def keys() -> Keys:
    """The running app's keys."""
    return current_app.extensions[EXTENSION]
