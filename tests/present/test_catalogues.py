"""Pages (Flask-Babel) and engines (gettext) read the same merged catalogues the same way."""
from __future__ import annotations

from babel.messages.pofile import read_po
from flask_babel import gettext

from pbem.games.base import PACKAGE, TRANSLATION_DIRECTORIES, _, speaking


def test_pages_and_engines_translate_every_message_alike(app):
    msgids = set()
    for folder in TRANSLATION_DIRECTORIES:
        path = PACKAGE / folder / "hu" / "LC_MESSAGES" / "messages.po"
        with path.open("rb") as handle:
            msgids |= {m.id for m in read_po(handle) if m.id and isinstance(m.id, str)}
    assert len(msgids) > 100
    with app.test_request_context("/?lang=hu"), speaking("hu"):
        differ = [m for m in sorted(msgids) if gettext(m) != _(m)]
    assert differ == []
