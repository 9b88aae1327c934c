"""The addresses a mail carries: absolute links to turn, host, game, home, replay and opt-out
pages."""
from __future__ import annotations


from flask import current_app

from ..db.models import Game, Outbox
from ..play.keys import keys


def absolute(path: str) -> str:
    """An absolute URL from PBEM_BASE_URL, never from the request's Host header."""
    return current_app.config["BASE_URL"].rstrip("/") + path


def turn_url(token: str) -> str:
    return absolute(f"/turn/{token}")


def host_url(token: str) -> str:
    return absolute(f"/host/{token}")


def game_host_url(game: Game, context: dict | None = None) -> str:
    """The game's live host link, for every mail to its host (rows keep no token; an older row
    may still carry the one it was queued with)."""
    token = (context or {}).get("host_token") or keys().host_token(game)
    return host_url(token)


def game_url(game: Game) -> str:
    return absolute(f"/games/{game.id}")


def home_url(address: str) -> str:
    """The recipient's home page: every game of that address (in every mail's footer)."""
    return absolute(f"/me/{keys().home_link(address)}")


def replay_url(token: str) -> str:
    return absolute(f"/replay/{token}")


def optout_url(recipient: str, row: Outbox | None = None) -> str:
    """The opt-out link of mail `row` (the same in its body and its List-Unsubscribe header)."""
    return absolute("/optout/" + keys().optout(
        recipient, row.id if row is not None else None,
        row.created_at if row is not None else None))
