"""The replay viewer: states rebuilt from the log, who sees what, controls without JavaScript,
a 2000-move game, the archive, and the end of a game in words and a chart."""
from __future__ import annotations

import random
import re
import time

import pytest

from pbem.play import records
from pbem.play import creation
from pbem.play import links
from pbem.mail import mailer
from pbem.log import chain, store
from pbem.db.database import write_transaction
from pbem.db.models import Checkpoint
from pbem.games import RULES
from pbem.present import replay as replay_module
from pbem.present import results
from tests.conftest import play_at_random, token_of
from tests.support.games import GAMES
from tests.conftest import on_sqlite

database_url = on_sqlite     # the viewer, not storage (the log's tests run on both): SQLite alone

PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}]




def test_every_step_is_the_state_the_log_replays_to(app):
    game, _ = creation.create_game("tigris", PLAYERS, seed=3)
    game = play_at_random(game, 70, random.Random(3))
    rules = store.rules_of(game)
    expected = {event.seq: rules.dump(state) for event, state in store.replay(game)}
    order = list(expected)
    random.Random(1).shuffle(order)
    for step in order + [game.seq, 0, replay_module.CHECKPOINT, replay_module.CHECKPOINT + 1]:
        state, event = replay_module.state_at(game, step)
        assert event.seq == step and rules.dump(state) == expected[step], step
    assert Checkpoint.select().where(Checkpoint.game == game.id).count() >= 1


def test_the_first_step_is_the_setup(app):
    game, _ = creation.create_game("duel", PLAYERS, seed=1)
    state, _ = replay_module.state_at(game, 0)
    assert state == store.rules_of(game).setup(2, 1, {"rounds": 2, "open_hands": False})


def controls(page: str) -> dict:
    found = {}
    for name in ("replay-first", "replay-prev", "replay-next", "replay-last", "replay-play"):
        match = re.search(rf'href="([^"]+)" id="{name}"', page)
        found[name] = match.group(1).replace("&amp;", "&") if match else None
    return found


def test_spectators_step_through_with_links_and_forms(app, client):
    game, _ = creation.create_game("duel", PLAYERS, seed=2, options={"rounds": 3})
    game = play_at_random(game, 4, random.Random(2))
    base = f"/games/{game.id}/replay"
    page = client.get(f"{base}?step=1").get_data(as_text=True)
    links_ = controls(page)
    assert links_["replay-prev"] == f"{base}?step=0"
    assert links_["replay-next"] == f"{base}?step=2"
    assert links_["replay-last"] == f"{base}?step={game.seq}"
    assert links_["replay-play"] == f"{base}?step=2&play=1"
    assert 'type="range" name="step"' in page and 'type="number" name="step"' in page
    assert "<script" in page and "replay.js" in page and "onclick" not in page
    assert f"Move 1 of {game.seq}" in page
    autoplay = client.get(f"{base}?step=2&play=1").get_data(as_text=True)
    assert 'http-equiv="refresh"' in autoplay and "step=3&amp;play=1" in autoplay
    assert 'data-playing="1"' in autoplay
    assert client.get(f"{base}?step=999").status_code == 200
    assert f"Move {game.seq} of {game.seq}" in client.get(f"{base}?step=999").get_data(as_text=True)
    assert client.get("/games/999/replay").status_code == 404
    # a running game: the spectator sees nobody's hand
    for step in range(game.seq + 1):
        text = client.get(f"{base}?step={step}").get_data(as_text=True)
        assert "Holdings of" not in text and "<dt>hand</dt><dd>–</dd>" in text


def test_players_replay_their_own_view_from_their_last_link(app, client, smtp):
    game, _ = creation.create_game("duel", PLAYERS, seed=2, options={"rounds": 3})
    mailer.send_due()
    first = token_of(smtp.inbox.last_link("ann@example.org"))
    game = play_at_random(game, 1, random.Random(2))              # Ann attacked: Bob is to act
    rules = store.rules_of(game)
    spent = client.get(f"/turn/{first}")
    assert spent.status_code == 410                                 # her turn passed
    assert f'href="/replay/{first}"' in spent.get_data(as_text=True)
    page = client.get(f"/replay/{first}?step=1").get_data(as_text=True)
    assert "what you, Ann, saw" in page
    state, _ = replay_module.state_at(game, 1)
    own = rules.view(state, 0)["hand"]
    assert f"<dt>hand</dt><dd>[{', '.join(map(str, own))}]</dd>" in page
    assert "Holdings of Bob" not in page and "<dt>hands</dt><dd>–</dd>" in page
    assert client.get(f"/replay/{first[:-3]}xyz").status_code == 403
    rng = random.Random(5)
    while smtp.inbox.last_link("ann@example.org") == smtp.inbox.links_for("ann@example.org")[0]:
        game = play_at_random(game, 1, rng)                       # until Ann is sent a newer link
        mailer.send_due()
    assert client.get(f"/replay/{first}").status_code == 200      # every link she was sent
    newest = token_of(smtp.inbox.last_link("ann@example.org"))
    assert newest != first and client.get(f"/replay/{newest}").status_code == 200
    with write_transaction():
        links.spend(game, [0], "revoked")
    assert client.get(f"/replay/{newest}").status_code == 410
    assert client.get(f"/replay/{first}").status_code == 410      # a revoke cuts older links


