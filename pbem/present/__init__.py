"""How each game is drawn and tapped: a presenter per game, found by the rules' name.

A presenter turns a seat's `view` into pictures and each legal action into the sequence of taps
that chooses it. The board templates mark every tappable element with `data-tap="<token>"`;
`static/turn.js` highlights the tokens that can come next and, once the taps name exactly one
action, asks the player to confirm it. Without JavaScript the same actions are plain forms.
"""
from __future__ import annotations

import functools
import json
import logging
from importlib.metadata import entry_points
import re

from ..games import PACKAGES, RULES, part
from ..games.base import _, _catalogue, current_language


def gettext(message: str, **variables) -> str:
    """`message` in the language being spoken, %-formatted with `variables` like Flask-Babel's
    gettext — but a dictionary lookup (the engines' `_`), not a walk through the request
    context: pages call it hundreds of times a render. The request's language is the one
    `pbem.web.i18n` sets for the engines (Flask-Babel's choice), so both agree."""
    text = _(message)
    return text % variables if variables else text


def N_(message: str) -> str:
    """Marks a message for the catalogue; `gettext` translates it where it is shown."""
    return message


def ngettext(singular: str, plural: str, num: int, **variables) -> str:
    variables.setdefault("num", num)
    return _catalogue(current_language()).ngettext(singular, plural, num) % variables


class Presenter:
    """The generic presenter: no board, every action a button or a list entry."""

    name: str | None = None
    board_template: str | None = None      # e.g. "games/tigris/board.html": the SVG board
    holdings_template: str | None = None   # the seat's hidden holdings (hand, tiles, points)
    public_template: str | None = None     # public facts beside the board
    email_template: str | None = None      # a small picture for mail clients (HTML table)
    # the confirm bar also says what the chosen move sets off (its log line, played through):
    # for games whose moves score or start conflicts that the instruction cannot tell
    says_outcome: bool = False
    holdings_text_template: str | None = None  # the seat's own holdings as plain lines (mail)

    def taps(self, action: dict, view: dict) -> list[str]:
        """The data-tap tokens that choose `action`, in order; [] means "a button"."""
        return []

    def ending(self, result: dict) -> dict | None:
        """Why a finished game ended (the rulebook's trigger, "why") and how its score is
        counted ("how"), in the language spoken; None: the game says nothing of it."""
        return None

    def label(self, action: dict, view: dict) -> str | None:
        """What a button or the confirm bar says for `action`, as an instruction ("End your
        actions"); None: the action's public log line (`describe`)."""
        return None

    def last_moves(self, actions: list[dict], view: dict) -> set[str]:
        """Where the other players' latest `actions` went on the board, as the board's own
        keys (a square, a hex, a card), for a ring around each. Only places every player sees:
        what the public log names."""
        return set()

    def pick_label(self, token: str, view: dict) -> str | None:
        """What choosing the first tap `token` means ("Place a temple…"), for the step that
        picks the piece when there is no script; None: the token itself."""
        return None

    def effect(self, action: dict, view: dict) -> str:
        """What `action` does by the rulebook, for the confirm bar's second line under its
        `label` ("what this does"), from the seat's view only, `{pN}` for names; "" nothing.
        Optional for a plugin's presenter (see OPTIONAL)."""
        return ""

    def subject(self, view: dict) -> str | None:
        """What the turn email's subject asks (default: the view's prompt)."""
        return view.get("prompt") if isinstance(view, dict) else None


GENERIC = Presenter()
OPTIONAL = frozenset({"effect"})        # added since plugins were written: a presenter may lack it
PRESENTER_GROUP = "pbem.presenters"     # a plugin game's presenter: tinygame = "pkg.mod:presenter"
LEFT_OUT: dict[str, str] = {}           # game name -> why its presenter was not used
_cache: dict[str, Presenter] = {}
log = logging.getLogger(__name__)


def presenter_for(rules_name: str) -> Presenter:
    """The game's presenter, found alike for a game of pbem's and a plugin: the one its
    distribution names in the entry point group `pbem.presenters`, else `presenter` in the
    module `presenter` of the game's folder (pbem.games.part), else, also when the one found
    fails to load (a warning says why), the generic one."""
    if rules_name not in _cache:
        _cache[rules_name] = _find_presenter(rules_name)
    return _cache[rules_name]


def _find_presenter(rules_name: str) -> Presenter:
    if rules_name not in RULES:
        return GENERIC
    points = [p for p in entry_points(group=PRESENTER_GROUP) if p.name == rules_name]
    if points:
        where = f"entry point '{rules_name} = {points[0].value}'"
        return _loaded_presenter(rules_name, where, points[0].load)
    where = f"module {PACKAGES[rules_name]}.presenter"
    return _loaded_presenter(rules_name, where, lambda: _folder_presenter(rules_name))


def _folder_presenter(rules_name: str):
    module = part(rules_name, "presenter")
    return GENERIC if module is None else module.presenter


def _loaded_presenter(rules_name: str, where: str, load) -> Presenter:
    try:
        presenter = load()
        if isinstance(presenter, type):
            presenter = presenter()
        missing = [m for m in vars(Presenter) if not m.startswith("_") and m not in OPTIONAL
                   and not hasattr(presenter, m)]
        if missing:
            raise TypeError(f"{presenter!r} lacks {', '.join(missing)} of pbem.present.Presenter")
    except Exception as exc:        # a plugin's import may raise anything; the page goes on
        LEFT_OUT[rules_name] = why = (f"the presenter of {rules_name!r} ({where}) is left out, "
                                      f"the generic one draws the game: "
                                      f"{type(exc).__name__}: {exc}")
        log.warning("pbem: %s", why)
        return GENERIC
    return presenter


