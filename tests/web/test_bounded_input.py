"""The door: only listed actions enter the log, bodies and JSON are bounded, numbers
from outside are ASCII digits within range, the language switch stays on this site."""
from __future__ import annotations

import json

import pytest

from pbem.play import moves as playing
from pbem.play import creation
from pbem.mail import mailer
from pbem.log import store
from pbem.db.models import Event
from tests.conftest import on_sqlite, token_of

database_url = on_sqlite     # what the door lets in, not storage: SQLite alone

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]


def events(game):
    return [(e.seq, e.hash) for e in Event.select().where(Event.game == game).order_by(Event.seq)]


def first_link(smtp, game):
    """The token of the seat the game waits for, from the mail it was sent."""
    mailer.send_due()
    rules = store.rules_of(game)
    seat = rules.to_act(store.state_of(store.get_game(game.id)))[0]
    return seat, token_of(smtp.inbox.last_link(PLAYERS[seat]["email"]))


@pytest.fixture
def duel_game(app, smtp):
    game, host_token = creation.create_game("duel", PLAYERS, seed=3)
    seat, token = first_link(smtp, game)
    return game, token, host_token


# -- reproduction 3: actions with extra keys ------------------------------------------------------

@pytest.mark.parametrize("rules", ["tigris", "tigris_cards"])
def test_an_action_with_an_extra_key_is_refused_and_writes_nothing(app, client, smtp, rules):
    game, _ = creation.create_game(rules, PLAYERS, seed=5)
    seat, token = first_link(smtp, game)
    before = events(game)
    padded = {"type": "pass", "note": "x" * 20_000}
    answer = client.post(f"/api/turn/{token}", json={"seq": game.seq, "action": padded})
    assert answer.status_code == 422, answer.get_data(as_text=True)
    assert "not one of the actions" in answer.get_json()["error"]
    form = client.post(f"/turn/{token}", data={"seq": str(game.seq),
                                               "action": json.dumps(padded)})
    assert form.status_code == 422
    assert "not one of the actions" in form.get_data(as_text=True)
    assert events(game) == before
    with pytest.raises(store.IllegalAction):
        playing.act(game.id, seat, {"type": "pass", "note": "x"}, game.seq)
    assert events(game) == before


def test_a_listed_action_in_another_key_order_is_the_same_action(duel_game, client):
    game, token, _ = duel_game
    page = client.get(f"/api/turn/{token}").get_json()
    action = dict(reversed(list(page["actions"][0].items())))
    answer = client.post(f"/api/turn/{token}", json={"seq": page["seq"], "action": action})
    assert answer.status_code == 200


@pytest.mark.parametrize("retype", [float, str, lambda card: True, lambda card: [card]])
def test_an_action_of_another_type_is_not_the_listed_one(duel_game, client, retype):
    game, token, _ = duel_game
    page = client.get(f"/api/turn/{token}").get_json()
    listed = page["actions"][0]
    action = {"type": listed["type"], "card": retype(listed["card"])}
    before = events(game)
    answer = client.post(f"/api/turn/{token}", json={"seq": page["seq"], "action": action})
    assert answer.status_code == 422
    assert events(game) == before


# -- request bodies and JSON depth ----------------------------------------------------------------

def test_a_body_over_the_cap_is_413_with_a_clear_message(duel_game, client, app):
    game, token, _ = duel_game
    before = events(game)
    limit = app.config["MAX_CONTENT_LENGTH"]
    big = json.dumps({"seq": 0, "action": {"type": "yield", "note": "x" * limit}})
    answer = client.post(f"/api/turn/{token}", data=big, content_type="application/json")
    assert answer.status_code == 413
    assert f"at most {limit // 1024} KiB" in answer.get_json()["error"]
    page = client.post(f"/turn/{token}", data={"seq": "0", "action": "x" * limit})
    assert page.status_code == 413
    assert "The request is too large" in page.get_data(as_text=True)
    assert events(game) == before


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize("levels", [33, 1000, 5000])
def test_deeply_nested_json_is_400_on_the_api_and_the_form(duel_game, client, levels):
    game, token, _ = duel_game
    before = events(game)
    action = '{"type": "yield", "x": ' + deep(levels) + "}"
    answer = client.post(f"/api/turn/{token}", data='{"seq": 0, "action": ' + action + "}",
                         content_type="application/json")
    assert answer.status_code == 400 and "nested" in answer.get_json()["error"]
    page = client.post(f"/turn/{token}", data={"seq": "0", "action": action})
    assert page.status_code == 400
    assert events(game) == before


@pytest.mark.parametrize("body", ['{"seq": 0, "action": {"type": "yield", "x": NaN}}',
                                  '{"seq": 1e999, "action": {"type": "yield"}}',
                                  '{"seq": ' + "9" * 5000 + ', "action": {"type": "yield"}}',
                                  '{"seq": 9223372036854775808, "action": {"type": "yield"}}',
                                  '{"seq": -1, "action": {"type": "yield"}}',
                                  b'{"seq": 0, "action": {"type": "\xff"}}'])
def test_odd_json_numbers_and_bytes_are_400(duel_game, client, body):
    game, token, _ = duel_game
    before = events(game)
    answer = client.post(f"/api/turn/{token}", data=body, content_type="application/json")
    assert answer.status_code == 400, answer.get_data(as_text=True)
    assert events(game) == before


# -- numbers in forms and query strings (reproduction 6) ------------------------------------------

ODD_DIGITS = ["²", "①", "٠", "٣", "０", " 0 x", "-0x1", "1" * 40, "9223372036854775808"]


