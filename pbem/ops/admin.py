"""What an operator does to a running pbem: check the settings, look after the mail queue,
reissue a host link, back up and restore an SQLite database. The `pbem` commands call these."""
from __future__ import annotations

import datetime as dt
import re
import smtplib
import sqlite3
import ssl
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import peewee as pw
from flask import current_app

from .. import config as settings_module
from ..play import announce, health, links, outbox
from ..mail import compose, inbound
from ..log import store
from ..db.database import parts_of, write_transaction
from ..db.models import MODELS, Game, InboundMail, Link, Outbox, ReplyAddress, db, utcnow

# -- pbem check --------------------------------------------------------------------------------------


@dataclass
class Finding:
    level: str          # "ok", "note" or "problem"
    text: str


MIN_SECRET_LENGTH = 32
PLACEHOLDERS = ("change-me", "changeme", "secret", "example")


def secret_finding(key: str | None) -> Finding:
    if not key:
        return Finding("problem", "PBEM_SECRET_KEY is not set: pbem will not start. Make one with "
                                  "python3 -c \"import secrets; print(secrets.token_urlsafe(48))\"")
    weakness = getattr(settings_module, "secret_key_weakness", None)
    why = weakness(key) if weakness else None
    if why is None and (key == settings_module.DEV_SECRET_KEY
                        or any(word in key.lower() for word in PLACEHOLDERS)):
        why = "is an example value"
    if why is None and (len(key) < MIN_SECRET_LENGTH or len(set(key)) < 12):
        why = f"is too weak (use {MIN_SECRET_LENGTH} or more random characters)"
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
    # PBEM_OPEN_SIGNUP (issue 9): /new is open unless it says otherwise.
    raw = settings.get("OPEN_SIGNUP", True)
    is_open = raw if isinstance(raw, bool) else str(raw).strip().lower() in ("1", "true", "yes", "on")
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


# -- the mail queue ----------------------------------------------------------------------------------

def waiting_mail():
    return Outbox.select().where(Outbox.sent_at.is_null(), Outbox.failed_at.is_null())


def failed_mail():
    return Outbox.select().where(Outbox.failed_at.is_null(False), Outbox.sent_at.is_null())


def state_of(row: Outbox) -> str:
    if row.sent_at:
        return "sent"
    return "failed" if row.failed_at else "waiting"


def retry(rows) -> int:
    """Queue rows that failed (or wait for a later try) to be sent at once; the count.
    Attempts start afresh, so a retried row gets the whole backoff again."""
    ids = [row.id for row in rows if row.sent_at is None]
    if not ids:
        return 0
    with write_transaction():
        return (Outbox.update(failed_at=None, next_try_at=utcnow(), claimed_until=None, attempts=0)
                .where(Outbox.id.in_(ids), Outbox.sent_at.is_null()).execute())


HOST_PAGE_MAIL = 100        # the newest mails of a game its host page lists (web/host.py)
THREAD_ROOTS = ("invite", "host")   # first mails of a game's threads: later mail refers to them


