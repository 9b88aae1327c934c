"""The mail fuzzer (`python -m tests.fuzz --mail N`, run by `make fuzz`) runs a few hostile mails
through `pbem mail receive` cleanly: no traceback, no row written, no answer to a forged mail;
and its tally counts a traceback, a write and an answer when one happens."""
from __future__ import annotations

import random

import pytest

from tests.fuzz import by_mail, mails


@pytest.mark.slow
def test_a_few_hostile_mails_through_pbem_mail_receive_are_clean(database_url):
    db_url = None if database_url.startswith("sqlite") else database_url
    report = by_mail.run_mail(12, db_url, seed=3, say=lambda line: None)
    assert report.mails == 12
    assert report.clean, "\n".join(report.lines())
    assert sum(report.outcomes.values()) == 12
    assert all(outcome.startswith("ignored") or outcome.startswith("refused")
               for outcome in report.outcomes), report.outcomes


def test_each_kind_of_hostile_mail_is_picked():
    target = by_mail.Target(live=["turns+" + "a" * 26 + "@pbem.fuzz"], spent=[],
                            players=["ann@fuzz.example.org"])
    rng = random.Random(0)
    kinds = {by_mail.pick(rng, target)[0] for _ in range(300)}
    assert set(mails.SHAPES) | {"forged From", "forged Authentication-Results",
                                "changed bytes"} == kinds


def test_the_tally_counts_a_write_and_a_traceback():
    class Done:
        returncode, stdout, stderr = 1, b"", b"Traceback (most recent call last):\n"
    report = by_mail.MailReport()
    by_mail._tally(report, "forged From", Done, (0, 0, 0, 0, 0), (1, 0, 1, 1, 0))
    assert (report.tracebacks, report.writes, report.answers) == (1, 1, 1)
    assert not report.clean
