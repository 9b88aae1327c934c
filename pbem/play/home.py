"""A player's home: one signed link per email address opens every game of that address.

The link signs the (normalised) address and the address's home-link generation (`HomeKey`) with
a salt of its own; it is mailed in the footer of every mail (so each mail renews it: it lives
PBEM_HOME_LINK_MAX_AGE, 30 days, from the mail that carried it) and on request at /me, whose
answer never says whether an address has games. "Send me a new link" on the home page and the
host's revoke bump the generation: every older home link then answers 410. The address's
settings (language, mail per decision or one digest a day) live in `PlayerSettings`.
"""
from __future__ import annotations

import datetime as dt

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from peewee import fn

from ..db.models import Game, HomeKey, PlayerSettings, Seat, utcnow
from ..db.prepared import Prepared
from . import links, quiet
from ..validate import address_key

HOME_SALT = "pbem.home-link.v1"
# the calendar feed (<home link>/calendar.ics) stays subscribed this long, unless renewed:
# it shows deadlines only, and a calendar app cannot fetch a newer link from a mail
CALENDAR_MAX_AGE = 365 * 24 * 3600
MAIL_MODES = ("each", "digest")


# -- the home link -----------------------------------------------------------------------------

def generation(address: str) -> int:
    """The address's current home-link generation (0 until it is first renewed)."""
    found = GENERATION_OF.value(address_key(address))
    return found if found is not None else 0


# every mail's footer carries a home link: its SQL built once
GENERATION_OF = Prepared(HomeKey, lambda address: HomeKey.select(HomeKey.generation)
                         .where(HomeKey.email == address).limit(1))


def issue(secret_key: str, address: str) -> str:
    """A home link of the address's current generation (links signed before generations
    existed carry none: they count as generation 0)."""
    address = address_key(address)
    return URLSafeTimedSerializer(secret_key, salt=HOME_SALT).dumps(
        {"e": address, "v": generation(address)})


def renew_generation(address: str, unless_since: dt.datetime | None = None) -> bool:
    """Stop every home link of `address` issued so far (inside the caller's transaction);
    with `unless_since`, only when the generation was not renewed after that moment (then
    False: the link mailed at that renewal is the current one). Each is one conditional
    statement, so of parallel renews within the interval exactly one wins."""
    address = address_key(address)
    now = utcnow()
    # the row first (generation 0 is what an address without one has), then one update
    HomeKey.insert(email=address, generation=0).on_conflict_ignore().execute()
    query = HomeKey.update(generation=HomeKey.generation + 1, renewed_at=now) \
        .where(HomeKey.email == address)
    if unless_since is not None:
        query = query.where(HomeKey.renewed_at.is_null() | (HomeKey.renewed_at <= unless_since))
    return query.execute() == 1


def check(secret_key: str, token: str, max_age: int) -> str:
    """The address behind a home token, or LinkError (403 tampered, 410 expired or stopped by
    a newer generation)."""
    try:
        data = URLSafeTimedSerializer(secret_key, salt=HOME_SALT).loads(token, max_age=max_age)
    except SignatureExpired:
        raise links.LinkError(410, "home_expired", "This home link has expired: ask for a "
                                                   "fresh one at /me.") from None
    except BadSignature:
        raise links.LinkError(403, "tampered", "This home link is not valid.") from None
    if not isinstance(data, dict) or not isinstance(data.get("e"), str) or "@" not in data["e"]:
        raise links.LinkError(403, "tampered", "This home link is not valid.")
    version = data.get("v", 0)
    if not isinstance(version, int) or isinstance(version, bool):
        raise links.LinkError(403, "tampered", "This home link is not valid.")
    if version != generation(data["e"]):
        raise links.LinkError(410, "home_renewed", "This home link was replaced by a newer one: "
                                                   "open the latest mail, or ask at /me.")
    return data["e"]


# -- an address's games and settings ------------------------------------------------------------

def seats_of(address: str) -> list[Seat]:
    """Every seat played from `address`, newest game first."""
    address = address_key(address)
    if not address:
        return []
    return list(Seat.select(Seat, Game).join(Game)
                .where(fn.LOWER(Seat.email) == address).order_by(Game.id.desc()))


def has_games(address: str) -> bool:
    """Whether `address` plays or hosts a game here (then /me mails it its home link)."""
    return bool(address_key(address)) and (
        Seat.select().where(fn.LOWER(Seat.email) == address_key(address)).exists()
        or hosts_games(address))


# -- the games an address hosts (their list on the home page: pbem/present/hosting.py) -----------

