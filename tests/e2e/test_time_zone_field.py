"""The home page's time-zone field in a real browser at a phone's size: while none is chosen the
browser's own zone is filled in (pbem/static/home.js, allowed by the page's CSP: no error in the
console), saving it makes the next turn mail give its deadline there too; without JavaScript the
field stays empty and the form still saves."""
from __future__ import annotations

import datetime as dt
import re
import zoneinfo

from pbem.db.models import PlayerSettings, Seat
from pbem.play import creation
from tests.e2e.conftest import PHONE, assert_no_sideways_scroll, screenshot

ANN, BOB = "zone-ann@example.org", "zone-bob@example.org"
HOME = re.compile(r"http://127\.0\.0\.1:\d+/me/[A-Za-z0-9_.\-]+")
ZONE = "Europe/Budapest"


def home_link(smtp) -> str:
    return [link for m in smtp.inbox.to(ANN) for link in HOME.findall(smtp.inbox.text(m))][-1]


def test_the_browsers_zone_is_offered_and_saved(live, smtp, browser):
    creation.create_game("tigris", [{"name": "Ann", "email": ANN}, {"name": "Bob", "email": BOB}],
                        seed=1)
    live.deliver()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  timezone_id=ZONE)
    page = context.new_page()
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(home_link(smtp))
    field = page.locator("#time-zone")
    assert field.input_value() == ZONE
    assert_no_sideways_scroll(page)
    screenshot(page, "home-time-zone")
    field.locator("xpath=ancestor::form").locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"saved=1"))
    assert errors == []
    context.close()
    assert PlayerSettings.get(PlayerSettings.email == ANN).time_zone == ZONE

    game, _ = creation.create_game("tigris", [{"name": "Ann", "email": ANN},
                                           {"name": "Bob", "email": BOB}], seed=2,
                                  pace={"days": 2, "on_timeout": "wait", "drop_after": 3})
    live.deliver()
    deadline = Seat.get(Seat.game == game.id, Seat.index == 0).deadline
    there = (deadline.replace(tzinfo=dt.timezone.utc).astimezone(zoneinfo.ZoneInfo(ZONE)))
    [mail] = [m for m in smtp.inbox.to(ANN) if "Please move by" in smtp.inbox.text(m)]
    text = smtp.inbox.text(mail)
    assert f"In your time zone ({ZONE}):" in text and f"{there:%-I}:{there:%M}" in text, text


def test_without_javascript_the_field_stays_empty_and_saves(live, smtp, browser):
    creation.create_game("tigris", [{"name": "Ann", "email": ANN}, {"name": "Bob", "email": BOB}],
                        seed=1)
    live.deliver()
    context = browser.new_context(viewport=PHONE, java_script_enabled=False, timezone_id=ZONE)
    page = context.new_page()
    page.goto(home_link(smtp))
    field = page.locator("#time-zone")
    assert field.input_value() == ""
    field.fill("America/Sao_Paulo")
    field.locator("xpath=ancestor::form").locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"saved=1"))
    assert page.locator("#time-zone").input_value() == "America/Sao_Paulo"
    context.close()
    assert PlayerSettings.get(PlayerSettings.email == ANN).time_zone == "America/Sao_Paulo"
