"""A few hundred of `make fuzz`'s hostile requests at a real gunicorn, on SQLite and
PostgreSQL: no 5xx, no refused request changes the log, no mail is stuck, every game verifies."""
from __future__ import annotations

import pytest

from tests import fuzz, mail_kinds

REQUESTS = 300


@pytest.mark.slow
def test_hostile_requests_get_no_5xx_and_refused_ones_write_nothing(database_url):
    # the test's own migrated database (the tests' template); what SpamAssassin thinks of the
    # mails is the same whatever the database: scored on SQLite
    on_sqlite = database_url.startswith("sqlite")
    report = fuzz.run(REQUESTS, database_url, seed=9, say=lambda line: None, migrated=True,
                      score_mail=on_sqlite)
    problems = "\n".join(report.lines())
    assert report.requests >= REQUESTS
    assert report.server_errors == 0, problems
    assert report.refused_writes == 0, problems
    assert report.verify_ok and report.mails_stuck == 0, problems
    assert not report.spam_highest or report.spam_highest[0] <= fuzz.MAX_SPAM, problems
    assert report.spam_scored or not on_sqlite or mail_kinds.SPAMASSASSIN is None, problems
    assert report.statuses[200] and report.statuses[422] and report.statuses[400], problems
    crafted = [kind for kind in report.kinds if kind.startswith("crafted_body")]
    assert crafted, problems
    assert not any(kind.startswith("crafted") for kind in report.slow), problems
