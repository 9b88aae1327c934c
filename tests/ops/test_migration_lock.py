"""Two hosts starting together: two `pbem db upgrade` on an empty database,
started at once, both exit 0 (the migrations run once, under a lock), on PostgreSQL (an
advisory lock) and SQLite (a lock file beside the database)."""
from __future__ import annotations

import subprocess

import pytest

from tests.conftest import PG_URL
from tests.ops.test_reconnect import ROOT, environment, pbem_command


def empty_databases(tmp_path):
    yield f"sqlite:///{tmp_path / 'pbem.db'}"
    if PG_URL:
        from tests.install.conftest import fresh_postgresql
        yield fresh_postgresql("lock")


@pytest.mark.slow
@pytest.mark.parametrize("trial", range(3))
def test_two_upgrades_started_together_on_an_empty_database_both_succeed(tmp_path, trial):
    for url in empty_databases(tmp_path):
        env = environment(url, 25)
        upgrades = [subprocess.Popen(pbem_command() + ["db", "upgrade"], cwd=ROOT, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                    for _ in range(2)]
        outputs = [(u.wait(timeout=300), u.stdout.read()) for u in upgrades]
        assert [code for code, _ in outputs] == [0, 0], outputs
        said = sorted(text.strip().splitlines()[-1] for _, text in outputs)
        assert said[0].startswith("applied: 001_initial") and said[1] == "the database is up to date", said
