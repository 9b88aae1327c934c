"""Development only: the mail the local catcher received, so a newcomer can follow links."""
from __future__ import annotations

import email
import email.policy
from pathlib import Path

from flask import Blueprint, abort, current_app, make_response, render_template

bp = Blueprint("dev", __name__, url_prefix="/dev")


def _folder() -> Path | None:
    folder = current_app.config.get("MAIL_CATCHER_DIR")
    return Path(folder) if folder else None


# The HTML part is the sender's markup: shown on a page of its own, in a sandbox (no script,
# an origin of its own), with only inline styles and data: images allowed, framed by /dev/mail.
MAIL_HTML_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
                    "frame-ancestors 'self'; form-action 'none'; "
                    "sandbox allow-popups allow-top-navigation-by-user-activation")


PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


def _message(path: Path):
    return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)


def _read(path: Path):
    message = _message(path)
    body = message.get_body(preferencelist=("plain",))
    text = body.get_content() if body else ""
    return {"id": path.stem, "to": message["To"], "subject": message["Subject"],
            "date": message["Date"], "text": text,
            "headline": next((line for line in text.splitlines() if line.strip()), ""),
            "has_html": message.get_body(preferencelist=("html",)) is not None}


def _path(name: str) -> Path:
    folder = _folder()
    path = (folder / f"{name}.eml") if folder else None
    if path is None or not path.is_file() or path.parent != folder:
        abort(404)
    return path


@bp.get("/mail")
def mailbox():
    folder = _folder()
    messages = []
    if folder and folder.is_dir():
        messages = [_read(p) for p in sorted(folder.glob("*.eml"), reverse=True)[:100]]
    return render_template("dev_mail.html", messages=messages, folder=folder)


@bp.get("/mail/<name>")
def message(name):
    response = make_response(render_template("dev_mail.html", messages=[_read(_path(name))],
                                             folder=_folder(), single=True))
    # the page frames the mail's HTML part, served by this server
    response.headers["Content-Security-Policy"] = PAGE_POLICY
    return response


@bp.get("/mail/<name>/html")
def message_html(name):
    """The mail's HTML part as a mail client shows it; its links open in the whole window."""
    part = _message(_path(name)).get_body(preferencelist=("html",))
    if part is None:
        abort(404)
    response = make_response('<base target="_top">' + part.get_content())
    response.headers["Content-Type"] = "text/html; charset=utf-8"
    response.headers["Content-Security-Policy"] = MAIL_HTML_POLICY
    return response