def hosts_games(address: str) -> bool:
    return bool(address_key(address)) and (
        Game.select().where(fn.LOWER(Game.host_email) == address_key(address)).exists())


def settings_of(address: str) -> PlayerSettings:
    """The address's settings (unsaved defaults when it never chose any)."""
    address = address_key(address)
    found = PlayerSettings.get_or_none(PlayerSettings.email == address)
    return found or PlayerSettings(email=address, mail_mode="each", digest_hour=7)


def store_settings(address, language, mail_mode, digest_hour, time_zone=None) -> None:
    settings = settings_of(address)
    settings.mail_mode, settings.digest_hour = mail_mode, digest_hour
    if time_zone is not None:
        settings.time_zone = time_zone
    if settings.id is None:
        update = {PlayerSettings.mail_mode: mail_mode, PlayerSettings.digest_hour: digest_hour}
        if time_zone is not None:
            update[PlayerSettings.time_zone] = time_zone
        PlayerSettings.insert(email=address, mail_mode=mail_mode, digest_hour=digest_hour,
                              time_zone=time_zone or "", created_at=utcnow()).on_conflict(
            conflict_target=[PlayerSettings.email], update=update).execute()
    else:
        settings.save()
    if language:
        Seat.update(language=language).where(fn.LOWER(Seat.email) == address).execute()


def quiet_of(address: str) -> quiet.Quiet:
    """The address's quiet hours as it chose them (empty when none)."""
    settings = settings_of(address)
    return quiet.kept(settings.time_zone, settings.quiet_start, settings.quiet_end,
                      settings.quiet_days)


def store_quiet(address: str, chosen: quiet.Quiet, time_zone: str | None = None) -> None:
    """Keep the address's quiet hours (checked by quiet.check) and, given, its time zone.
    Clocks running now keep their deadlines; the next decision asked counts them."""
    address = address_key(address)
    fields = {PlayerSettings.quiet_start: chosen.start, PlayerSettings.quiet_end: chosen.end,
              PlayerSettings.quiet_days: chosen.days_text()}
    if time_zone is not None:
        fields[PlayerSettings.time_zone] = time_zone
    PlayerSettings.insert(email=address, created_at=utcnow(),
                          **{field.name: value for field, value in fields.items()}) \
        .on_conflict(conflict_target=[PlayerSettings.email], update=fields).execute()


def time_zone_of(address: str | None) -> str:
    """The time zone the address chose on its home page ("" for none)."""
    if not address or "@" not in address:
        return ""
    return TIME_ZONE_OF.value(address_key(address)) or ""


TIME_ZONE_OF = Prepared(PlayerSettings, lambda address: PlayerSettings.select(
    PlayerSettings.time_zone).where(PlayerSettings.email == address).limit(1))


def wants_digest(address: str) -> bool:
    found = PlayerSettings.get_or_none(PlayerSettings.email == address_key(address))
    return found is not None and found.mail_mode == "digest"


def digest_due(now: dt.datetime) -> list[PlayerSettings]:
    """Addresses on a daily digest whose hour has come today and that have not had today's."""
    today = now.date()
    return [s for s in PlayerSettings.select().where(PlayerSettings.mail_mode == "digest")
            if now.hour >= s.digest_hour and (s.last_digest_on is None or s.last_digest_on < today)]


def digest_settings(address: str) -> PlayerSettings | None:
    """The settings of an address on a daily digest; None for one mailed per turn."""
    found = SETTINGS_OF.first(address_key(address))
    return found if found is not None and found.mail_mode == "digest" else None


# asked of every seat's address on every turn mail: its SQL built once
SETTINGS_OF = Prepared(PlayerSettings, lambda address: PlayerSettings.select()
                       .where(PlayerSettings.email == address).limit(1))


def next_digest_at(settings: PlayerSettings, now: dt.datetime) -> dt.datetime:
    """When the address's next digest goes out: at its hour (UTC) today, or now when that hour
    has come and today's is not out yet (the next pass sends it), else tomorrow."""
    today = now.replace(hour=settings.digest_hour, minute=0, second=0, microsecond=0)
    if settings.last_digest_on is not None and settings.last_digest_on >= now.date():
        return today + dt.timedelta(days=1)
    return max(today, now)


def claim_digest(settings: PlayerSettings, now: dt.datetime) -> bool:
    """Take today's digest for this address; False when another pass already took it."""
    today = now.date()
    won = (PlayerSettings.update(last_digest_on=today)
           .where(PlayerSettings.id == settings.id,
                  PlayerSettings.last_digest_on.is_null() | (PlayerSettings.last_digest_on < today))
           .execute())
    return won == 1
