"""A newcomer's first game, in Chromium at phone size: the home page's button leads straight to
their turn; each move lands on "Your move is in", which looks again while the computer thinks
(by itself, every 4 s: waited for once; later the test reloads it as soon as the computer has
answered) and offers "Play on" when it has answered; no mail is opened on the way, and the
game's end says who won, why it ended and how it was scored."""
from __future__ import annotations

import random
import threading
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from pbem.db.models import Game, db
from pbem.log import store
from pbem.mail import mailer
from pbem.play import computers
from tests.conftest import a_move, play_at_random
from tests.e2e.conftest import assert_no_sideways_scroll, screenshot

pytestmark = pytest.mark.e2e

class Worker:
    """What `pbem worker` does for this test: the computer's pass, then the mail, every
    half second (a few search iterations a decision: the test is about the pages)."""

    def __init__(self, app):
        self.app, self.stop = app, threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        with self.app.app_context():
            while not self.stop.wait(0.5):
                db.connect(reuse_if_open=True)
                computers.run_pass(iterations=3)
                mailer.send_due()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(10)

def answered_in_the_store(email: str, timeout: float = 60) -> None:
    """Wait until the computer has answered: the seat of `email` is to act again."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game = Game.get()                       # the one game: this test's
        seat = game.seats.where(store.Seat.email == email).get().index
        if seat in store.rules_of(game).to_act(store.state_of(game)):
            return
        time.sleep(0.1)
    raise AssertionError(f"the computer did not answer in {timeout} s")


def make_a_move(page, shots: set):
    """One move as a player makes it with the script on: tap what is highlighted (or a
    button) until the confirm bar asks, then confirm. `shots`: the names of the screenshots
    taken so far (each is taken once: another of the same name would only replace it)."""
    for _tap in range(6):
        if page.is_visible("#confirm"):
            break
        tappable = page.locator("[data-tap].tappable")
        if tappable.count():
            tappable.first.dispatch_event("click")
        else:
            page.locator("#actions button").first.click()
    assert page.is_visible("#confirm"), "no move could be chosen"
    if page.locator("svg g.hex.chosen").count():
        # a chosen hex is framed by its own hexagon: no box around the group, no stroke on
        # the hut and the coordinates inside
        frame = page.eval_on_selector("svg g.hex.chosen", "g => [getComputedStyle(g).outlineStyle,"
                                      " getComputedStyle(g).stroke,"
                                      " getComputedStyle(g.querySelector('.cell')).stroke]")
        assert frame[0] == "none" and frame[1] == "none" and frame[2] != "none", frame
        if "solo-assyria-hex-chosen" not in shots:
            screenshot(page, "solo-assyria-hex-chosen")
            shots.add("solo-assyria-hex-chosen")
    with page.expect_navigation():
        page.click("#confirm-yes")

def test_a_solo_game_from_the_home_page_without_a_mail(live, smtp, phone):
    phone.goto(live.url + "/")
    phone.select_option("form.solo select[name=rules]", "assyria")
    phone.fill("form.solo input[name=email]", "ann@example.org")
    with phone.expect_navigation():
        phone.click("form.solo button[type=submit]")
    # the player's turn, or (when the computer opens) their page waiting for its answer
    assert "/turn/" in phone.url
    assert phone.is_visible("#actions") or \
        phone.locator('[data-now="computer-thinking"]').count()
    assert "Your move is in" not in phone.content()
    assert_no_sideways_scroll(phone)
    screenshot(phone, "solo-1-start")
    answered, shots, looked_again = 0, set(), False
    with Worker(live.app):
        for _step in range(30):
            if answered >= 3:
                break
            if phone.locator("#play-on-form").count():
                answered += 1
                if answered == 1:
                    assert "The computer has answered" in phone.content()
                    assert "Waiting for" not in phone.inner_text("p.who")
                    screenshot(phone, "solo-2-move-is-in-computer-answered")
                with phone.expect_navigation():
                    phone.click("#play-on-form button")
                continue
            if phone.locator('[data-now="computer-thinking"]').count():
                if not looked_again:
                    phone.wait_for_selector("#play-on-form, #actions", timeout=60_000)
                    looked_again = True           # the page looked again by itself
                else:             # it would again within 4 s: reloaded once the computer answered
                    answered_in_the_store("ann@example.org")
                    try:
                        phone.reload()
                    except PlaywrightError:       # its own refresh came first
                        phone.wait_for_load_state()
                continue
            make_a_move(phone, shots)
    assert answered >= 3, "the computer's answers never brought the turn back"
    game = play_at_random(Game.get(), 5_000, random.Random(1), pick=a_move)
    assert store.get_game(game.id).status == "over"
    phone.reload()
    assert "The game is over" in phone.inner_text("#link-now")
    with phone.expect_navigation():
        phone.click("#link-now a")                    # "See the game as it stands"
    text = phone.inner_text("main")
    assert "Final ranking" in text and "Why it ended" in text and "How it is scored" in text
    assert "The third flood came" in text
    screenshot(phone, "solo-3-end")
