"""Development: a local mail catcher (aiosmtpd) and the mail worker beside the web server,
so that a newcomer can create a game and follow its links with nothing else installed."""
from __future__ import annotations

import email
import email.policy
import re
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

from aiosmtpd.controller import Controller
from werkzeug.serving import run_simple

from ..db import database
from ..mail import mailer
from ..db.models import db

URL = re.compile(r"https?://\S+")


class Catcher:
    """An aiosmtpd handler that keeps every message as a .eml file and prints a line about it."""

    def __init__(self, folder: Path):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    async def handle_DATA(self, server, session, envelope):
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.folder / f"{stamp}-{time.monotonic_ns()}.eml"
        path.write_bytes(envelope.content)
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        body = message.get_body(preferencelist=("plain",))
        found = URL.findall(body.get_content()) if body else []
        print(f"\n[mail] to {', '.join(envelope.rcpt_tos)}: {message['Subject']}", flush=True)
        for url in found[:2]:
            print(f"       {url}", flush=True)
        return "250 Message accepted for delivery"


def start_catcher(folder: Path, port: int) -> Controller:
    controller = Controller(Catcher(folder), hostname="127.0.0.1", port=port)
    controller.start()
    return controller


def _mail_worker(app) -> None:
    with app.app_context():
        db.connect(reuse_if_open=True)
        mailer.worker(interval=1.0)


def _reachable(base: str, host: str) -> bool:
    """Whether links under `base` can reach a server listening on `host` from elsewhere."""
    name = urlsplit(base).hostname or ""
    return name not in ("localhost", "127.0.0.1", "::1") and (host in ("0.0.0.0", "::", name))


def run_development(app, port: int, smtp_port: int | None = None, host: str = "127.0.0.1") -> None:
    config = app.config
    if config["ENV"] != "development":
        raise SystemExit("pbem dev is for development: set PBEM_ENV=development")
    folder = Path(config.get("MAIL_CATCHER_DIR") or "instance/mail")
    config["MAIL_CATCHER_DIR"] = str(folder.resolve())
    with app.app_context():
        db.connect(reuse_if_open=True)
        database.upgrade()
        db.close()
    catcher = start_catcher(folder, smtp_port or config["MAIL_PORT"])
    threading.Thread(target=_mail_worker, args=(app,), daemon=True).start()
    base = config["BASE_URL"].rstrip("/")
    print(f"\npbem is running at {base}/  (create a game at {base}/new)\n"
          f"mail is caught at 127.0.0.1:{catcher.port} and listed at {base}/dev/mail\n", flush=True)
    if host not in ("127.0.0.1", "localhost") and not _reachable(base, host):
        print(f"note: links in the mail start with PBEM_BASE_URL={base}; a phone needs this "
              f"machine's name or network address there (make run HOST={host} sets it)\n",
              flush=True)
    try:
        # Flask's app.run() refuses to start inside a CLI command; werkzeug's server does not.
        run_simple(host, port, app, threaded=True)
    finally:
        catcher.stop()
