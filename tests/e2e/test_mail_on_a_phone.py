"""Every kind of mail, as a phone shows its HTML part (375 px): nothing wider than the screen,
links included (the sign-up confirmation's long link wraps), with a production base URL."""
from __future__ import annotations

from tests import mail_kinds
from tests.e2e.conftest import PHONE, screenshot
from tests.conftest import on_sqlite

database_url = on_sqlite     # how mails look, not storage: SQLite alone


def test_every_kind_of_mail_fits_a_phone_and_its_links_wrap(app_with, smtp, phone):
    app = app_with(smtp.port, SIGNUP_CONFIRM=True, BASE_URL="https://pbem.example.org")
    mails = mail_kinds.every_kind(app.test_client(), smtp)
    shown = set()
    for message in mails:
        kind = mail_kinds.kind_of(message)
        if kind in shown and kind not in ("turn", "over"):
            continue
        shown.add(kind)
        phone.set_content(message.get_body(preferencelist=("html",)).get_content())
        width = phone.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            screenshot(phone, f"mail-{kind}-too-wide")
        assert width <= PHONE["width"], f"the {kind} mail is {width}px wide"
    assert shown >= mail_kinds.KINDS
