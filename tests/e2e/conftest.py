"""Browser tests: the real app served on loopback, a real SMTP server catching its mail, and
Debian's Chromium driven by Playwright at a phone's viewport (375 x 667)."""
from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from pbem.mail import mailer
from pbem.db.models import db
from tests.conftest import free_port, make_app

CHROMIUM = os.environ.get("PBEM_CHROMIUM") or "/usr/bin/chromium"   # where the browser is
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-quic", "--no-first-run", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 375, "height": 667}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screenshots"
# Screenshots have a pixel per CSS pixel: the page as laid out 375 px wide. At the phone's own
# scale (2) they have four times the pixels, and taking them was the browser's largest work in
# these tests; PBEM_SCREENSHOT_SCALE=device takes them so.
SCREENSHOT_SCALE = "device" if os.environ.get("PBEM_SCREENSHOT_SCALE") == "device" else "css"


class LiveServer:
    """The app on a free loopback port, in a thread; mail is sent on demand with `deliver()`."""

    POLL = 0.02         # s: how often the serving loop looks whether it is to stop (werkzeug's
                        # 0.5 s default cost each test a quarter of a second, on average, to stop)

    def __init__(self, app, port: int):
        self.app, self.port = app, port
        self.url = f"http://127.0.0.1:{port}"
        self.server = make_server("127.0.0.1", self.port, app, threaded=True)
        self.thread = threading.Thread(target=self.server.serve_forever, args=(self.POLL,),
                                       daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()

    def deliver(self) -> dict:
        """Send the outbox through the real SMTP server now."""
        with self.app.app_context():
            db.connect(reuse_if_open=True)
            return mailer.send_due()


@pytest.fixture
def live(tmp_path, smtp):
    port = free_port()
    app = make_app(f"sqlite:///{tmp_path / 'e2e.db'}", smtp.port,
                   BASE_URL=f"http://127.0.0.1:{port}")
    server = LiveServer(app, port).start()
    ctx = app.app_context()
    ctx.push()
    db.connect(reuse_if_open=True)
    yield server
    ctx.pop()
    server.stop()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _new_phone(browser):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    return context.new_page()


def _replace_phone(holder, browser):
    try:
        holder["page"].context.close()
    except Exception:                       # the browser had closed it already
        pass
    holder["page"] = _new_phone(browser)
    return holder["page"]


@pytest.fixture(scope="session")
def _phone_page(browser):
    """The worker's one phone page, handed to one test after another by `phone` (a new page
    starts a renderer process of its own: about 0.3 s a test, more on a busy machine)."""
    holder = {"page": _new_phone(browser)}
    yield holder
    holder["page"].context.close()


@pytest.fixture
def phone(_phone_page, browser):
    """A phone-sized page (touch, 375 x 667) with no state from other tests: each test leaves
    its site with the session and local storage emptied, on a blank document (before the
    test's server stops), with no cookies (the language chosen with ?lang= is one) and the
    pointer back in the top left corner. A test that adds a listener to the page removes it;
    a page that no longer answers is replaced by a new one."""
    page = _phone_page["page"]
    if page.is_closed():
        page = _replace_phone(_phone_page, browser)
    yield page
    try:
        if page.url.startswith("http"):
            page.evaluate("() => { sessionStorage.clear(); localStorage.clear(); }")
        page.goto("about:blank")           # no timer or refresh of this test's pages runs on
        page.context.clear_cookies()
        page.mouse.move(0, 0)
    except Exception:                       # the test left it crashed or closed
        _replace_phone(_phone_page, browser)


def screenshot(page, name: str, full_page: bool = True) -> Path:
    """Save a screenshot of the whole page (or of what the phone shows now) with the test
    results, at SCREENSHOT_SCALE."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page, scale=SCREENSHOT_SCALE)
    return path


def assert_no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide at a {PHONE['width']}px viewport"
