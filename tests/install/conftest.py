"""Helpers for the install tests: a wheel built from a copy of the checkout, a fresh venv
outside it, and empty databases."""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from tests.conftest import PG_URL

ROOT = Path(__file__).resolve().parents[2]


def checkout_copy(destination: Path) -> Path:
    """The checkout's files as git sees them (tracked and new, not ignored): no stale build/."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, check=True, capture_output=True).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return destination


def build_wheel(workdir: Path) -> Path:
    source = checkout_copy(workdir / "source")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(workdir / "dist"), str(source)], check=True, capture_output=True)
    return next((workdir / "dist").glob("pbem-*.whl"))


def clean_environment(**settings) -> dict:
    """The environment of a process that knows nothing of the checkout."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PBEM_", "PYTHON", "VIRTUAL_ENV", "PYTEST"))}
    env.update(settings)
    return env


def guide_path(scratch: Path) -> str:
    """PATH for the deploy guide's commands: the scratch root's bin, then the folder of the
    Python the tests run on (the guide's `python3`, the one a server's apt installs: a system's
    own where .venv was made from it, which scripts/setup prefers), then the test's PATH."""
    base = Path(getattr(sys, "_base_executable", sys.executable)).parent
    return os.pathsep.join([f"{scratch}/usr/local/bin", str(base), os.environ["PATH"]])


def fresh_postgresql(suffix: str) -> str:
    """An empty PostgreSQL database of its own (dropped and made anew), named after PG_URL's."""
    from tests.bench import own_postgresql
    return own_postgresql(PG_URL, f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_{suffix}")


def database_params():
    return ["sqlite"] + (["postgresql"] if PG_URL else [])


def wait_for(url: str, process: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the server stopped: " + process.stdout.read().decode())
        try:
            requests.get(url, timeout=5)
            return
        except requests.RequestException:
            time.sleep(0.2)
    raise RuntimeError(f"nothing answered at {url} in {seconds} s")


@pytest.fixture(scope="session")
def installed(tmp_path_factory):
    """A venv outside the checkout with the wheel (and its [postgres] extra) installed: built
    once a test run, by the first worker that needs it (under a lock: the others wait for it
    and use the same one). Tests add nothing to it (the plugin test installs its games beside
    it, `pip install --target`)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent          # this run's directory, which its workers share
    workdir = base / "wheel"
    with open(base / "wheel.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)        # released when the file closes
        venv = workdir / "venv"
        if not (workdir / "ready").exists():    # a build cut short is made again from nothing
            shutil.rmtree(workdir, ignore_errors=True)
            workdir.mkdir()
            wheel = build_wheel(workdir)
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
                            f"{wheel}[postgres]"], check=True, capture_output=True,
                           env=clean_environment(), cwd=workdir)
            (workdir / "ready").touch()
    return venv
