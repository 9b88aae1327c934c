"""`pbem check` and `/health`'s host checks: the settings, the database, SMTP, sign-ups, the
deploy files and the games, each a Finding; and the test mail."""
from __future__ import annotations

import smtplib
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

import peewee as pw

from .. import config as settings_module
from ..play import health
from ..mail import inbound
from ..db.database import parts_of
from ..db.models import db


@dataclass
class Finding:
    level: str          # "ok", "note" or "problem"
    text: str


def secret_finding(key: str | None) -> Finding:
    if not key:
        return Finding("problem", "PBEM_SECRET_KEY is not set: pbem will not start. Make one with "
                                  "python3 -c \"import secrets; print(secrets.token_urlsafe(48))\"")
    why = settings_module.secret_key_weakness(key)      # the app's own check, as it starts
    if why:
        return Finding("problem", f"PBEM_SECRET_KEY {why}: anyone who guesses it can forge turn "
                                  "links. Make a new one with python3 -c \"import secrets; "
                                  "print(secrets.token_urlsafe(48))\" (it invalidates every link)")
    return Finding("ok", f"the secret key is {len(key)} characters long")


def base_url_finding(url: str) -> Finding:
    parts = urlsplit(url or "")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return Finding("problem", f"PBEM_BASE_URL={url!r} is not an absolute http(s) address: "
                                  "the links in mails would not work")
    if parts.hostname in ("localhost", "127.0.0.1", "::1"):
        return Finding("problem", f"PBEM_BASE_URL={url} points at this machine: players' links "
                                  "would not reach it (set your public https address)")
    if parts.scheme != "https":
        return Finding("problem", f"PBEM_BASE_URL={url} is not https: turn links (credentials) "
                                  "would travel in clear")
    if parts.path not in ("", "/") or parts.query:
        return Finding("note", f"PBEM_BASE_URL={url} has a path: pbem must be served under it")
    return Finding("ok", f"links point at {url}")


def settings_findings(environ) -> list[Finding]:
    path = settings_module.settings_file(environ)
    if path is None:
        return [Finding("note", "no settings file (PBEM_CONFIG unset and no "
                                f"{settings_module.DEFAULT_FILE}): only the environment counts")]
    found = [Finding("ok", f"settings file {path}")]
    overridden = sorted(name for name in settings_module.read_settings_file(environ)
                        if name in environ)
    if overridden:
        found.append(Finding("note", "set in the environment, winning over the file: "
                                     + ", ".join(overridden)))
    return found


def database_findings(settings: dict) -> list[Finding]:
    from ..db.database import bind
    try:
        bind(settings["DATABASE_URL"], parts_of(settings))
        db.connect(reuse_if_open=True)
        db.obj.execute_sql("SELECT 1")
    except settings_module.SettingsError as exc:
        return [Finding("problem", str(exc))]
    except pw.DatabaseError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return [Finding("problem", f"the database cannot be reached: {first}")]
    try:
        kind = "SQLite" if isinstance(db.obj, pw.SqliteDatabase) else "PostgreSQL"
        found = [Finding("ok", f"the {kind} database answers")]
        report = health.report(settings, host_checks=False)    # deploy files: deploy_findings
        if report["migrations"]["current"]:
            found.append(Finding("ok", "the schema is up to date"))
        return found + [Finding(entry["severity"], entry["text"])
                        for entry in report["findings"]]
    finally:
        db.close()
        if hasattr(db.obj, "close_all"):
            db.obj.close_all()


def smtp_connection(settings: dict) -> smtplib.SMTP:
    """An SMTP connection as the mailer makes it (TLS, login), for checks and test mail."""
    host, port, timeout = settings["MAIL_SERVER"], settings["MAIL_PORT"], settings["MAIL_TIMEOUT"]
    if settings["MAIL_USE_SSL"]:
        server = smtplib.SMTP_SSL(host, port, timeout=timeout,
                                  context=ssl.create_default_context())
    else:
        server = smtplib.SMTP(host, port, timeout=timeout)
    try:
        if settings["MAIL_USE_TLS"]:
            server.starttls(context=ssl.create_default_context())
        if settings["MAIL_USERNAME"] and settings["MAIL_PASSWORD"]:
            server.login(settings["MAIL_USERNAME"], settings["MAIL_PASSWORD"])
    except BaseException:
        server.close()
        raise
    return server


