"""Start and stop a real gunicorn serving the app, for tests and benchmarks."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]


class Gunicorn:
    def __init__(self, port: int, env: dict, workers: int = 4,
                 app: str = "tests.support.duel_wsgi:app", config: str | None = None):
        """`config`: a gunicorn settings file (deploy/gunicorn.conf.py) to run with, its
        logging included; the command line still sets the port, workers and app."""
        self.port, self.env, self.workers, self.app = port, env, workers, app
        self.config = config
        self.process = None
        self.url = f"http://127.0.0.1:{port}"

    def __enter__(self):
        env = dict(os.environ, **self.env)
        settings = ["-c", self.config] if self.config else ["--log-level", "warning"]
        # a file, not a pipe: a long run's log (access lines, tracebacks) never blocks gunicorn
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", *settings, "-w", str(self.workers), "-b",
             f"127.0.0.1:{self.port}", self.app],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("gunicorn stopped: " + self._read_log())
            try:
                requests.get(self.url + "/", timeout=5)
                return self
            except requests.RequestException:   # not listening yet, or a worker still booting
                time.sleep(0.1)
        self.__exit__()
        raise RuntimeError("gunicorn did not start in 30 s")

    def __exit__(self, *exc):
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.output = self._read_log()
        self.log.close()

    def _read_log(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")
