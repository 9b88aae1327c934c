"""`make bench` keeps working: each bench script runs to its end with tiny numbers
(PBEM_BENCH_QUICK=1) and prints its figures. It was once broken for weeks unnoticed (a secret key
too short for the server to boot); this run fails CI instead. Times are not checked.

The benches that store games start from copies of this worker's migrated templates (as the
tests do: tests/conftest.py), not from empty databases they migrate (tests/bench/__init__.py)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from tests.conftest import PG_URL, TEMPLATES, worker_database
from tests.install.conftest import ROOT

# each script and a line it prints when it got to the end of a measurement
SCRIPTS = {
    "bench_pages": ["x bare", "assyria", "answered 304"],
    "bench_writes": ["inside the write transaction", "queries per POST", "POST / GET"]
                    + (["moves, PostgreSQL, in-process"] if PG_URL else []),
    "bench_server": ["action POST", "JSON API"] + (["PostgreSQL (in process)"] if PG_URL else []),
    "bench_tigris": ["games/s", "replay of a finished game"],
    "bench_tigris_cards": ["games/s", "replay of a finished 4-player game"],
    "bench_assyria": ["games/s", "replay of a finished game"],
    "bench_bots": ["hidden_duel 2p level 3 vs level 1"],
    "bench_storage": ["KB per 1,000 moves"] + (["after VACUUM FULL"] if PG_URL else []),
    "bench_scale": ["home page", "mail prune --older-than 90 at"]
                   + (["PostgreSQL pace pass"] if PG_URL else []),
}
# the scripts that store games: they are given the templates
ON_DATABASES = {"bench_pages", "bench_writes", "bench_server", "bench_storage", "bench_scale"}
# a guard against a bench that hangs, not a speed check: quick runs take 1-10 s on an idle
# machine and were seen to take over 30 s when seven test runs shared its two cores
TIMEOUT = 300


@pytest.mark.parametrize("script", sorted(SCRIPTS))
def test_each_bench_runs_quickly_to_its_end(script):
    env = {k: v for k, v in os.environ.items() if k != "PBEM_TEST_DATABASE_URL"}
    env["PBEM_BENCH_QUICK"] = "1"
    if PG_URL:                                  # bench_server measures PostgreSQL too
        env["PBEM_TEST_DATABASE_URL"] = worker_database(PG_URL)
    if script in ON_DATABASES:
        env["PBEM_BENCH_SQLITE_TEMPLATE"] = str(TEMPLATES.sqlite())
        if PG_URL:
            env["PBEM_BENCH_POSTGRESQL_TEMPLATE"] = TEMPLATES.postgresql(PG_URL)
            # no commit waits for the disk (the figures are not read): on a machine the other
            # tests share, each waited on their flushes, and the benches took up to twice as long
            env["PGOPTIONS"] = f"{os.environ.get('PGOPTIONS', '')} -c synchronous_commit=off"
    # a session of its own: a run that overstays is killed with the gunicorn it started
    run = subprocess.Popen([sys.executable, "-m", "tests.bench", script], cwd=ROOT, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           start_new_session=True)
    try:
        output, _ = run.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        output, _ = run.communicate()
        pytest.fail(f"{script} took over {TIMEOUT} s in quick mode:\n{output[-3000:]}")
    assert run.returncode == 0, output[-3000:]
    assert "error answers" not in output and "Traceback" not in output, output[-3000:]
    for line in SCRIPTS[script]:
        assert line in output, (line, output[-3000:])
