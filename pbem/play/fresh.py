"""Fresh links: asked for by a player whose link expired or was spent (renew), mailed by the
host (resend), opened from the home page (play now), and the home link itself. Each holds the
game's lock, so parallel requests give one mail and leave one live link."""
from __future__ import annotations

from flask import current_app

from ..db.models import Link, Seat
from ..log import store
from . import announce, home, limits, links, outbox
from .limits import Refused


def renew(link: Link) -> None:
    """Mail a fresh link to the seat of `link` (a player's request); Refused when the limiter
    or the game says no."""
    with outbox.transaction():
        game = store.locked_game(link.game_id)
        rules = store.rules_of(game)
        refusal = limits.fresh_link_refusal(game, link.seat, rules.to_act(store.state_of(game)),
                                            through=link)
        if refusal is not None:
            raise refusal
        announce.turn_mail(game, Seat.get(Seat.game == game, Seat.index == link.seat),
                           kind="link")


def resend(game_id: int, seat: int) -> None:
    """The host mails a fresh link to a seat that is to act (spending its older links); a seat
    not to act is left alone."""
    with outbox.transaction():
        game = store.locked_game(game_id)      # two resends at once: one mail
        rules = store.rules_of(game)
        to_act = rules.to_act(store.state_of(game))
        if game.status != "running" or seat not in to_act:
            return
        refusal = limits.fresh_link_refusal(game, seat, to_act)
        if refusal is not None:
            raise refusal
        announce.turn_mail(game, Seat.get(Seat.game == game, Seat.index == seat), kind="link")


def play_now(game_id: int, seat: int) -> str | None:
    """A fresh turn link for a seat that is to act, opened at once from the home page (the
    mailed one is spent); None when the seat is not to act."""
    config = current_app.config
    with outbox.transaction():
        game = store.locked_game(game_id)
        rules = store.rules_of(game)
        if game.status != "running" or seat not in rules.to_act(rules.load(game.state)):
            return None
        return links.issue(config["SECRET_KEY"], game, seat, config["LINK_MAX_AGE"])


def home_link(address: str, language: str) -> None:
    """Mail the home link to an address that plays here, at most once per interval; nothing
    for an address without games (the page answers the same either way)."""
    with outbox.transaction():
        if home.has_games(address) and not limits.home_link_refused(address):
            announce.home_link(address, language)


def revoke(game, seat: int) -> None:
    """The host stops the seat's links."""
    with outbox.transaction():
        links.spend(game, [seat], "revoked")


__all__ = ["Refused", "home_link", "play_now", "renew", "resend", "revoke"]
