"""A player's home in a real browser at a phone's size: opened from a mail, it shows which of
three running games wait; one is played from there; the player reads their own tiles in a game
where it is not their turn, and a message posted there reaches the next player's turn mail."""
from __future__ import annotations

import re

from pbem.play import creation
from pbem.log import store
from tests.e2e.conftest import assert_no_sideways_scroll, screenshot

ANN, BOB = "home-ann@example.org", "home-bob@example.org"
HOME = re.compile(r"http://127\.0\.0\.1:\d+/me/[A-Za-z0-9_.\-]+")


def _players(*order):
    emails = {"Ann": ANN, "Bob": BOB}
    return [{"name": name, "email": emails[name]} for name in order]


def test_three_games_from_the_home_page(live, smtp, phone):
    first, _ = creation.create_game("tigris", _players("Ann", "Bob"), seed=21)
    second, _ = creation.create_game("assyria", _players("Bob", "Ann"), seed=22)
    third, _ = creation.create_game("tigris", _players("Bob", "Ann"), seed=23)
    live.deliver()
    waits = {g.id for g in (first, second, third)
             if 0 + (g.seats.where(store.Seat.email == ANN).get().index)
             in store.rules_of(g).to_act(store.state_of(g))}
    assert first.id in waits and third.id not in waits

    home = [link for m in smtp.inbox.to(ANN) for link in HOME.findall(smtp.inbox.text(m))][-1]
    phone.goto(home)
    waiting = {int(x) for x in phone.locator("#waiting li[data-game]").evaluate_all(
        "items => items.map(i => i.dataset.game)")}
    assert waiting == waits
    assert_no_sideways_scroll(phone)
    screenshot(phone, "home-1-three-games")

    # her own tiles in a game where Bob is to play
    with phone.expect_navigation():
        phone.locator(f'li[data-game="{third.id}"] a.home-title').click()
    holdings = phone.locator("section.holdings").inner_text()
    hand = store.rules_of(third).view(store.state_of(third), 1)["hand"]
    assert "Tiles behind the screen" in holdings
    assert all(str(n) in holdings for n in hand.values() if n)
    assert "Waiting for: Bob" in phone.locator(".who").inner_text()
    screenshot(phone, "home-2-own-tiles")

    # a message from the first game's page, then her move from "Play now"
    phone.goto(home)
    phone.locator(f'li[data-game="{first.id}"] a.home-title').click()
    phone.fill("#talk-text", "Greetings from the home page")
    phone.locator(".talk-form button[type=submit]").click()
    phone.wait_for_url(re.compile(r"#talk$"))
    assert "Greetings from the home page" in phone.locator("#talk").inner_text()
    phone.click("#play-now")
    phone.wait_for_url(re.compile(r"/turn/"))
    assert phone.locator("section.actions").count() == 1
    seq = store.get_game(first.id).seq
    token = phone.url.rsplit("/", 1)[1].split("?")[0]
    pass_turn = {"type": "pass"}
    answer = phone.request.post(f"{live.url}/api/turn/{token}", data={"seq": seq, "action": pass_turn})
    assert answer.status == 200, answer.text()
    assert store.get_game(first.id).seq > seq

    live.deliver()
    bob_turn = [m for m in smtp.inbox.to(BOB) if first.title.split(":")[0] in m["Subject"]
                or "Your turn" in m["Subject"]][-1]
    text = smtp.inbox.text(bob_turn)
    assert "Ann: Greetings from the home page" in text