@pytest.mark.parametrize("raw", ODD_DIGITS)
def test_a_seq_not_in_ascii_digits_is_400_and_plays_nothing(duel_game, client, raw):
    game, token, _ = duel_game
    page = client.get(f"/api/turn/{token}").get_json()
    assert page["seq"] == 0
    before = events(game)
    action = json.dumps(page["actions"][0])
    answer = client.post(f"/turn/{token}", data={"seq": raw, "action": action})
    assert answer.status_code == 400
    api = client.post(f"/api/turn/{token}", json={"seq": raw, "action": page["actions"][0]})
    assert api.status_code == 400
    assert events(game) == before


@pytest.mark.parametrize("raw", ODD_DIGITS)
def test_done_and_step_in_odd_digits_are_ignored(duel_game, client, raw):
    game, token, _ = duel_game
    assert client.get(f"/turn/{token}", query_string={"done": raw}).status_code == 200
    assert client.get(f"/games/{game.id}/replay", query_string={"step": raw}).status_code == 200
    assert client.get(f"/replay/{token}", query_string={"step": raw}).status_code == 200


@pytest.mark.parametrize("path", ["/games/9223372036854775808", "/games/99999999999999999999",
                                  "/games/2147483648", "/games/٣", "/games/²",
                                  "/games/9223372036854775808/replay",
                                  "/games/9223372036854775808/record.json"])
def test_ids_out_of_range_or_not_ascii_are_404(duel_game, client, path):
    assert client.get(path).status_code == 404


def test_host_routes_with_huge_or_odd_numbers_are_404(duel_game, client):
    game, _, host_token = duel_game
    for tail in ("revoke/9223372036854775808", "resend/99999999999", "retry/9223372036854775808",
                 "resend/٣", "revoke/²"):
        assert client.post(f"/host/{host_token}/{tail}").status_code == 404, tail


# -- reproduction 7: the language switch stays on this site ---------------------------------------

@pytest.mark.parametrize("path", ["/%5Cevil.example/login", "//evil.example/login",
                                  "/%2F%2Fevil.example/login", "/\\evil.example/login"])
def test_the_language_switch_never_links_to_another_site(client, path):
    page = client.get(path).get_data(as_text=True)
    assert "evil.example" not in page.split('<nav class="lang"')[1].split("</nav>")[0]
    assert 'href="?lang=en"' in page and 'href="?lang=hu"' in page


def test_the_language_switch_keeps_the_query(duel_game, client):
    game, _, _ = duel_game
    page = client.get(f"/games/{game.id}/replay?step=1").get_data(as_text=True)
    assert 'href="?step=1&amp;lang=hu"' in page


# -- reproduction 9: weak secrets do not start production ------------------------------------------

def example_secret_key() -> str:
    from pathlib import Path
    example = Path(__file__).resolve().parents[2] / "deploy" / "pbem.env.example"
    line = next(l for l in example.read_text().splitlines() if l.startswith("PBEM_SECRET_KEY="))
    return line.split("=", 1)[1]


@pytest.mark.parametrize("key, why", [("x", "shorter than 32"), ("a" * 31, "shorter than 32"),
                                      (example_secret_key(), "example"),
                                      (example_secret_key() + "!", "example"),
                                      (" " * 32, "too easy to guess"),
                                      ("a" * 32, "too easy to guess"),
                                      ("secret" * 6, "too easy to guess"),
                                      ("secret" * 6 + "!", "too easy to guess")])
def test_production_refuses_a_weak_secret_key(tmp_path, key, why):
    from pbem.app import create_app
    with pytest.raises(RuntimeError, match=why):
        create_app({"ENV": "production", "SECRET_KEY": key,
                    "DATABASE_URL": f"sqlite:///{tmp_path}/x.db"})
    development = create_app({"ENV": "development", "SECRET_KEY": key,
                              "DATABASE_URL": f"sqlite:///{tmp_path}/x.db"})
    assert development.config["SECRET_KEY"] == key
    strong = create_app({"ENV": "production", "SECRET_KEY": STRONG_KEY,
                         "DATABASE_URL": f"sqlite:///{tmp_path}/x.db"})
    assert strong.config["SECRET_KEY"] == STRONG_KEY


STRONG_KEY = "Zq8wR2xk3Vn9LpT4sY6bHc1JmG5fD7aE0uW-_QiXoP"


@pytest.mark.slow
def test_random_keys_are_strong_enough():
    """400 random keys, none refused. (zxcvbn's estimate costs 7-28 ms a key: most of the
    draws are of 32 hex digits, the shortest key pbem accepts and the nearest to the bar, whose
    lowest of 5,000 draws scored 87 bits against 72: far enough that 300 draws a run, new ones
    each time, find a refused key as surely as 1,600 did.)"""
    import secrets
    from pbem.config import secret_key_weakness
    assert not [key for key in (secrets.token_urlsafe(48) for _ in range(100))
                if secret_key_weakness(key)]
    assert not [key for key in (secrets.token_hex(16) for _ in range(300))
                if secret_key_weakness(key)]
    # a real draw of 32 hex digits once scored 85 bits: a random key is never refused
    assert secret_key_weakness("c7444b47b793974c4a477702797b447a") is None


@pytest.mark.parametrize("key", ["x", example_secret_key()])
def test_the_pbem_command_refuses_a_weak_key_in_one_line(tmp_path, key):
    import os
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update(PBEM_DATABASE_URL=f"sqlite:///{tmp_path}/x.db", PBEM_SECRET_KEY=key)
    refused = subprocess.run([sys.executable, "-m", "pbem.ops.cli", "games", "list"], env=env,
                             capture_output=True, text=True)
    assert refused.returncode != 0
    assert "Traceback" not in refused.stderr
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and "PBEM_SECRET_KEY" in lines[0], refused.stderr
