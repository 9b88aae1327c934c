"""Ending a game together: a player resigns, or the players agree to abandon the game.

Both are events of the log by the seat itself, as an undo is: `{"type": "resign"}` and
`{"type": "abandon", "agree": true}` (the first agreement proposes, the others agree) or
`{"type": "abandon", "agree": false}` (a refusal: the proposal is withdrawn and the game goes
on). They change nothing in the engine's state. The table's *ending* is folded from them alone
(`step`): kept on the game's row (`Game.ending`), rebuilt by an import and by verification,
and read with the rules' own result by `result` (the store's `result_of`).

Our rulings (docs/players.md, "Ending a game together"):
- A seat that resigned takes no further part: from then on it is played by its default moves,
  or by the computer where the game's timeout policy is the computer; it gets no turn mails and
  does not vote.
- The game ends by resignation when at most one seat is left that has not resigned, or no
  player is (only the computer's seats): the seats left share first place; the resigned ones
  follow, the last to resign first. A game the rules end after someone resigned keeps the
  rules' order among the others, and the resigned seats come after them.
- Abandoning takes the agreement of every player still in the game (not the computer's seats,
  not the resigned). Then the game is over with no winner.
- Nothing of it depends on a hand: who resigned and who agreed is what the log says.

Nothing here touches the database: `store` writes with it, `importing` and `check` replay it.
"""
from __future__ import annotations

from ..games.base import IllegalAction, _
from .chain import in_every_language

KINDS = ("resign", "abandon")
RESIGN = {"type": "resign"}


def is_ending(action) -> bool:
    """Whether `action` is one of the table's own (a resignation, an abandon's answer)."""
    return isinstance(action, dict) and action.get("type") in KINDS


def checked(action) -> dict:
    """The action exactly as the log keeps it; IllegalAction for any other shape."""
    if action == RESIGN:
        return dict(RESIGN)
    if isinstance(action, dict) and set(action) == {"type", "agree"} and \
            action["type"] == "abandon" and isinstance(action["agree"], bool):
        return {"type": "abandon", "agree": action["agree"]}
    raise IllegalAction('an ending is {"type": "resign"} or '
                        '{"type": "abandon", "agree": true or false}')


def empty() -> dict:
    return {"resigned": [], "agreed": [], "ended": None}


def of(raw) -> dict:
    """The ending as kept on a game's row (None: nobody resigned or proposed anything)."""
    if not raw:
        return empty()
    return {"resigned": list(raw.get("resigned", [])), "agreed": list(raw.get("agreed", [])),
            "ended": raw.get("ended")}


def resigned(raw) -> list[int]:
    return of(raw)["resigned"]


def ended(raw) -> str | None:
    """"resigned" or "abandoned" once the table ended the game, else None."""
    return of(raw)["ended"]


def voters(raw, players: int, computers) -> list[int]:
    """The seats whose agreement abandoning takes: the players still in the game."""
    out = set(resigned(raw)) | set(computers)
    return [seat for seat in range(players) if seat not in out]


def step(raw, players: int, computers, seat: int, action: dict) -> dict:
    """The ending after `seat`'s `action` (checked by `checked`); IllegalAction, in the language
    being spoken, when it may not: the game ended already, the seat resigned, it is the
    computer's, or it refuses a proposal nobody made."""
    now = of(raw)
    if now["ended"]:
        raise IllegalAction(_("the game is over"))
    if seat in now["resigned"]:
        raise IllegalAction(_("you have resigned from this game"))
    if seat in computers:
        raise IllegalAction(_("the computer's seats neither resign nor vote"))
    if action["type"] == "resign":
        now["resigned"].append(seat)
        now["agreed"] = [s for s in now["agreed"] if s != seat]
    elif action["agree"]:
        if seat in now["agreed"]:
            raise IllegalAction(_("you agreed already"))
        now["agreed"].append(seat)
    elif not now["agreed"]:
        raise IllegalAction(_("nobody proposed to abandon the game"))
    else:
        now["agreed"] = []
    left = voters(now, players, computers)
    if len([s for s in range(players) if s not in now["resigned"]]) <= 1 or not left:
        now["ended"] = "resigned"
    elif now["agreed"] and all(s in now["agreed"] for s in left):
        now["ended"] = "abandoned"
    return now


def fold(events, players: int, computers) -> dict:
    """The ending that (seat, action) `events` of a log come to, the others skipped;
    IllegalAction where one of them may not be there."""
    now = None
    for seat, action in events:
        if is_ending(action):
            now = step(now, players, computers, seat, checked(action))
    return of(now)


def line(seat: int, action: dict, after: dict) -> dict:
    """The log's line of the event, in every language (public: names as {p0}...)."""
    def say() -> str:
        if action["type"] == "resign":
            said = _("{player} resigned.")
            if after["ended"]:
                said += " " + _("The game is over.")
            return said
        if not action["agree"]:
            return _("{player} declined to abandon the game: it goes on.")
        if after["ended"] == "abandoned":
            return _("{player} agreed to abandon the game. Every player agreed: the game is "
                     "over, with no winner.")
        if after["agreed"] == [seat]:
            return _("{player} proposes to abandon the game: it ends with no winner when every "
                     "other player agrees.")
        return _("{player} agreed to abandon the game.")
    said = in_every_language(say)
    return {language: text.replace("{player}", f"{{p{seat}}}") for language, text in said.items()}


def result(rules, state, raw, players: int) -> dict | None:
    """The game's result: the rules' own, or the table's ending (None while it runs)."""
    now = of(raw)
    gone = now["resigned"][::-1]            # the last to resign first
    if now["ended"] == "abandoned":
        return {"ranking": [], "ended": "abandoned", "resigned": now["resigned"]}
    own = rules.result(state)
    if now["ended"] == "resigned" and own is None:
        left = [s for s in range(players) if s not in now["resigned"]]
        return {"ranking": [left] + [[s] for s in gone], "ended": "resigned",
                "resigned": now["resigned"]}
    if own is None or not gone:
        return own
    ties = [tie if isinstance(tie, list) else [tie] for tie in own.get("ranking", [])]
    ranking = [[s for s in tie if s not in gone] for tie in ties]
    return dict(own, ranking=[tie for tie in ranking if tie] + [[s] for s in gone],
                resigned=now["resigned"])