def action_key(action: dict) -> str:
    """A canonical text for an action, used as a form value."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def others_actions(events, seat) -> list[dict]:
    """The actions of the other players among `events` (forced ones too), oldest first: what
    the board rings as their last moves. Presenters read only the places from them, which the
    public log names; never a hidden part (a face-down card's colour)."""
    return [e.action for e in sorted(events, key=lambda e: e.seq)
            if e.seq > 0 and e.seat is not None and e.seat != seat and isinstance(e.action, dict)]

class Choice:
    """One legal action on the turn page: its taps at once; its form value and its words only
    when the page shows them (a Tigris opening has ~700 actions, and a label may need the
    action played through `describe`)."""

    __slots__ = ("action", "taps", "_labeller", "_label")

    def __init__(self, action: dict, taps: list[str], labeller):
        self.action, self.taps, self._labeller, self._label = action, taps, labeller, None

    def __getitem__(self, name: str):
        return getattr(self, name)          # choice["taps"], as when choices were dicts

    @property
    def key(self) -> str:
        return action_key(self.action)

    @property
    def tapped(self) -> str:
        """The taps as one form value ("hand:red sq:3-4")."""
        return " ".join(self.taps)

    @property
    def label(self) -> str:
        if self._label is None:
            self._label = self._labeller(self.action)
        return self._label


class Choices:
    """The seat's choices, with what the page needs about all of them at once. A Tigris turn
    offers ~400 actions and its page lists none of them (it asks for the piece first): the
    Choice objects are made only for the actions a page reads (`buttons`, a group, a list),
    the tree and the tokens come from the taps alone."""

    def __init__(self, actions: list[dict], taps: list[list[str]], presenter: Presenter,
                 view: dict, labeller):
        self.presenter, self.view = presenter, view
        self._actions, self._taps, self._labeller = actions, taps, labeller
        self._made: list[Choice | None] = [None] * len(actions)
        self.firsts: dict[str, list[int]] = {}      # first tap -> the actions it starts
        plain = []
        for index, tapped in enumerate(taps):
            if tapped:
                self.firsts.setdefault(tapped[0], []).append(index)
            else:
                plain.append(index)
        self.buttons = [self.choice(index) for index in plain]
        self.tapping = len(actions) - len(plain)    # how many actions are tapped

    def choice(self, index: int) -> Choice:
        made = self._made[index]
        if made is None:
            made = self._made[index] = Choice(self._actions[index], self._taps[index],
                                              self._labeller)
        return made

    def __len__(self) -> int:
        return len(self._actions)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.choice(i) for i in range(len(self._actions))[index]]
        return self.choice(range(len(self._actions))[index])

    def __iter__(self):
        return map(self.choice, range(len(self._actions)))

    @functools.cached_property
    def tapped(self) -> list[Choice]:
        """The actions chosen by taps, in the engine's order."""
        return [self.choice(index) for index, taps in enumerate(self._taps) if taps]

    @functools.cached_property
    def groups(self) -> dict[str, list[Choice]]:
        """Each first tap with the actions it starts."""
        return {first: [self.choice(index) for index in group]
                for first, group in self.firsts.items()}

    @functools.cached_property
    def tokens(self) -> set[str]:
        """Every token some legal action taps."""
        return set().union(*self._taps)

    def tree(self) -> dict[str, list[str]]:
        """For turn.js: each first tap with the rest of every action it starts — compact
        where a list of actions would be ~100 KB ({"hand:red": ["sq:3-4", ...]})."""
        taps = self._taps
        return {first: [" ".join(taps[index][1:]) for index in group]
                for first, group in self.firsts.items()}

    def two_steps(self) -> bool:
        """Too many actions for one list, and grouping by the first tap (the piece) makes
        real groups: without JavaScript the player picks the piece, then the place."""
        return self.tapping > LIST_LIMIT and len(self.firsts) < self.tapping / 2

    def picks(self) -> list[tuple[str, str]]:
        """Each first tap with its words ("Place a temple…")."""
        out = []
        for token, group in self.firsts.items():
            words = self.presenter.pick_label(token, self.view)
            if not words:
                words = self.choice(group[0]).label if len(group) == 1 else token
            out.append((token, words))
        return out

    def listed(self, pick: str | None) -> list[Choice]:
        """The no-JS list: the actions the picked piece starts, or all of them when short."""
        if pick is not None:
            return [self.choice(index) for index in self.firsts.get(pick, [])]
        return [] if self.two_steps() else self.tapped

    def by_taps(self, taps: list[str]) -> Choice | None:
        found = [index for index in self.firsts.get(taps[0], []) if self._taps[index] == taps
                 ] if taps else []
        return self.choice(found[0]) if len(found) == 1 else None


LIST_LIMIT = 40     # more tap actions than this: without JavaScript, two steps


def choices(presenter: Presenter, actions: list[dict], view: dict, label) -> Choices:
    """Each legal action as a Choice (taps, and on demand its form value and label)."""
    def labeller(action):
        return presenter.label(action, view) or label(action)
    taps = presenter.taps
    return Choices(actions, [taps(a, view) for a in actions], presenter, view, labeller)


SEAT_NAME = re.compile(r"\{p(\d+)\}")


def fill_names(text: str, names: list[str]) -> str:
    """Put the players' names where a rules engine wrote {p0}, {p1}, ..."""
    if "{p" not in text:
        return text
    return _filled(text, tuple(names))


@functools.lru_cache(maxsize=4096)
def _filled(text: str, names: tuple[str, ...]) -> str:
    """A log line with its names: the same 80 lines make every page of a game (about 10 µs
    a line to fill again)."""
    def name(match):
        index = int(match.group(1))
        return names[index] if index < len(names) else match.group(0)
    return SEAT_NAME.sub(name, text)
