"""The engine behaves exactly as it did when the fixture was recorded (before the speed work).

Seeded random games of every player count are played; at every position a sha256 is fed the
canonical JSON of `to_act`, the legal actions, `forced` and `default_action` of the seats to
act, the view of every seat and of a spectator, `dump`, `result`, the line `describe` writes for
the chosen action, and what `apply` answers to a few mangled actions (the state after, or the
IllegalAction's message). One digest a game is kept in data/same-behaviour.json; a change to
any of those changes it. Record again only for a deliberate change of behaviour:

    python -m tests.games.tigris.test_same_behaviour --record
"""
from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

from pbem.games.base import IllegalAction, is_forced
from pbem.games.tigris import rules

FIXTURE = Path(__file__).parent / "data" / "same-behaviour.json"
# Tile placements weigh most, so that kingdoms grow and wars, monuments and treasures occur.
WEIGHTS = {"place_tile": 10, "place_leader": 4, "move_leader": 1, "withdraw_leader": 0.3,
           "place_catastrophe": 0.3, "swap": 0.3, "pass": 0.2}
JUNK = [None, -1, 0, 99, True, "x", "red", [], {}, [0], [3, 99], [[0, 0]], ["red", 7], [5, 5]]
# Keys added to the view after the fixture was recorded (public facts determinize needs).
ADDED_VIEW_KEYS = ("declined", "placed", "monument_tiles", "version", "out_by_colour", "swapped")


def games() -> list[dict]:
    """Which games are played: every player count, both pickers, both options, every version
    (version 3, the card game's words, recorded after the others)."""
    out = []
    for players, seeds in ((2, range(100, 112)), (3, range(200, 210)), (4, range(300, 310)),
                           (2, range(112, 116)), (3, range(210, 213)), (4, range(310, 313))):
        for seed in seeds:
            options = {"english_variant": seed % 3 == 1, "open_scoring": seed % 4 == 2}
            version = 3 if seed % 100 >= (12 if players == 2 else 10) else (
                1 if seed % 5 == 4 else 2)
            out.append({"players": players, "seed": seed, "options": options,
                        "version": version, "picker": "weighted" if seed % 2 else "uniform"})
    return out


# json.dumps's own settings but no check for reference cycles (the engine's data has none, and
# the text is the same): encoding is much of this test, and the check costs a third of it.
ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                           check_circular=False)


def canonical(value) -> bytes:
    return ENCODER.encode(value).encode()


def pick(rng: random.Random, picker: str, actions: list[dict]) -> dict:
    if picker == "uniform":
        return rng.choice(actions)
    types = sorted({a["type"] for a in actions})
    kind = rng.choices(types, [WEIGHTS.get(t, 1) for t in types])[0]
    return rng.choice([a for a in actions if a["type"] == kind])


def mangled(rng: random.Random, actions: list[dict]) -> list[dict]:
    """Two legal actions with one field replaced by junk (often illegal, sometimes not)."""
    out = []
    for action in rng.sample(actions, min(2, len(actions))):
        key = rng.choice(sorted(action) + ["type"])
        out.append(dict(action, **{key: rng.choice(JUNK)}))
    return out


# Every player's points and treasures, counted from the log, joined the view after the fixture
# was recorded (a player's own, and everybody's with open scoring or at the end, were there).
COUNTED_FROM_THE_LOG = ("points", "treasures_taken")


def seen_view(state, seat) -> dict:
    view = rules.view(state, seat)
    shown = {k: v for k, v in view.items() if k not in ADDED_VIEW_KEYS}
    if not (state["over"] or state["options"]["open_scoring"]):
        shown["players"] = [{k: v for k, v in p.items()
                             if p["seat"] == seat or k not in COUNTED_FROM_THE_LOG}
                            for p in view["players"]]
    return shown


def play_and_digest(game: dict) -> tuple[str, int]:
    """(sha256 hex digest, number of actions) of one seeded random game."""
    rng = random.Random(game["seed"])
    state = rules.setup(game["players"], game["seed"], game["options"], version=game["version"])
    digest = hashlib.sha256()
    seats = list(range(game["players"])) + [None]
    played = 0
    while True:
        to_act = rules.to_act(state)
        legal = {seat: rules.legal_actions(state, seat) for seat in to_act}
        record = {"to_act": to_act, "legal": [legal[s] for s in to_act],
                  "forced": [is_forced(rules, state, s, legal[s]) for s in to_act],
                  "default": [rules.default_action(state, s) for s in to_act],
                  "views": [seen_view(state, s) for s in seats],
                  "dump": rules.dump(state), "result": rules.result(state)}
        if not to_act:
            digest.update(canonical(record))
            return digest.hexdigest(), played
        seat = to_act[0]
        answers = []
        for bad in mangled(rng, legal[seat]):
            try:
                answers.append(rules.dump(rules.apply(state, seat, bad)))
            except IllegalAction as error:
                answers.append(str(error))
        record["mangled"] = answers
        action = pick(rng, game["picker"], legal[seat])
        record["describe"] = rules.describe(state, seat, action)
        digest.update(canonical(record))
        state = rules.apply(state, seat, action)
        played += 1


def recorded() -> list[dict]:
    return json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("index", range(len(games())))
def test_the_game_plays_as_recorded(index):
    game, expected = games()[index], recorded()[index]
    assert {k: expected[k] for k in game} == game
    digest, played = play_and_digest(game)
    assert played == expected["actions"]
    assert digest == expected["sha256"]


def test_the_fixture_covers_every_player_count():
    records = recorded()
    assert {r["players"] for r in records} == {2, 3, 4} and len(records) == len(games())
    assert {r["version"] for r in records} == {1, 2, 3}


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    rows = []
    for game in games():
        digest, played = play_and_digest(game)
        rows.append(dict(game, actions=played, sha256=digest))
        print(game["players"], game["seed"], played, digest[:12], flush=True)
    FIXTURE.write_text(json.dumps(rows, indent=1) + "\n")
