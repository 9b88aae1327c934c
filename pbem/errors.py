"""One error type for every refusal: a status (as HTTP says it) and a reason in the reader's
language. Each edge has one handler for it: the web renders the site's error page or, under
/api, `{"error": reason}`; the command line prints the reason; a mail answer quotes it.

The layers raise their own kinds (IllegalAction 422, StaleSeq 409, LinkError 403/410, the
limiter's Refused 429, ...), all of them Refusals, so an edge never needs to know them all and
never catches more than it means to (a plain ValueError from a bug stays a 500).
"""
from __future__ import annotations


class Refusal(Exception):
    """A request refused: `str(refusal)` is the reason (already in the reader's language),
    `status` the answer's HTTP status."""

    status = 400

    def __init__(self, reason: str = "", status: int | None = None):
        super().__init__(reason)
        if status is not None:
            self.status = status
