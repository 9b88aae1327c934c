"""Start and stop a real gunicorn serving the app, for tests and benchmarks."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]


class Gunicorn:
    def __init__(self, port: int, env: dict, workers: int = 4,
                 app: str = "tests.server.duel_wsgi:app"):
        self.port, self.env, self.workers, self.app = port, env, workers, app
        self.process = None
        self.url = f"http://127.0.0.1:{port}"

    def __enter__(self):
        env = dict(os.environ, **self.env)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-w", str(self.workers), "-b",
             f"127.0.0.1:{self.port}", "--log-level", "warning", self.app],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("gunicorn stopped: " + self.process.stdout.read().decode())
            try:
                requests.get(self.url + "/", timeout=5)
                return self
            except requests.RequestException:   # not listening yet, or a worker still booting
                time.sleep(0.1)
        raise RuntimeError("gunicorn did not start in 30 s")

    def __exit__(self, *exc):
        self.process.terminate()
        try:
            self.output = self.process.communicate(timeout=20)[0].decode()
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.output = self.process.communicate()[0].decode()
