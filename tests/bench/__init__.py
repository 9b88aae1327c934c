"""Benchmarks: `make bench` runs them all (tests/bench/__main__.py). With PBEM_BENCH_QUICK=1 each
runs with tiny numbers and prints the same lines: tests/install/test_bench.py does that, so a
broken bench fails CI instead of waiting for the next person who runs it."""
from __future__ import annotations

import os

QUICK = os.environ.get("PBEM_BENCH_QUICK") == "1"


def sized(full, quick):
    """`full` for `make bench`; `quick` for the smoke run (PBEM_BENCH_QUICK=1)."""
    return quick if QUICK else full
