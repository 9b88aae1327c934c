"""`python -m tests.fuzz [--requests N] [--database URL] [--seed S]`: see tests/fuzz/__init__.py."""
from __future__ import annotations

import argparse
import os
import sys

from tests.fuzz import run


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--requests", type=int, default=10_000, help="how many (default 10000)")
    parser.add_argument("--database", default=os.environ.get("PBEM_FUZZ_DATABASE_URL"),
                        help="a PostgreSQL URL whose tables may be dropped (default: a "
                             "temporary SQLite file); or PBEM_FUZZ_DATABASE_URL")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    args = parser.parse_args()
    if args.requests < 1:
        parser.error("--requests must be at least 1")
    where = args.database.rsplit("@", 1)[-1] if args.database else "SQLite"
    print(f"fuzzing with {args.requests} requests (seed {args.seed}, {where})", flush=True)
    report = run(args.requests, args.database, seed=args.seed, workers=args.workers,
                 say=lambda line: print(line, flush=True))
    print("\n".join(report.lines()))
    print("clean" if report.clean else "PROBLEMS FOUND")
    return 0 if report.clean else 1


if __name__ == "__main__":
    sys.exit(main())
