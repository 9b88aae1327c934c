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


class LiveServer:
    """The app on a free loopback port, in a thread; mail is sent on demand with `deliver()`."""

    def __init__(self, app, port: int):
        self.app, self.port = app, port
        self.url = f"http://127.0.0.1:{port}"
        self.server = make_server("127.0.0.1", self.port, app, threaded=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

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


@pytest.fixture
def phone(browser):
    """A new phone-sized page (touch, 375 x 667) with no state from other tests."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    page = context.new_page()
    yield page
    context.close()


def screenshot(page, name: str) -> Path:
    """Save a full-page screenshot with the test results."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def assert_no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide at a {PHONE['width']}px viewport"
