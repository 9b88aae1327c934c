"""How each game is drawn and tapped: a presenter per game, found by the rules' name.

A presenter turns a seat's `view` into pictures and each legal action into the sequence of taps
that chooses it. The board templates mark every tappable element with `data-tap="<token>"`;
`static/turn.js` highlights the tokens that can come next and, once the taps name exactly one
action, asks the player to confirm it. Without JavaScript the same actions are plain forms.
"""
from __future__ import annotations

import importlib
import json


class Presenter:
    """The generic presenter: no board, every action a button or a list entry."""

    name: str | None = None
    board_template: str | None = None      # e.g. "games/tigris/board.html": the SVG board
    holdings_template: str | None = None   # the seat's hidden holdings (hand, tiles, points)
    public_template: str | None = None     # public facts beside the board
    email_template: str | None = None      # a small picture for mail clients (HTML table)

    def taps(self, action: dict, view: dict) -> list[str]:
        """The data-tap tokens that choose `action`, in order; [] means "a button"."""
        return []

    def label(self, action: dict, view: dict) -> str | None:
        """What a button or the confirm bar says for `action`, as an instruction ("End your
        actions"); None: the action's public log line (`describe`)."""
        return None

    def last_moves(self, actions: list[dict], view: dict) -> set[str]:
        """Where the other players' latest `actions` went on the board, as the board's own
        keys (a square, a hex, a card), for a ring around each. Only places every player sees:
        what the public log names."""
        return set()

    def subject(self, view: dict) -> str | None:
        """What the turn email's subject asks (default: the view's prompt)."""
        return view.get("prompt") if isinstance(view, dict) else None


GENERIC = Presenter()
_BOARDS = ("tigris", "tigris_cards", "assyria")
_cache: dict[str, Presenter] = {}


def presenter_for(rules_name: str) -> Presenter:
    """The game's presenter (`pbem.present.boards.<name>.presenter`), else the generic one."""
    if rules_name not in _cache:
        presenter = GENERIC
        if rules_name in _BOARDS:
            try:
                module = importlib.import_module(f"pbem.present.boards.{rules_name}")
                presenter = module.presenter
            except ModuleNotFoundError as exc:
                if exc.name != f"pbem.present.boards.{rules_name}":
                    raise
        _cache[rules_name] = presenter
    return _cache[rules_name]


def action_key(action: dict) -> str:
    """A canonical text for an action, used as a form value."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def choices(presenter: Presenter, actions: list[dict], view: dict, label) -> list[dict]:
    """Each legal action as {key, taps, label} for the turn page and turn.js."""
    return [{"key": action_key(a), "taps": presenter.taps(a, view),
             "label": presenter.label(a, view) or label(a)} for a in actions]


def others_actions(events, seat) -> list[dict]:
    """The actions of the other players among `events` (forced ones too), oldest first: what
    the board rings as their last moves. Presenters read only the places from them, which the
    public log names; never a hidden part (a face-down card's colour)."""
    return [e.action for e in sorted(events, key=lambda e: e.seq)
            if e.seq > 0 and e.seat is not None and e.seat != seat and isinstance(e.action, dict)]
