"""The engine behaves exactly as recorded: seeded random games give the same to_act, legal
actions, views (every seat and the spectator), dumps, log lines, defaults and results, and
`apply` accepts and refuses the same actions with the same messages.

The digests in fixtures/recorded-behaviour.json were written with the engine of 2026-12-01
(before the engines were made faster), and again when the huts, ziggurats and feedings went
into the board's order (the dict's order differed between a live state and a stored one). A
change that alters any of them changes what players see or what old logs replay to: it is a
rules change (bump `rules.version`) or a bug.
Record again only on purpose: `python -m tests.games.assyria.test_recorded_behaviour`.

Keys added to the view since the recording (ADDED_TO_VIEW) are left out of the digest; each
has tests of its own.
"""
from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

from pbem.games.assyria import rules
from pbem.games.assyria.board import board, coords
from pbem.games.base import IllegalAction

FIXTURE = Path(__file__).with_name("fixtures") / "recorded-behaviour.json"
GAMES = 8                           # seeded random games of each player count (20 were
                                    # recorded: the first 8 kept, 15 s less a run)
PROBED_GAMES = 2                    # of these, the first ones whose actions are probed
ACTION_TYPES = ("start", "draft", "column", "hut", "feed", "well", "end_wells", "build",
                "extend", "dignitary", "offering", "buy_food", "buy_plow", "end_actions")
ADDED_TO_VIEW = ("discard_pile",)      # public facts determinize needs (test_determinize.py)
CARD_KINDS = [f"{food}-{n}" for food in ("grape", "palm", "salt", "barley", "date")
              for n in (1, 2, 3)] + ["joker", "plow", "played", "grape", "x"]


# json.dumps's own settings but no check for reference cycles (the engine's data has none, and
# the text is the same): encoding is much of this test, and the check costs a third of it.
ENCODER = json.JSONEncoder(separators=(",", ":"), check_circular=False)


def encode(value) -> bytes:
    """JSON with the keys in the order the engine wrote them (stricter than sorted keys)."""
    return ENCODER.encode(value).encode()


def position_record(state) -> list:
    """Everything observable in one position, before the next move."""
    to_act = rules.to_act(state)
    record = [to_act, rules.dump(state), rules.result(state)]
    record += [recorded_view(state, seat) for seat in [None, *range(state["players"])]]
    for seat in to_act:
        actions = rules.legal_actions(state, seat)
        record += [actions, rules.default_action(state, seat), rules.forced(state, seat, actions)]
    return record


def recorded_view(state, seat) -> dict:
    """The view with only the keys it had when the digests were recorded, in their order."""
    return {name: value for name, value in rules.view(state, seat).items()
            if name not in ADDED_TO_VIEW}


def probes(state, seat) -> list:
    """Actions to try in a position: every type with parameters near and far from legal ones."""
    bd = board(state["players"])
    hexes = [coords(h) for h in bd.order] + [[99, 99], [0], "0,0", [True, 0]]
    out: list = [None, 3, [], {}, {"type": None}, {"type": "nope"}]
    for kind in ACTION_TYPES:
        out += [{"type": kind}, {"type": kind, "extra": 1}]
    out += [{"type": t, "hex": h} for t in ("start", "hut", "build", "extend") for h in hexes]
    own = [coords(h) for h, s in state["huts"].items() if s == seat][:6]
    own += [[0, 0], [3, 3], [1.0, 0]]
    out += [{"type": "feed", "card": c, "hex": h} for c in CARD_KINDS for h in own]
    out += [{"type": t, "card": c} for t in ("draft", "buy_food") for c in CARD_KINDS + [None]]
    out += [{"type": "column", "column": c} for c in (-1, 0, 1, 2, 3, 4, 5, True, 1.0, "1")]
    out += [{"type": "well", "site": i} for i in [-1, *range(len(bd.well_sites) + 1), True, 0.0]]
    out += [{"type": "offering", "camels": n} for n in (-1, 0, 1, 2, 3, 4, True, 2.0)]
    out += [{"type": "dignitary", "dignitary": d} for d in ("highest", "middle", "lower", "x", 1)]
    for action in rules.legal_actions(state, seat):
        out.append(dict(action, extra=None))
        if "hex" in action:
            out.append(dict(action, hex=tuple(action["hex"])))
    return out


def probe_record(state, seat) -> list:
    """What `apply` and `describe` answer to each probe in this position."""
    record = []
    for action in probes(state, seat):
        for who in (seat, (seat + 1) % state["players"]):
            try:
                after = rules.apply(state, who, action)
            except IllegalAction as refused:
                record.append(["refused", who, str(refused)])
            else:
                record.append(["ok", who, rules.dump(after), rules.describe(state, who, action)])
    return record


def game_digest(players: int, seed: int, probe: bool = False) -> str:
    """sha256 over every position of one seeded random game (and the probes, if asked)."""
    plain, probed = game_digests(players, seed, probe)
    return probed if probe else plain


def game_digests(players: int, seed: int, probe: bool = False) -> tuple[str, str | None]:
    """The digests of one seeded random game without and (if `probe`) with the probes, from
    one play of it: the two hashes are fed the same positions and moves."""
    plain = hashlib.sha256()
    hashes = [plain, hashlib.sha256()] if probe else [plain]
    state = rules.setup(players, seed)
    moves = random.Random(seed * 7919 + players)
    step = 0
    while True:
        position = encode(position_record(state))
        for digest in hashes:
            digest.update(position)
        to_act = rules.to_act(state)
        if probe and to_act:
            hashes[1].update(encode(probe_record(state, to_act[0])))
        if not to_act:
            return plain.hexdigest(), hashes[1].hexdigest() if probe else None
        seat = to_act[0]
        action = moves.choice(rules.legal_actions(state, seat))
        move = encode([seat, action, rules.describe(state, seat, action)])
        for digest in hashes:
            digest.update(move)
        state = rules.apply(state, seat, action)
        step += 1
        if step % 7 == 3:                       # go on from a stored snapshot now and then
            state = rules.load(json.loads(json.dumps(rules.dump(state))))


def record() -> dict:
    return {str(players): {"games": [game_digest(players, seed) for seed in range(GAMES)],
                           "probed": [game_digest(players, seed, probe=True)
                                      for seed in range(PROBED_GAMES)]}
            for players in (2, 3, 4)}


def recorded() -> dict:
    return json.loads(FIXTURE.read_text())


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_look_and_play_exactly_as_recorded(players):
    """The games from PROBED_GAMES on; the first ones are checked by the next test, from the
    same play that digests their probes."""
    expected = recorded()[str(players)]["games"]
    assert len(expected) == GAMES
    changed = [seed for seed in range(PROBED_GAMES, GAMES)
               if game_digest(players, seed) != expected[seed]]
    assert changed == [], f"{players}-player games that changed: seeds {changed}"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_apply_accepts_and_refuses_exactly_as_recorded(players):
    """And the first games' digests without the probes (one play gives both)."""
    expected = recorded()[str(players)]
    for seed in range(PROBED_GAMES):
        plain, probed = game_digests(players, seed, probe=True)
        assert probed == expected["probed"][seed], (players, seed)
        assert plain == expected["games"][seed], (players, seed)


def test_the_digest_sees_a_changed_view():
    """The digest is not blind: a view with one field changed gives another digest."""
    original = rules.view
    try:
        rules.view = lambda state, seat: dict(original(state, seat), reign=0)
        assert game_digest(2, 0) != recorded()["2"]["games"][0]
    finally:
        del rules.view


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(record(), indent=1) + "\n")
    print(f"wrote {FIXTURE}", file=sys.stderr)
