"""`make bench`: every benchmark script in this folder, one after another."""
import importlib
import sys
import time

SCRIPTS = ["bench_pages", "bench_writes", "bench_server", "bench_tigris", "bench_tigris_cards", "bench_assyria",
           "bench_bots", "bench_storage", "bench_scale"]


def main() -> None:
    for name in sys.argv[1:] or SCRIPTS:
        try:
            module = importlib.import_module(f"tests.bench.{name}")
        except ModuleNotFoundError as exc:
            print(f"== {name}: not available ({exc})")
            continue
        print(f"== {name}", flush=True)
        started = time.monotonic()
        module.main()
        print(f"   ({time.monotonic() - started:.1f} s)\n", flush=True)


main()
