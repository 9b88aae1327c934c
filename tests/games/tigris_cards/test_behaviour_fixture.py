"""The engine behaves exactly as it did before its fast paths: seeded random games replayed
position by position, hashed, and compared with hashes recorded by the engine of 2026-12-01
(before any speed work). Any change in what a seat sees or may do fails here. (Recorded again
twice, each time by the engine as it was with one change only: its view also shows the flow's
queued steps and turn counters, which `determinize` needs; then it also counts the discarded
cards by face, `discard_counts`, with every game's hashes first checked equal to the old ones
with that key left out; then every victory pile shows its `counts` by colour with or without
"open piles", checked the same way; then rules version 3 added six games, recorded by the
engine that brought it, every earlier game's hash unchanged; they were recorded again when a
refused exchange joined the record, the others unchanged.)

Per position the hash covers the JSON (keys in the engine's order) of `to_act`, `legal_actions` of the seat to act,
`view` of every seat and of the spectator, `dump`, `result`, `forced`, `default_action`,
`describe` of the chosen action and the refusals (IllegalAction messages) of a few illegal
actions. Now and then the game goes on from `load(dump(state))` read back from JSON, as the
server does with a snapshot, so cached internals must rebuild to the same behaviour.

Record anew (only with an engine whose behaviour is known to be right):
    python -m tests.games.tigris_cards.test_behaviour_fixture --record
"""
from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

from pbem.games.base import IllegalAction
from pbem.games.tigris_cards import rules

FIXTURE = Path(__file__).parent / "data" / "behaviour_hashes.json"

# (players, seed, options, rules version, chooser): ten games of every player count (72 were
# recorded; the first ones of each kind are kept, their hashes unchanged: the 42 others added
# 40 s to every test run and no failure the kept ones would miss in any change so far)
GAMES = (
    [(p, seed, {}, 2, "uniform" if seed % 2 else "kinds") for p in (2, 3, 4) for seed in range(6)]
    + [(p, 100 + seed, {"open_piles": True}, 2, "kinds") for p in (2, 3, 4) for seed in range(2)]
    + [(p, 200 + seed, {}, 1, "uniform" if seed % 2 else "kinds")
       for p in (2, 3, 4) for seed in range(2)]
    + [(p, 300 + seed, {}, 3, "uniform" if seed % 2 else "kinds")
       for p in (2, 3, 4) for seed in range(2)]
)


def game_id(game) -> str:
    players, seed, options, version, chooser = game
    extra = "-open" if options else ""
    return f"{players}p-seed{seed}-v{version}-{chooser}{extra}"


# json.dumps's own settings but no check for reference cycles (the engine's data has none, and
# the text is the same): encoding is much of this test, and the check costs a third of it.
ENCODER = json.JSONEncoder(separators=(",", ":"), allow_nan=False, check_circular=False)


def canonical(value) -> str:
    """JSON with the keys in the order the engine wrote them: the order is behaviour too (the
    server sends these dicts as they are)."""
    return ENCODER.encode(value)


def choose(rng: random.Random, actions: list[dict], chooser: str) -> dict:
    """"uniform": any legal action alike; "kinds": first a kind of action, then one of that kind
    (placing cards half the time, standing answers rarely), which reaches ships and wars."""
    if chooser == "uniform":
        return rng.choice(actions)
    kinds = sorted({a["type"] for a in actions if a["type"] != "standing"})
    if len(actions) > len(kinds) and rng.random() < 0.03 and any(
            a["type"] == "standing" for a in actions):
        kind = "standing"
    elif "card" in kinds and rng.random() < 0.5:
        kind = "card"
    else:
        kind = rng.choice(kinds)
    return rng.choice([a for a in actions if a["type"] == kind])


def illegal_probes(rng: random.Random, st, seat: int, action: dict) -> list[tuple[int, object]]:
    """A few actions `apply` must refuse: the chosen one sent by another seat, with a field
    of the wrong JSON type, out of range, with an extra field, of another type."""
    other = (seat + 1) % st["players"]
    probes: list[tuple[int, object]] = [(other, action), (seat, {**action, "extra": 1}),
                                        (seat, {"type": "nonsense"}), (seat, "pass")]
    for key, value in action.items():
        if key != "type" and isinstance(value, int):
            probes += [(seat, {**action, key: True}), (seat, {**action, key: float(value)}),
                       (seat, {**action, key: value + 9}), (seat, {**action, key: -1})]
        elif key != "type":
            probes.append((seat, {**action, key: value + "x"}))
    probes.append((seat, {"type": rng.choice(["leader", "card", "catastrophe", "pass", "score",
                                              "commit", "exchange", "ship", "conflict"]),
                          "colour": rng.choice(["red", "blue", "black", "green"]),
                          "column": rng.randrange(9), "row": rng.randrange(10)}))
    return probes


def refusal(st, seat, action) -> str:
    try:
        rules.apply(st, seat, action)
    except IllegalAction as exc:
        return f"illegal: {exc}"
    return "accepted"


def position_record(st, rng: random.Random) -> tuple[list, dict | None, int | None]:
    waiting = rules.to_act(st)
    players = st["players"]
    record: list = [waiting, rules.dump(st), rules.result(st),
                    [rules.view(st, s) for s in list(range(players)) + [None]]]
    if not waiting:
        return record, None, None
    seat = waiting[0]
    actions = rules.legal_actions(st, seat)
    record += [actions, rules.forced(st, seat, actions), rules.default_action(st, seat),
               [rules.legal_actions(st, s) for s in range(players) if s != seat]]
    return record, actions, seat


def game_hash(game) -> tuple[str, int]:
    """The hash of every position of one seeded game, and its number of actions."""
    players, seed, options, version, chooser = game
    rng = random.Random(seed * 31 + players)
    st = rules.setup(players, seed, options, version=version)
    digest, steps = hashlib.sha256(), 0
    while True:
        record, actions, seat = position_record(st, rng)
        if actions is None:
            digest.update(canonical(record).encode())
            return digest.hexdigest(), steps
        action = choose(rng, actions, chooser)
        record.append(rules.describe(st, seat, action))
        if steps % 13 == 0:
            record.append([refusal(st, s, a) for s, a in illegal_probes(rng, st, seat, action)])
        digest.update(canonical(record).encode())
        st = rules.apply(st, seat, action)
        steps += 1
        if steps % 40 == 0:  # the server goes on from a stored snapshot
            st = rules.load(json.loads(json.dumps(rules.dump(st))))


def recorded() -> dict:
    return json.loads(FIXTURE.read_text())


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES, ids=[game_id(g) for g in GAMES])
def test_a_seeded_game_behaves_as_recorded(game):
    expected = recorded()[game_id(game)]
    digest, steps = game_hash(game)
    assert steps == expected["actions"]
    assert digest == expected["sha256"]


def test_every_player_count_and_version_is_recorded():
    games = recorded()
    assert set(games) == {game_id(g) for g in GAMES}
    assert {g[0] for g in GAMES} == {2, 3, 4} and {g[3] for g in GAMES} == {1, 2, 3}


if __name__ == "__main__" and "--record" in sys.argv:
    hashes = {}
    for game in GAMES:
        digest, steps = game_hash(game)
        hashes[game_id(game)] = {"sha256": digest, "actions": steps}
        print(game_id(game), steps, flush=True)
    FIXTURE.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n")
