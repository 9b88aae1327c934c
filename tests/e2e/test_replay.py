"""The replay viewer in a real browser at 375 x 667, from the links in the emails: stepping
through a finished game (buttons, slider, jump, keys, autoplay, and without JavaScript), and a
running game's replay showing a player none of the other hands."""
from __future__ import annotations

import random
import re
import time

from pbem.play import creation
from pbem.log import store
from tests.e2e.conftest import PHONE, assert_no_sideways_scroll, screenshot
from tests.conftest import play_at_random

REPLAY = re.compile(r"http://127\.0\.0\.1:\d+/(?:replay/[A-Za-z0-9_.\-]+|games/\d+/replay)")
PAUSED = 1.6        # s that a paused autoplay is watched: longer than its step (replay.js, 1.2 s)


def players(prefix):
    return [{"name": name, "email": f"{prefix}-{name.lower()}@example.org"}
            for name in ("Ann", "Bob")]




def replay_links(smtp, address):
    return [m for msg in smtp.inbox.to(address) for m in REPLAY.findall(smtp.inbox.text(msg))]


def step_of(phone) -> int:
    return int(phone.locator("#replay").get_attribute("data-step"))


def at_step(phone, step: int) -> None:
    """Wait until the viewer shows `step` (swapped in by replay.js, no page load)."""
    phone.wait_for_function("n => document.getElementById('replay').dataset.step == n", arg=step)


def test_stepping_through_a_finished_game(live, smtp, phone, browser):
    game, _ = creation.create_game("assyria", players("over"), seed=6)
    game = play_at_random(game, 2000, random.Random(6))
    assert game.status == "over"
    live.deliver()
    over = [m for m in smtp.inbox.to("over-ann@example.org") if "over" in smtp.inbox.headline(m)]
    link = REPLAY.findall(smtp.inbox.text(over[-1]))[-1]
    assert link.endswith(f"/games/{game.id}/replay")

    phone.goto(link)
    assert step_of(phone) == 0 and "you see everything" in phone.content()
    assert phone.locator("section.holdings").count() == 2           # every player's holdings
    assert_no_sideways_scroll(phone)
    screenshot(phone, "replay-finished-start")
    # every step is swapped in: the page is never loaded again (the marker survives)
    phone.wait_for_load_state("load")                   # replay.js has run
    phone.evaluate("window.stillTheSamePage = true")
    phone.click("#replay-next")
    at_step(phone, 1)
    phone.wait_for_url(re.compile(r"step=1$"))
    first_line = phone.locator("#step-text").inner_text()
    assert first_line
    phone.click("#replay-next")
    at_step(phone, 2)
    assert phone.locator("#step-text").inner_text() != first_line
    phone.click("#replay-prev")
    at_step(phone, 1)
    # the board stays where it was on the screen: no jump to the top
    phone.evaluate("document.querySelector('#replay').scrollIntoView()")
    scrolled = phone.evaluate("window.scrollY")
    assert scrolled > 100
    phone.click("#replay-next")
    at_step(phone, 2)
    assert phone.evaluate("window.scrollY") == scrolled
    assert phone.locator("section.board svg.asy-map").is_visible()
    # the slider jumps when let go (its Go button is only for pages without JavaScript)
    assert not phone.locator("#replay-go").is_visible()
    phone.eval_on_selector("#replay-step", "el => { el.value = 40; "
                           "el.dispatchEvent(new Event('change')); }")
    at_step(phone, 40)
    phone.fill("#replay-number", "120")
    phone.press("#replay-number", "Enter")
    at_step(phone, 120)
    phone.wait_for_url(re.compile(r"step=120$"))
    phone.locator("ol.moves li[value='118'] a").click()
    at_step(phone, 118)
    phone.locator("body").click(position={"x": 5, "y": 5})
    phone.keyboard.press("ArrowRight")
    at_step(phone, 119)
    # autoplay steps by itself until paused
    phone.click("#replay-play")
    phone.wait_for_url(re.compile(r"step=120&play=1$"))
    phone.wait_for_url(re.compile(r"step=121&play=1$"), timeout=5000)
    phone.click("#replay-play")                                      # pause
    phone.wait_for_url(re.compile(r"step=12\d$"))
    paused, since = step_of(phone), time.monotonic()
    # while it stays paused (a running autoplay would step on meanwhile, though another page
    # is at work): without JavaScript the same viewer works through links and forms
    without_javascript(browser, link)
    phone.wait_for_timeout(max(0.0, PAUSED - (time.monotonic() - since)) * 1000)
    assert step_of(phone) == paused
    phone.click("#replay-last")
    at_step(phone, game.seq)
    assert "Final ranking" in phone.content() and phone.locator("figure.chart svg").count() == 1
    assert phone.evaluate("window.stillTheSamePage") is True
    assert_no_sideways_scroll(phone)
    screenshot(phone, "replay-finished-end")


def without_javascript(browser, link):
    """The finished game's replay at `link` stepped through by links and forms."""
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    plain = context.new_page()
    plain.goto(link + "?step=5")
    plain.click("#replay-next")
    assert step_of(plain) == 6
    assert plain.locator("#replay-go").is_visible()
    plain.fill("#replay-number", "9")
    plain.click(".replay-jump button")
    assert step_of(plain) == 9
    context.close()


def holdings_text(page) -> list[str]:
    """Each holdings panel's words, without its heading (which names the player)."""
    texts = page.eval_on_selector_all("section.holdings", """sections => sections.map(s => {
        const copy = s.cloneNode(true); copy.querySelectorAll(":scope > h2").forEach(h => h.remove());
        return copy.textContent; })""")
    return [" ".join(t.split()) for t in texts]


def headings(page) -> list[str]:
    return page.locator("section.holdings > h2").all_inner_texts()


def test_a_running_games_replay_shows_a_player_no_other_hand(live, smtp, phone, browser):
    game, _ = creation.create_game("tigris_cards", players("run"), seed=8)
    game = play_at_random(game, 40, random.Random(8))
    assert game.status == "running"
    live.deliver()
    ann_link = replay_links(smtp, "run-ann@example.org")[-1]
    bob_link = replay_links(smtp, "run-bob@example.org")[-1]
    other = browser.new_context(viewport=PHONE)
    bob = other.new_page()
    checked = 0
    for step in (3, 17, game.seq):
        phone.goto(f"{ann_link}?step={step}")
        assert "what you, Ann, saw" in phone.content()
        mine = holdings_text(phone)
        assert len(mine) == 1 and headings(phone) == ["Holdings of Ann"]
        bob.goto(f"{bob_link}?step={step}")
        theirs = holdings_text(bob)
        assert len(theirs) == 1 and headings(bob) == ["Holdings of Bob"]
        hand = theirs[0]
        text = " ".join(phone.locator("main").text_content().split())
        if hand != mine[0]:
            assert hand not in text, f"Bob's holdings show on Ann's replay at move {step}"
            checked += 1
        assert_no_sideways_scroll(phone)
    assert checked >= 2
    screenshot(phone, "replay-running-ann")
    other.close()
