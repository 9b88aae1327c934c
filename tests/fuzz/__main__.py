"""`python -m tests.fuzz [--requests N] [--database URL] [--seed S]`: see tests/fuzz/__init__.py;
`python -m tests.fuzz --mail N`: N hostile mails through `pbem mail receive` (tests/fuzz/by_mail.py)."""
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
    parser.add_argument("--mail", type=int, metavar="N",
                        help="instead: N hostile mails through `pbem mail receive`")
    args = parser.parse_args()
    where = args.database.rsplit("@", 1)[-1] if args.database else "SQLite"
    if args.mail is not None:
        if args.mail < 1:
            parser.error("--mail must be at least 1")
        from tests.fuzz.by_mail import run_mail
        print(f"fuzzing with {args.mail} mails (seed {args.seed}, {where})", flush=True)
        mail_report = run_mail(args.mail, args.database, seed=args.seed,
                               say=lambda line: print(line, flush=True))
        print("\n".join(mail_report.lines()))
        print("clean" if mail_report.clean else "PROBLEMS FOUND")
        return 0 if mail_report.clean else 1
    if args.requests < 1:
        parser.error("--requests must be at least 1")
    print(f"fuzzing with {args.requests} requests (seed {args.seed}, {where})", flush=True)
    report = run(args.requests, args.database, seed=args.seed, workers=args.workers,
                 say=lambda line: print(line, flush=True))
    print("\n".join(report.lines()))
    print("clean" if report.clean else "PROBLEMS FOUND")
    return 0 if report.clean else 1


if __name__ == "__main__":
    sys.exit(main())
