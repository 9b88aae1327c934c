"""What the turn page and the JSON API share: reading a link, shaping a seat's answer."""
from __future__ import annotations

import json

from flask import current_app

from .. import links, store
from ..models import Game


def check_link(token: str) -> links.Access:
    config = current_app.config
    return links.check(config["SECRET_KEY"], token, config["LINK_MAX_AGE"])


def turn_payload(game: Game, seat: int, state=None) -> dict:
    """What one seat may know now: the API's answer and the turn page's content."""
    rules = store.rules_of(game)
    state = rules.load(game.state) if state is None else state
    return {
        "game": game.id,
        "rules": game.rules,
        "seat": seat,
        "seq": game.seq,
        "to_act": rules.to_act(state),
        "view": rules.view(state, seat),
        "actions": rules.legal_actions(state, seat),
        "result": rules.result(state),
    }


def action_key(action: dict) -> str:
    """A canonical text for an action, used as a form value."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def parse_seq(raw) -> int:
    if isinstance(raw, bool):
        raise ValueError("seq must be an integer")
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
        return int(raw)
    raise ValueError("seq must be an integer (the move number the action was chosen at)")
