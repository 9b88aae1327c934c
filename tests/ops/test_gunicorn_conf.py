"""The shipped gunicorn config's hook: a worker's start-up objects leave the collector's sight."""
from __future__ import annotations

import gc
import runpy

from pbem import package


def test_post_worker_init_freezes_what_the_worker_built():
    config = runpy.run_path(str(package.folder("deploy") / "gunicorn.conf.py"))
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    try:
        config["post_worker_init"](None)
        assert gc.get_freeze_count() > 1000      # every module and object made so far
    finally:
        gc.unfreeze()
