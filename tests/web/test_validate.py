"""Names, titles and addresses are checked where they enter (web form, CLI, import): a clear
message, never a 500 or a traceback, and nothing written (SQLite and PostgreSQL)."""
from __future__ import annotations

import json

import pytest

from pbem.play import records
from pbem.play import creation
from pbem.log import store
from pbem import validate
from pbem.db.models import Game, Outbox

LONG_EMAIL = "a" * 64 + "@" + ".".join(["b" * 63] * 3) + ".org"          # 260 characters
TIGRIS_NAMES = [c * 44 for c in "ABCD"]


def form(**extra):
    base = {"rules": "duel", "name0": "Ann", "email0": "ann@example.org",
            "name1": "Bob", "email1": "bob@example.org"}
    return {**base, **extra}


@pytest.mark.parametrize("fields, words", [
    ({"name0": "Ann\r\nBcc: x@y.test"}, "line break"),
    ({"name1": "Bob\u2028Eve"}, "line break"),
    ({"name1": "Bob\u202eevE"}, "line break"),            # a bidi override is a format character
    ({"title": "Game\nBcc: x@y.test"}, "line break"),
    ({"title": "T" * 201}, "at most 200"),
    ({"name0": "N" * 101}, "at most 100"),
    ({"email0": LONG_EMAIL}, "at most 254"),
    ({"email1": "bob@example.org\r\nBcc: x@y.test"}, "line break"),
    ({"email1": "bob@@example.org"}, "valid email"),
    ({"email1": "bob@localhost"}, "valid email"),
    ({"host_email": "host@example.org>, x@y"}, "valid email"),
    ({"host_email": LONG_EMAIL}, "at most 254"),
])
def test_the_new_game_form_refuses_what_would_poison_mail(client, fields, words):
    answer = client.post("/new", data=form(**fields))
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400 and words in page, page
    assert Game.select().count() == 0 and Outbox.select().count() == 0


def test_four_long_tigris_names_get_a_shortened_default_title(client):
    fields = {"rules": "tigris"}
    for i, name in enumerate(TIGRIS_NAMES):
        fields.update({f"name{i}": name, f"email{i}": f"p{i}@example.org"})
    answer = client.post("/new", data=fields)
    assert answer.status_code in (200, 303), answer.get_data(as_text=True)
    game = Game.get()
    assert len(game.title) == validate.TITLE_LENGTH and game.title.endswith("…")
    assert game.title.startswith("Tigris & Euphrates: " + "A" * 44 + " vs ")


def test_addresses_are_normalised_and_names_trimmed(app):
    game, _ = creation.create_game("duel", [{"name": "  Ann ", "email": "Ann@EXAMPLE.org"},
                                         {"name": "Bob", "email": "bob@example.org"}],
                                host_email="Host@Example.ORG")
    seats = list(game.seats.order_by(store.Seat.index))
    assert seats[0].name == "Ann" and seats[0].email == "Ann@example.org"
    assert game.host_email == "Host@example.org"


@pytest.mark.parametrize("typed, key", [
    (" Ann@Example.ORG ", "ann@example.org"), ("ann@example.org", "ann@example.org"),
    ("bob@bücher.example", "bob@xn--bcher-kva.example"), ("", ""), (None, ""),
    ("not an address", "not an address"), ("X@Y", "x@y")])
def test_one_rule_tells_addresses_apart(typed, key):
    assert validate.address_key(typed) == key
    assert validate.address_key(key) == key                 # a stored key finds itself


def test_the_store_refuses_whatever_entry_calls_it(app):
    for players, title, host in [
            ([{"name": "A\nB", "email": "a@x.org"}, {"name": "B", "email": "b@x.org"}], "", ""),
            ([{"name": "A", "email": "a@x.org"}, {"name": "B", "email": "b@x.org"}], "x" * 201, ""),
            ([{"name": "A", "email": "a@x.org"}, {"name": "B", "email": "b@x.org"}], "", "h\r@x.org"),
            ([{"name": "A", "email": LONG_EMAIL}, {"name": "B", "email": "b@x.org"}], "", "")]:
        with pytest.raises(ValueError):
            creation.create_game("duel", players, title=title, host_email=host)
    assert Game.select().count() == 0


@pytest.fixture
def cli(app):
    runner = app.test_cli_runner()
    return lambda *args: runner.invoke(args=list(args))


@pytest.mark.parametrize("args, words", [
    (["--player", f"{'N' * 101} <a@x.org>", "--player", "B <b@x.org>"], "at most 100"),
    (["--player", "A <a@x.org>", "--player", "B <b@x.org>", "--title", "T" * 201], "at most 200"),
    (["--player", "A <a@x.org>", "--player", "B <b@x.org>", "--title", "T\r\nBcc: x@y"],
     "line break"),
    (["--player", "A <a@x.org>", "--player", f"B <{LONG_EMAIL}>"], "at most 254"),
    (["--player", "A <a@x.org>", "--player", "B <b@x.org>", "--host-email", "h@@x"],
     "valid email"),
])
def test_games_create_says_what_is_wrong_without_a_traceback(cli, args, words):
    out = cli("games", "create", "duel", *args)
    assert out.exit_code != 0 and words in out.output, out.output
    assert "Traceback" not in out.output and out.exception is None or \
        isinstance(out.exception, SystemExit)
    assert Game.select().count() == 0


def test_games_create_shortens_a_long_default_title(cli):
    args = sum([["--player", f"{name} <p{i}@x.org>"] for i, name in enumerate(TIGRIS_NAMES)], [])
    out = cli("games", "create", "tigris", *args)
    assert out.exit_code == 0, out.output
    assert len(Game.get().title) == validate.TITLE_LENGTH


@pytest.mark.parametrize("seat, title, words", [
    ({"name": "Bob\r\nBcc: x@y.test"}, "", "line break"),
    ({"name": "B" * 101}, "", "at most 100"),
    ({"name": "Bob"}, "T" * 201, "at most 200"),
])
def test_games_import_refuses_poisoned_records(cli, tmp_path, seat, title, words):
    game, _ = creation.create_game("duel", [{"name": "Ann", "email": "ann@example.org"},
                                         {"name": "Bob", "email": "bob@example.org"}], seed=4)
    record = records.export_game(game)
    record["seats"][1] = {**record["seats"][1], **seat}
    record["title"] = title or record["title"]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    out = cli("games", "import", str(path))
    assert out.exit_code != 0 and words in out.output, out.output
    assert Game.select().count() == 1


def test_the_quick_answer_for_printable_text_is_the_same_answer():
    """has_forbidden_characters answers a text str.isprintable() accepts at once: every
    character of every forbidden category, all of Unicode, is one it refuses."""
    import sys
    import unicodedata
    printable_yet_forbidden = [
        code for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) in validate.FORBIDDEN_CATEGORIES
        and chr(code).isprintable()]
    assert printable_yet_forbidden == []
    for text in ("Ann", "Ann\u00a0Lee", "Ann\u2028", "A\x00", "\u202eevil", "x" * 10_000):
        assert validate.has_forbidden_characters(text) == any(
            unicodedata.category(ch) in validate.FORBIDDEN_CATEGORIES for ch in text), text
