"""Games from installed distributions (entry points `pbem.games`, `pbem.presenters`): a good
one joins RULES, a broken one is left out with a warning naming it, and what pbem shows of any
game (its name, its result) comes from the engine, not from lists of the built-in games.
The whole way, installed into a venv of its own, is tests/install/test_plugin_game.py."""
from __future__ import annotations

import logging
import random
from importlib.metadata import EntryPoint

import pytest

import pbem.games as games
import pbem.present as present
from pbem.games.base import GAME_PACKAGES, speaking
from pbem.ops import check
from pbem.present import results
from pbem.present.titles import game_name
from tests import toygame


class Impostor(toygame.Duel):
    name = "tigris"


class Nameless:
    """Not a game: it has a name and nothing else of the Rules protocol."""
    name = "nameless"


impostor, nameless = Impostor(), Nameless()
presenter = present.Presenter()


def point(name: str, value: str, group: str = games.ENTRY_POINT_GROUP) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=group)


@pytest.fixture
def registry():
    """RULES and the left-out plugins as they were, after the test."""
    rules, left_out = dict(games.RULES), dict(games.LEFT_OUT)
    yield
    games.RULES.clear(), games.RULES.update(rules)
    games.LEFT_OUT.clear(), games.LEFT_OUT.update(left_out)


def test_the_built_in_games_are_every_package_in_pbem_games():
    assert set(GAME_PACKAGES) == {"tigris", "tigris_cards", "assyria"} <= set(games.RULES)
    assert all(games.FOLDERS[name].name == name for name in GAME_PACKAGES)


def test_a_plugin_game_joins_the_registry(registry):
    rules = games.register_plugin(point("duel", "tests.toygame:rules"))
    assert rules is toygame.rules and games.RULES["duel"] is rules
    assert games.FOLDERS["duel"].name == "tests" and "duel" not in games.LEFT_OUT


@pytest.mark.parametrize("name, value, why", [
    ("broken", "tests.no_such_module:rules", "is left out: ModuleNotFoundError: No module named"),
    ("broken", "tests.toygame:no_such_name", "is left out: AttributeError"),
    ("nameless", "tests.games.test_plugins:nameless", "lacks title, version, min_players"),
    ("tigris", "tests.games.test_plugins:impostor", "the name 'tigris' is taken by pbem"),
    ("tigris", "tests.toygame:rules", "its rules are named 'duel', not 'tigris' as the entry"),
])
def test_a_broken_plugin_is_left_out_with_a_warning_naming_it(registry, caplog, name, value, why):
    before = dict(games.RULES)
    with caplog.at_level(logging.WARNING, logger="pbem.games"):
        assert games.register_plugin(point(name, value)) is None
    assert games.RULES == before
    [warning] = [r.getMessage() for r in caplog.records]
    assert why in warning and f"'{name} = {value}'" in warning
    assert why in games.LEFT_OUT[name]


def test_pbem_check_names_the_games_and_each_plugin_left_out(registry):
    games.register_plugin(point("broken", "tests.no_such_module:rules"))
    findings = check.games_findings()
    assert findings[0].level == "ok" and "assyria, tigris, tigris_cards" in findings[0].text
    [problem] = [f for f in findings if f.level == "problem"]
    assert "'broken'" in problem.text and "tests.no_such_module:rules" in problem.text


@pytest.fixture
def presenters(monkeypatch, registry):
    """Entry points of the group pbem.presenters as the test says; the cache forgets duel's."""
    found = []
    monkeypatch.setattr(present, "entry_points",
                        lambda group: [p for p in found if p.group == group])
    games.register(toygame.rules)
    yield found
    present._cache.pop("duel", None)
    present.LEFT_OUT.pop("duel", None)


def test_a_game_without_a_presenter_gets_the_generic_one(presenters):
    assert present.presenter_for("duel") is present.GENERIC


def test_a_plugin_presenter_is_found_by_the_game_name(presenters):
    presenters.append(point("duel", "tests.games.test_plugins:presenter",
                            present.PRESENTER_GROUP))
    assert present.presenter_for("duel") is presenter


def test_a_broken_presenter_leaves_the_generic_one_and_a_warning(presenters, caplog):
    presenters.append(point("duel", "tests.games.test_plugins:nameless",
                            present.PRESENTER_GROUP))
    with caplog.at_level(logging.WARNING, logger="pbem.present"):
        assert present.presenter_for("duel") is present.GENERIC
    assert "lacks" in caplog.text and "tests.games.test_plugins:nameless" in caplog.text
    assert "duel" in present.LEFT_OUT


def test_a_game_name_is_its_engine_title_in_the_reader_language(registry):
    games.register(toygame.rules)
    assert game_name("duel") == "Duel (test game)"
    with speaking("hu"):
        assert game_name("tigris") == "Tigris és Eufrátesz"
        assert game_name("tigris_cards") == "Eufrátesz és Tigris: a kártyajáték"
    assert game_name("gone", "Gone") == "Gone" and game_name("gone") == "gone"


def random_value(rng: random.Random, depth: int = 0):
    kind = rng.randrange(9 if depth < 3 else 6)
    if kind < 6:
        return [None, True, 3, -2.5, "x", 0][kind]
    if kind < 8:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["0", "1", "2", "red", "gold_coins"]): random_value(rng, depth + 1)
            for _ in range(rng.randrange(4))}


def test_any_result_with_a_ranking_makes_a_summary():
    rng = random.Random(17)
    keys = ["scores", "points", "colours", "treasures", "gold_coins", "notes", "end"]
    for _ in range(3000):
        ranking = rng.choice([[[0], [1, 2]], [[2], [0], [1]], [[0, 1, 2]]])
        result = {"ranking": ranking, **{k: random_value(rng) for k in rng.sample(keys, 3)}}
        summary = results.summary(result, ["Ann", "Bob", "Cid"])
        assert [row["rank"] for row in summary["rows"]] == sorted(
            place + 1 for place, tie in enumerate(ranking) for _ in tie)
    plain = results.summary({"ranking": [[1], [0]], "gold_coins": [4, 9]}, ["Ann", "Bob"])
    assert [(r["name"], r["details"]) for r in plain["rows"]] == [
        ("Bob", [("gold coins", "9")]), ("Ann", [("gold coins", "4")])]
