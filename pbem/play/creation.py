"""Starting a game: its seats checked (players, and the computer's seats a host asked for),
its creation event, its first clocks, links and mails, in one transaction."""
from __future__ import annotations

import secrets

from .. import validate
from ..db.models import utcnow
from ..games.base import _
from ..log import chain, store
from . import announce, clock, moves, outbox
from .keys import keys


COMPUTER_LEVELS = (1, 2, 3)
DEFAULT_LEVEL = 2


def computer_seat(raw: str) -> dict | None:
    """A computer's seat as a host writes it, "bot" or "bot:LEVEL" ({"computer": level});
    None for anything else (a player); validate.Invalid for a level that is not 1, 2 or 3."""
    word, colon, level = raw.strip().partition(":")
    if word.lower() != "bot":
        return None
    if not colon:
        return {"computer": DEFAULT_LEVEL}
    if level.strip() not in {str(n) for n in COMPUTER_LEVELS}:
        raise validate.Invalid(f"{raw!r}: a computer's level is 1, 2 or 3 (bot:1, bot:2, bot:3)")
    return {"computer": int(level)}


def seated(players: list[dict], email_required: bool = False) -> list[dict]:
    """The players checked, a computer's seat ({"computer": level}) named for its level and
    without an address; at least one seat is a player's."""
    checked, people = [], []
    for index, player in enumerate(players):
        level = player.get("computer") if isinstance(player, dict) else None
        if level is None:
            people.append(index)
            checked.append(player)
            continue
        if type(level) is not int or level not in COMPUTER_LEVELS:
            raise validate.Invalid(_("Player %(n)s: a computer's level is 1, 2 or 3.")
                                   .replace("%(n)s", str(index + 1)))
        checked.append({"name": f"Computer (level {level})", "email": "", "computer": level,
                        "language": player.get("language", "en")})
    if not people:
        raise validate.Invalid(_("At least one seat is a player's: the computer does not play "
                                 "alone."))
    people_checked = validate.players([checked[i] for i in people], email_required)
    for index, player in zip(people, people_checked):
        checked[index] = player
    return checked


def create_game(rules_name: str, players: list[dict], options: dict | None = None,
                seed: int | None = None, title: str = "", host_email: str = "",
                pace: dict | None = None):
    """A new game with its seats and creation event; invitations and first links go out.
    `pace`: {"days", "on_timeout", "drop_after"} (see clock.check_pace). Returns (game, host_token)."""
    rules, options = chain.validate_new_game(rules_name, len(players), options)
    players = seated(players)
    title = validate.title(title)
    host_email = validate.host_email(host_email, required=False)
    pace = clock.check_pace(**(pace or {}))
    seed = secrets.randbits(62) if seed is None else validate.seed(seed)
    salt = secrets.token_hex(16)        # 128 bits: the commitment cannot be tried seed by seed
    with outbox.transaction():
        game, state = store.begin(
            rules, players, options, seed, salt,
            title=title or validate.default_title(rules.title, [p["name"] for p in players]),
            host_email=host_email, pace_days=pace["days"], on_timeout=pace["on_timeout"],
            drop_after=pace["drop_after"], quiet_hours=pace["quiet_hours"], bank=pace["bank"])
        host_token = keys().issue_host(game)
        restart: set[int] = set()
        state = store.advance(game, rules, state, [], moves.dropped_seats(game), restart)
        store.save(game, rules, state)
        clock.after_change(game, rules.to_act(state), [], restart, utcnow())
        announce.game_created(game, host_token)
        announce.after_change(game, rules, state, before=[])
    return game, host_token