def prune(older_than_days: int, now: dt.datetime | None = None) -> dict:
    """Delete mail sent more than `older_than_days` ago, except, per game, the newest
    HOST_PAGE_MAIL (what its host page lists) and the first mail of each thread; then the
    turn links past their age (their signature has expired: their pages answer "expired"
    whether the row is there or not) with their reply addresses, and the replies handled
    more than `older_than_days` and a link's age ago. One short transaction per game. Counts
    and bytes."""
    now = now or utcnow()
    cutoff = now - dt.timedelta(days=older_than_days)
    old = Outbox.select().where(Outbox.sent_at < cutoff, Outbox.kind.not_in(THREAD_ROOTS))
    games = [g for (g,) in old.select(Outbox.game).distinct().tuples()]
    counts = {"mails": 0, "bytes": 0, "links": 0}
    for game_id in games:
        in_game = Outbox.game.is_null() if game_id is None else Outbox.game == game_id
        doomed = old.where(in_game)
        if game_id is not None:
            listed = (Outbox.select(Outbox.id).where(Outbox.game == game_id)
                      .order_by(Outbox.id.desc()).limit(HOST_PAGE_MAIL))
            doomed = doomed.where(Outbox.id.not_in(listed))
        with write_transaction():
            size = doomed.select(pw.fn.SUM(pw.fn.LENGTH(Outbox.body_text)
                                           + pw.fn.LENGTH(Outbox.body_html))).scalar() or 0
            deleted = Outbox.delete().where(Outbox.id.in_(doomed.select(Outbox.id))).execute()
        counts["mails"] += deleted
        counts["bytes"] += int(size)
    expired = Link.select(Link.id).where(Link.expires_at < now)
    link_age = dt.timedelta(seconds=current_app.config["LINK_MAX_AGE"])
    with write_transaction():
        counts["reply_addresses"] = (ReplyAddress.delete()
                                     .where(ReplyAddress.link.in_(expired)).execute())
        counts["links"] = Link.delete().where(Link.expires_at < now).execute()
        # a reply handled is remembered while its reply address can still take it
        counts["replies"] = (InboundMail.delete()
                             .where(InboundMail.received_at < min(cutoff, now - link_age))
                             .execute())
    return counts


# -- host links --------------------------------------------------------------------------------------

def reissue_host_link(game: Game, secret_key: str, mail: bool) -> str:
    """A new host link for `game` (the old one stops working); queued to the host's address
    when `mail` and the game has one. Returns the link."""
    with outbox.transaction():
        token = links.issue_host(secret_key, game)
        Game.update(host_nonce_hash=game.host_nonce_hash).where(Game.id == game.id).execute()
        if mail and game.host_email:
            announce.host_link(game, token)
    return compose.host_url(token)


# -- backup and restore (SQLite) ---------------------------------------------------------------------

class OpsError(Exception):
    """Refused, with the reason in plain words."""


def sqlite_path(url: str) -> Path:
    if not url.startswith("sqlite:///") or url.endswith(":memory:"):
        raise OpsError("pbem backup and restore are for an SQLite database file; for "
                       "PostgreSQL use pg_dump and pg_restore (deploy/README.md, Backups)")
    return Path(url[len("sqlite:///"):])


