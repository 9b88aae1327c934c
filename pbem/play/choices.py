"""A player's own choices that mail: the home page's settings and opting out or back in.

The choices are kept by the policies below (home.py: the settings; optout.py: the opt-outs);
these use cases also mail what a changed choice sets off, so they sit above the announcing.
"""
from __future__ import annotations

from ..db.models import OptOut
from . import announce, home, optout, outbox
from ..validate import address_key


def save_settings(address: str, language: str | None, mail_mode: str, digest_hour: int,
                  time_zone: str | None = None) -> None:
    """Store the choices (the caller validated them); the language applies to every seat; a
    `time_zone` of None leaves the chosen one as it was ("" chooses none).
    Back from the digest to one mail per turn, the games waiting for the address are mailed at
    once (each with a fresh link), not at their reminder."""
    with outbox.transaction():
        was_digest = home.wants_digest(address)
        home.store_settings(address_key(address), language, mail_mode, digest_hour, time_zone)
        if was_digest and mail_mode == "each":
            announce.mail_waiting_games(address)


def opt_out(email: str) -> None:
    """Record the opt-out (once: a second request changes nothing). The host of each game in
    which the address is to act now is told: that player hears of no turn any more."""
    with outbox.transaction():
        if optout.is_opted_out(email):
            return
        OptOut.insert(email=address_key(email)).on_conflict_ignore().execute()
        announce.opted_out(email)


def opt_in(email: str) -> None:
    """Undo an opt-out. The mail skipped meanwhile stays unsent, but each game waiting for the
    address is mailed at once with a fresh link (a digest reader's waits for the digest)."""
    with outbox.transaction():
        if not optout.is_opted_out(email):
            return
        OptOut.delete().where(OptOut.email == address_key(email)).execute()
        announce.mail_waiting_games(email)
