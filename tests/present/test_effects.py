"""The confirm bar's second line, "what this does": every action of the card game and Assyria
that the rulebook gives a consequence has one, read from the seat's view alone, in both
languages; the server sends it with the label (/says)."""
from __future__ import annotations

import pytest

from pbem import present
from pbem.games.base import speaking
from pbem.play import creation
from pbem.log import store
from tests.present.test_page_size import labelled_positions, players, turn_path
from tests.conftest import on_sqlite

database_url = on_sqlite     # pages, not storage: SQLite alone

EXPLAINED = {"tigris_cards": {"card", "leader", "catastrophe", "commit", "score", "ship",
                              "conflict", "exchange"},
             "assyria": {"start", "column", "hut", "feed", "build", "extend", "dignitary",
                         "offering", "buy_food", "buy_plow", "end_actions"}}


@pytest.mark.parametrize("rules_name", sorted(EXPLAINED))
def test_each_consequential_action_says_what_it_does_in_both_languages(app, rules_name):
    presenter = present.presenter_for(rules_name)
    seen = set()
    for rules, state, seat, actions in labelled_positions(rules_name, moves=150, every=11):
        view = rules.view(state, seat)
        for action in actions:
            said = {}
            for language in ("en", "hu"):
                with app.test_request_context(f"/?lang={language}"), speaking(language):
                    said[language] = present.fill_names(presenter.effect(action, view),
                                                        [f"P{i}" for i in range(8)])
                assert "{p" not in said[language] and "%(" not in said[language], said
            if action["type"] in EXPLAINED[rules_name]:
                assert said["en"].strip(), action
                assert said["hu"] != said["en"], said      # translated, not left in English
                seen.add(action["type"])
    assert seen >= EXPLAINED[rules_name] - {"ship", "exchange", "conflict", "catastrophe",
                                            "build", "extend", "buy_plow", "buy_food"}


def test_a_card_says_who_may_score_it_from_the_leaders_in_its_kingdom(app, client):
    game, _ = creation.create_game("tigris_cards", players(2), seed=4)
    path, seat = turn_path(app, game)
    view = store.rules_of(game).view(store.state_of(game), seat)
    colour = view["hand"][0]
    said = client.get(f"{path}/says?taps=hand:{colour}+col:0").get_json()
    assert said["label"].startswith("Place a ")
    assert said["says"].endswith("no king in this kingdom: nobody scores it."), said
    assert store.get_game(game.id).seq == 0
