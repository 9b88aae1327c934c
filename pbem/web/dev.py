"""Development only: the mail the local catcher received, so a newcomer can follow links."""
from __future__ import annotations

import email
import email.policy
from pathlib import Path

from flask import Blueprint, abort, current_app, render_template

bp = Blueprint("dev", __name__, url_prefix="/dev")


def _folder() -> Path | None:
    folder = current_app.config.get("MAIL_CATCHER_DIR")
    return Path(folder) if folder else None


def _read(path: Path):
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    body = message.get_body(preferencelist=("plain",))
    return {"id": path.stem, "to": message["To"], "subject": message["Subject"],
            "date": message["Date"], "text": body.get_content() if body else ""}


@bp.get("/mail")
def mailbox():
    folder = _folder()
    messages = []
    if folder and folder.is_dir():
        messages = [_read(p) for p in sorted(folder.glob("*.eml"), reverse=True)[:100]]
    return render_template("dev_mail.html", messages=messages, folder=folder)


@bp.get("/mail/<name>")
def message(name):
    folder = _folder()
    path = (folder / f"{name}.eml") if folder else None
    if path is None or not path.is_file() or path.parent != folder:
        abort(404)
    return render_template("dev_mail.html", messages=[_read(path)], folder=folder, single=True)
