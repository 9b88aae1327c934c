"""The card game in a real browser at 375 x 667, from the links in the emails: Ann leaves a
standing answer, places her priest and a red card by tapping and scores a red point from her
hand; then Bob places a red card in her kingdom, and Ann answers the scoring decision from the
link she is emailed."""
from __future__ import annotations

import re

from pbem.play import creation
from pbem.log import store
from pbem.games import RULES
from pbem.db.models import Game
from tests.e2e.conftest import assert_no_sideways_scroll, screenshot

LINK = re.compile(r"http://127\.0\.0\.1:\d+/turn/[A-Za-z0-9_.\-]+")
ANN, BOB = "ann@example.org", "bob@example.org"
PLAN = [  # (seat, action): what the players will tap, checked on the pure engine first
    (0, {"type": "standing", "decision": "commit", "answer": "none"}),
    (0, {"type": "leader", "colour": "red", "column": 0, "row": 0}),
    (0, {"type": "card", "colour": "red", "column": 0}),
    (0, {"type": "score", "colour": "red"}),
    (1, {"type": "card", "colour": "red", "column": 0}),
    (0, {"type": "score", "colour": "red"}),
]


def seed_for_the_plan() -> int:
    """The first seed whose hands let the plan be played, with a choice at every step."""
    rules = RULES["tigris_cards"]
    for seed in range(1, 500):
        state = rules.setup(2, seed)
        try:
            for seat, action in PLAN:
                assert rules.to_act(state) == [seat]
                assert action in rules.legal_actions(state, seat)
                state = rules.apply(state, seat, action)
        except (AssertionError, ValueError):
            continue
        return seed
    raise AssertionError("no seed fits the plan")


def links_to(smtp, address) -> list[str]:
    return [link for m in smtp.inbox.to(address) for link in LINK.findall(smtp.inbox.text(m))]


def tap(page, token: str) -> None:
    target = page.locator(f'[data-tap="{token}"]')
    assert target.count() == 1, f"{token} is drawn {target.count()} times"
    assert "tappable" in (target.get_attribute("class") or ""), f"{token} is not highlighted"
    target.click()


def confirm(page) -> None:
    assert page.locator("#confirm").is_visible()
    with page.expect_navigation():
        page.locator("#confirm-yes").click()


def press(page, action_json_part: str) -> None:
    """Press the button whose action contains the text, then confirm it."""
    button = page.locator(f"button[data-choice*='{action_json_part}']")
    assert button.count() == 1
    button.click()
    confirm(page)


def pile(game_id: int, seat: int) -> int:
    return len(store.state_of(Game.get_by_id(game_id))["piles"][seat])


def test_place_a_card_by_tapping_and_score_from_hand(live, smtp, phone):
    game, _ = creation.create_game("tigris_cards", [{"name": "Ann", "email": ANN},
                                                 {"name": "Bob", "email": BOB}],
                                seed=seed_for_the_plan())
    live.deliver()

    # Ann's turn, from her first email: the priest onto the first treasure, then a red card
    phone.goto(links_to(smtp, ANN)[-1])
    assert_no_sideways_scroll(phone)
    screenshot(phone, "tigris_cards-1-ann-turn")
    # a standing answer first: never commit cards to conflicts other players start
    phone.locator("details.tc-standing summary").click()
    tap(phone, "standing:commit:none")
    confirm(phone)
    assert store.state_of(Game.get_by_id(game.id))["prefs"][0]["commit"] == "none"
    tap(phone, "leader:red")
    assert "tappable" in phone.locator('[data-tap="slot:0-0"]').get_attribute("class")
    tap(phone, "slot:0-0")
    confirm(phone)
    assert_no_sideways_scroll(phone)
    tap(phone, "hand:red")
    assert "tappable" in phone.locator('[data-tap="col:0"]').get_attribute("class")
    tap(phone, "col:0")
    screenshot(phone, "tigris_cards-2-ann-places-a-card")
    confirm(phone)

    # her priest is in that kingdom: she scores a red point from her hand
    assert phone.locator("#actions h2").inner_text().startswith("Score a red point")
    screenshot(phone, "tigris_cards-3-ann-scores")
    assert_no_sideways_scroll(phone)
    press(phone, '"type":"score"')
    assert pile(game.id, 0) == 1
    assert phone.locator("#actions").count() == 0   # nothing left to do: the turn is over

    # Bob's turn, from his email: a red card in Ann's kingdom
    live.deliver()
    phone.goto(links_to(smtp, BOB)[-1])
    assert_no_sideways_scroll(phone)
    screenshot(phone, "tigris_cards-4-bob-turn")
    tap(phone, "hand:red")
    tap(phone, "col:0")
    confirm(phone)
    assert pile(game.id, 1) == 0 and store.rules_of(game).to_act(
        store.state_of(Game.get_by_id(game.id))) == [0]

    # the point is Ann's to take: she is emailed, and scores from that link
    live.deliver()
    mails = smtp.inbox.to(ANN)
    assert "Score a red point" in smtp.inbox.headline(mails[-1])
    phone.goto(links_to(smtp, ANN)[-1])
    assert_no_sideways_scroll(phone)
    screenshot(phone, "tigris_cards-5-ann-scores-on-bobs-turn")
    press(phone, '"type":"score"')
    assert pile(game.id, 0) == 2

    # and the turn goes back to Bob, who is emailed again
    live.deliver()
    assert len(links_to(smtp, BOB)) == 2
