"""How Higher card shows on pbem's pages (optional: without it the generic presenter lists the
actions as buttons). pbem finds it through the entry point group `pbem.presenters`."""
from __future__ import annotations

from pbem.present import Presenter, gettext as _


class HigherCardPresenter(Presenter):
    name = "tinygame"
    holdings_template = "games/tinygame/holdings.html"         # templates/holdings.html here
    holdings_text_template = "games/tinygame/holdings.txt"

    def label(self, action: dict, view: dict) -> str:
        return _("Play your %(card)s", card=action["card"])


presenter = HigherCardPresenter()
