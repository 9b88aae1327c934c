"""The host's way back to their host pages: from their home page, the link of a game they host
is mailed to the host's own address (never shown on the page: a forwarded home link must not
open a host page), at most once per game per PBEM_RENEW_INTERVAL."""
from __future__ import annotations

from peewee import fn

from ..db.models import Game
from ..log import store
from . import announce, limits, outbox
from ..validate import address_key
from .keys import keys


def reissue_host_link(game: Game, mail: bool) -> str:
    """A new host link for `game` (the old one stops working); queued to the host's address
    when `mail` and the game has one. Returns the link's token."""
    with outbox.transaction():
        token = keys().issue_host(game)
        Game.update(host_nonce_hash=game.host_nonce_hash).where(Game.id == game.id).execute()
        if mail and game.host_email:
            announce.host_link(game, token)
    return token


def hosted_game(address: str, game_id: int) -> Game | None:
    """Game `game_id` when `address` hosts it, else None (the same for a game that does not
    exist)."""
    address = address_key(address)
    if not address:
        return None
    return Game.get_or_none((Game.id == game_id) & (fn.LOWER(Game.host_email) == address))


def mail_host_link(address: str, game_id: int) -> Game | None:
    """Mail the host page's live link to the host (`address`, who hosts `game_id`); None when
    they do not host it; limits.Refused within the interval."""
    with outbox.transaction():
        if hosted_game(address, game_id) is None:
            return None
        game = store.locked_game(game_id)       # one mail for parallel requests
        refusal = limits.host_link_refusal(game)
        if refusal is not None:
            raise refusal
        announce.host_link(game, kind="host-link")
    return game