def integrity(path: Path) -> str | None:
    """Why `path` is not a whole pbem SQLite database, or None when it is."""
    try:
        if not path.is_file():
            return f"{path} does not exist"
    except OSError as exc:              # a folder this user may not enter
        return f"cannot read {path}: {exc.strerror or exc}"
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            result = connection.execute("PRAGMA integrity_check").fetchone()[0]
            tables = {name for (name,) in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        return f"{path} is not an SQLite database ({exc})"
    if result != "ok":
        return f"{path} is damaged: {result}"
    if not {"game", "event", "migratehistory"} <= tables:
        return f"{path} is not a pbem database (no game, event or migratehistory table)"
    return None


def copy_sqlite(source: Path, target: Path, single_file: bool = False) -> None:
    """A consistent copy while others read and write (SQLite's online backup API).
    `single_file`: the copy leaves WAL mode, so that opening it (the integrity check, a later
    restore) makes no -wal or -shm file beside it."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        with dst:
            src.backup(dst)
        if single_file:
            dst.execute("PRAGMA journal_mode=DELETE")
    finally:
        dst.close()
        src.close()


def backup(url: str, target: Path, force: bool = False) -> bool:
    """Copy the SQLite database at `url` to `target` (a consistent copy, checked); whether
    it made `target`'s folder. A folder this user may not enter or write is said in words."""
    source = sqlite_path(url)
    if not source.is_file():
        raise OpsError(f"there is no database at {source}")
    try:
        exists = target.exists()          # a folder this user may not enter: PermissionError
        made_folder = not target.parent.is_dir()
    except OSError as exc:
        raise OpsError(_unwritable(target.parent, exc)) from None
    if exists and not force:
        raise OpsError(f"{target} exists already (pass --force to replace it)")
    if target.resolve() == source.resolve():
        raise OpsError("the backup cannot be the database itself")
    partial = target.with_name(target.name + ".partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial.unlink(missing_ok=True)
        copy_sqlite(source, partial, single_file=True)
    except (OSError, sqlite3.Error) as exc:
        raise OpsError(_unwritable(target.parent, exc)) from None
    problem = integrity(partial)
    if problem:
        partial.unlink()
        raise OpsError(f"the copy failed its check: {problem}")
    partial.replace(target)
    return made_folder


def _unwritable(folder: Path, exc: BaseException) -> str:
    """Why a backup could not be written there, and what to do, in one line."""
    owner = ""
    try:
        import pwd
        owner = f" (owned by {pwd.getpwuid(folder.stat().st_uid).pw_name})"
    except (OSError, KeyError, ImportError):
        pass
    return (f"cannot write the backup in {folder}{owner}: {exc}. Back up into a folder this "
            "user may write, e.g. install -d -o pbem -g pbem -m 700 /var/backups/pbem-sqlite")


SHOWN_OBJECTS = 8      # foreign schema objects named in a refusal


def schema_of(connection: sqlite3.Connection) -> dict[tuple[str, str], tuple]:
    """Each schema object of an SQLite database but SQLite's own, (type, name) -> what it is:
    a table's columns (as a set: a rollback and upgrade may reorder them), foreign keys and
    CHECK constraints; an index's table, uniqueness, partiality and columns; a trigger's or a
    view's SQL."""
    objects = {}
    rows = connection.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                              "WHERE name NOT LIKE 'sqlite!_%' ESCAPE '!'").fetchall()
    for kind, name, table, sql in rows:
        quoted = name.replace('"', '""')
        if kind == "table":
            columns = frozenset(
                (c[1], (c[2] or "").upper(), c[3], c[4], c[5], c[6])
                for c in connection.execute(f'PRAGMA table_xinfo("{quoted}")'))
            keys = frozenset(tuple(k[2:]) for k in
                             connection.execute(f'PRAGMA foreign_key_list("{quoted}")'))
            checks = len(re.findall(r"\bCHECK\b", sql or "", re.IGNORECASE))
            objects[(kind, name)] = (columns, keys, checks)
        elif kind == "index":
            listed = {i[1]: i for i in connection.execute(
                f'PRAGMA index_list("{table.replace(chr(34), chr(34) * 2)}")')}
            entry = listed.get(name)
            columns = tuple(c[2] for c in connection.execute(f'PRAGMA index_info("{quoted}")'))
            objects[(kind, name)] = (table, entry[2] if entry else None,
                                     entry[4] if entry else None, columns)
        else:                                   # trigger, view: pbem makes none
            objects[(kind, name)] = (table, " ".join((sql or "").split()))
    return objects


def pbem_schema(migrations: list[str]) -> dict[tuple[str, str], tuple]:
    """The schema pbem's own migrations `migrations` build, in an empty scratch database."""
    from peewee_migrate import Router
    from ..db.database import MIGRATIONS
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "reference.db"
        scratch = pw.SqliteDatabase(str(path))
        try:
            router = Router(scratch, migrate_dir=MIGRATIONS)
            unknown = sorted(set(migrations) - set(router.todo))
            if unknown:
                raise OpsError(f"will not restore: the backup has migrations this pbem does not "
                               f"know ({', '.join(unknown)}): restore it with the pbem that made it")
            migrator = router.migrator_class(scratch)
            for name in sorted(migrations):
                router.run_one(name, migrator, fake=False)
        finally:
            scratch.close()
        connection = sqlite3.connect(path)
        try:
            return schema_of(connection)
        finally:
            connection.close()


def foreign_objects(backup_file: Path) -> list[str]:
    """The schema objects of a backup that pbem's migrations (those the backup says it had)
    do not make, or that differ from what they make: a crafted trigger, view, table, column,
    index or constraint. Empty for a backup pbem made."""
    connection = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
    try:
        found = schema_of(connection)
        migrations = [name for (name,) in connection.execute("SELECT name FROM migratehistory")]
    except sqlite3.DatabaseError as exc:
        raise OpsError(f"will not restore: {backup_file} is not a pbem database ({exc})") from None
    finally:
        connection.close()
    own = pbem_schema(migrations)
    foreign = []
    for (kind, name), what in sorted(found.items()):
        if (kind, name) not in own:
            foreign.append(f"{kind} {name}")
        elif own[(kind, name)] != what:
            foreign.append(f"{kind} {name} (altered)")
    return foreign


def foreign_objects_postgresql() -> list[str]:
    """The objects of pbem's PostgreSQL schema that pbem's migrations never make (it makes no
    trigger, function, view, rule or policy): after a pg_restore of a crafted dump. Functions
    of installed extensions are not counted."""
    own = {model._meta.table_name for model in MODELS} | {"migratehistory"}
    queries = {
        "trigger": "SELECT c.relname || '.' || t.tgname FROM pg_trigger t "
                   "JOIN pg_class c ON c.oid = t.tgrelid "
                   "WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace",
        "event trigger": "SELECT evtname FROM pg_event_trigger",
        "function": "SELECT p.proname FROM pg_proc p WHERE p.pronamespace = "
                    "current_schema()::regnamespace AND NOT EXISTS (SELECT 1 FROM pg_depend d "
                    "WHERE d.objid = p.oid AND d.deptype = 'e')",
        "rule": "SELECT tablename || '.' || rulename FROM pg_rules "
                "WHERE schemaname = current_schema()",
        "policy": "SELECT tablename || '.' || policyname FROM pg_policies "
                  "WHERE schemaname = current_schema()",
        "relation": "SELECT relname FROM pg_class WHERE relnamespace = "
                    "current_schema()::regnamespace AND relkind IN ('r', 'v', 'm', 'p', 'f')",
    }
    found = []
    for kind, sql in queries.items():
        for (name,) in db.obj.execute_sql(sql).fetchall():
            if kind != "relation" or name not in own:
                found.append(f"{'table or view' if kind == 'relation' else kind} {name}")
    return sorted(found)


def foreign_schema(url: str) -> list[str]:
    """The schema objects of the live database that pbem did not create (see foreign_objects
    and foreign_objects_postgresql)."""
    if url.startswith("sqlite:///") and not url.endswith(":memory:"):
        return foreign_objects(sqlite_path(url))
    if url.startswith("sqlite"):
        return []
    return foreign_objects_postgresql()


def restore(url: str, backup_file: Path, force: bool = False) -> None:
    """Put `backup_file` in place of the database (refusing to overwrite one unless `force`).
    A backup holding schema objects pbem did not create (a trigger that un-spends links, a
    table, an altered column or index) is refused, and nothing is changed."""
    target = sqlite_path(url)
    problem = integrity(backup_file)
    if problem:
        raise OpsError(f"will not restore: {problem}")
    foreign = foreign_objects(backup_file)
    if foreign:
        more = len(foreign) - SHOWN_OBJECTS
        raise OpsError("will not restore: the backup holds schema objects pbem did not create: "
                       + ", ".join(foreign[:SHOWN_OBJECTS]) + (f" and {more} more" if more > 0 else "")
                       + f". Nothing was changed; restore a backup made by pbem backup")
    try:
        if target.exists() and target.stat().st_size and not force:
            raise OpsError(f"{target} exists (a live database?): stop pbem-web and pbem-mail, "
                           "then pass --force to overwrite it")
        target.parent.mkdir(parents=True, exist_ok=True)
        copy_sqlite(backup_file, target)
    except (OSError, sqlite3.Error) as exc:
        raise OpsError(f"cannot write the database {target}: {exc}") from None


def mail_after_restore():
    """(the moment the restored database was last written, [(game id, names of the seats
    mailed)], [games that failed]): every seat to act in every running game gets a fresh link
    saying the game was restored to that moment."""
    from ..play import restored
    when = restored.restored_to()
    mailed, failed = restored.mail_seats_to_act(when)
    return when, mailed, failed


def verify_all() -> list[tuple[Game, list[str]]]:
    """(game as verified, its problems) of every game, each read in one snapshot."""
    checked = [store.verified(row.id) for row in Game.select(Game.id).order_by(Game.id)]
    return [(one.game, one.problems) for one in checked]