def test_a_finished_game_shows_everything(app, client):
    game, _ = creation.create_game("duel", PLAYERS, seed=2)
    game = play_at_random(game, 50, random.Random(2))
    assert game.status == "over"
    page = client.get(f"/games/{game.id}/replay?step=1").get_data(as_text=True)
    assert "Holdings of Ann" in page and "Holdings of Bob" in page
    assert "you see everything" in page
    archive = client.get("/games").get_data(as_text=True)
    assert f"/games/{game.id}/replay" in archive and f"/games/{game.id}/record.json" in archive
    record = client.get(f"/games/{game.id}/record.json").get_json()
    copy = records.import_game(record)
    assert copy.head_hash == game.head_hash


def long_record(moves: int) -> dict:
    """A Duel record of `moves` events, made with the rules alone (fast), for import."""
    rules = RULES["duel"]
    options = {"rounds": moves, "open_hands": False}
    creation = {"type": "create", "rules": "duel", "rules_version": rules.version,
                "options": options, "players": 3, "names": ["A", "B", "C"], "seed": 1}
    created_at = "2026-01-01T00:00:00.000000"
    events, prev = [], ""
    state = rules.setup(3, 1, options)
    rng = random.Random(1)
    for seq in range(moves + 1):
        forced = chain.forced_move(rules, state) if seq else None   # as the server plays it
        if seq == 0:
            seat, action = None, creation
        else:
            seat = forced[0] if forced else rules.to_act(state)[0]
            action = forced[1] if forced else rng.choice(rules.legal_actions(state, seat))
            state = rules.apply(state, seat, action)
        prev = chain.chain_hash(prev, seq, seat, action, forced is not None, created_at)
        events.append({"seq": seq, "seat": seat, "action": action, "automatic": forced is not None,
                       "summary": f"move {seq}", "created_at": created_at, "hash": prev})
    return {"format": chain.EXPORT_FORMAT, "format_version": 1, "rules": "duel",
            "rules_version": rules.version, "title": "long", "status": "running",
            "seats": [{"name": n} for n in "ABC"], "events": events, "head_hash": prev}


def test_a_step_in_a_2000_move_game_needs_few_applications(app, client, monkeypatch):
    game = records.import_game(long_record(2000))
    assert game.seq == 2000
    rules = RULES["duel"]
    calls = {"n": 0}
    real_apply = rules.apply

    def counting(state, seat, action):
        calls["n"] += 1
        return real_apply(state, seat, action)
    monkeypatch.setattr(rules, "apply", counting)
    started = time.perf_counter()
    assert client.get(f"/games/{game.id}/replay?step=1990").status_code == 200
    first = time.perf_counter() - started
    assert calls["n"] == 1990 % replay_module.CHECKPOINT   # from the import's checkpoint 1950
    for step in (1991, 1200, 17, 1999, 640):
        calls["n"] = 0
        started = time.perf_counter()
        assert client.get(f"/games/{game.id}/replay?step={step}").status_code == 200
        assert calls["n"] < replay_module.CHECKPOINT, step
    print(f"first visit {first * 1000:.0f} ms, then {(time.perf_counter() - started) * 1000:.0f} ms")


@pytest.mark.parametrize("rules_name", [*GAMES, "duel"])
def test_the_end_of_each_game_in_rows_and_a_chart(app, rules_name):
    rules = RULES[rules_name]
    for seed in range(20):
        state, rng = rules.setup(2, seed, None), random.Random(seed)
        for _ in range(4000):
            if not rules.to_act(state):
                break
            seat = rng.choice(rules.to_act(state))
            state = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
        if rules.result(state):
            break
    result = rules.result(state)
    summary = results.summary(result, ["Ann", "Bob"])
    assert [row["rank"] for row in summary["rows"]] == sorted(r["rank"] for r in summary["rows"])
    assert {row["name"] for row in summary["rows"]} == {"Ann", "Bob"}
    assert all(row["score"] is not None for row in summary["rows"])
    assert summary["chart"] is None or summary["chart"]["groups"]
    if rules_name != "duel":
        assert all(row["details"] for row in summary["rows"])      # colours, treasures...
    assert results.summary(None, ["Ann"]) is None