def smtp_finding(settings: dict) -> Finding:
    where = f"{settings['MAIL_SERVER']}:{settings['MAIL_PORT']}"
    try:
        server = smtp_connection(settings)
        server.noop()
        server.quit()
    except smtplib.SMTPAuthenticationError:
        return Finding("problem", f"the mail server {where} refuses PBEM_MAIL_USERNAME/"
                                  "PBEM_MAIL_PASSWORD")
    except (OSError, smtplib.SMTPException) as exc:
        return Finding("problem", f"the mail server {where} cannot be reached: "
                                  f"{type(exc).__name__}: {exc}")
    return Finding("ok", f"the mail server {where} answers"
                         + (" and accepts the login" if settings["MAIL_USERNAME"] else ""))


def signup_finding(settings: dict) -> Finding:
    # PBEM_OPEN_SIGNUP: /new is open unless it says otherwise.
    raw = settings.get("OPEN_SIGNUP", True)
    is_open = settings_module.flag(raw)
    if is_open:
        return Finding("note", f"{settings['BASE_URL'].rstrip('/')}/new is open: anyone may create "
                               "games and have mail sent (PBEM_OPEN_SIGNUP=false closes it)")
    return Finding("ok", "/new is closed: games are created with pbem games create")


def deploy_findings(environ, gunicorn_conf=None, nginx_site=None) -> list[Finding]:
    """The installed gunicorn config, settings file and nginx site against this release's."""
    from . import deploy_files
    path = settings_module.settings_file(environ)
    try:
        text = path.read_text() if path is not None else ""
    except OSError:
        text = ""
    return deploy_files.findings(environ, path, text, Finding, gunicorn_conf, nginx_site)


def deploy_file_findings() -> list:
    """The installed deploy files as /health sees them (where the environment or the guide
    puts them): its problems and notes, as `pbem check` says them."""
    import os
    return [health.Finding(found.level, "deploy files", found.text)
            for found in deploy_findings(os.environ) if found.level != "ok"]


def check(environ, gunicorn_conf: str | None = None, nginx_site: str | None = None
          ) -> list[Finding]:
    """Every finding about these settings, in the order an operator would fix them."""
    try:
        settings = settings_module.from_environment(environ)
    except settings_module.SettingsError as exc:
        return [Finding("problem", str(exc))]
    found = settings_findings(environ)
    found += deploy_findings(environ, gunicorn_conf, nginx_site)
    if settings["ENV"] == "development":
        found.append(Finding("problem", "PBEM_ENV=development: never for a public server"))
    found += [secret_finding(settings["SECRET_KEY"]), base_url_finding(settings["BASE_URL"])]
    found += database_findings(settings)
    found += [smtp_finding(settings), signup_finding(settings)]
    found += inbound.reply_findings(settings, Finding)
    return found + games_findings()


def games_findings() -> list[Finding]:
    """The games pbem hosts, and each installed game or presenter that failed to load."""
    from .. import present
    from ..games import LEFT_OUT, RULES
    for name in RULES:
        present.presenter_for(name)         # loads a plugin's presenter, noting a failure
    return ([Finding("ok", f"games: {', '.join(sorted(RULES))}")]
            + [Finding("problem", why) for why in LEFT_OUT.values()]
            + [Finding("problem", why) for why in present.LEFT_OUT.values()])


def send_test_mail(settings: dict, address: str) -> None:
    """Send one mail now, straight through the SMTP server (not the queue); raises on failure."""
    from email.message import EmailMessage
    from email.utils import make_msgid
    message = EmailMessage()
    message["From"] = settings["MAIL_SENDER"]
    message["To"] = address
    message["Subject"] = "[pbem] test mail"
    message["Auto-Submitted"] = "auto-generated"      # RFC 3834, as on every mail pbem sends
    message["Message-ID"] = make_msgid("pbem.test",
                                       urlsplit(settings["BASE_URL"]).hostname or "localhost")
    message.set_content(f"This is a test mail from pbem at {settings['BASE_URL']}.\n"
                        "If you read it, pbem's mail settings work.\n")
    server = smtp_connection(settings)
    try:
        server.send_message(message)
    finally:
        try:
            server.quit()
        except (OSError, smtplib.SMTPException):
            pass
