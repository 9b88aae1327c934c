"""What an operator names and reads: the release's version, a
`pbem check` that compares the installed deploy files with this release's, a verify quiet
enough for cron, and SQLite backups that fail in words and leave one file."""
from __future__ import annotations

import importlib.metadata
import shutil

from click.testing import CliRunner

from pbem import __version__, package
from pbem.db.models import Event, db
from pbem.log import store
from pbem.ops.cli import cli as pbem_cli
from tests.ops.test_cli import STRONG, new_game

DEPLOY = package.folder("deploy")


def test_the_version_is_the_package_s_and_pbem_says_it():
    out = CliRunner().invoke(pbem_cli, ["--version"])
    assert out.exit_code == 0 and out.output == f"pbem {__version__}\n"
    assert importlib.metadata.version("pbem") == __version__ != "0.1.0"


def check_deploy(tmp_path, smtp, app, gunicorn: str, nginx: str, settings: str):
    (tmp_path / "gunicorn.conf.py").write_text(gunicorn)
    (tmp_path / "site").write_text(nginx)
    (tmp_path / "pbem.env").write_text(
        settings + f"PBEM_SECRET_KEY={STRONG}\nPBEM_BASE_URL=https://pbem.example.org\n"
        f"PBEM_DATABASE_URL={app.config['DATABASE_URL']}\nPBEM_MAIL_SERVER=127.0.0.1\n"
        f"PBEM_MAIL_PORT={smtp.port}\n")
    return CliRunner().invoke(pbem_cli, ["check", "--gunicorn-conf", str(tmp_path / "gunicorn.conf.py"),
                                         "--nginx-site", str(tmp_path / "site")],
                              env={"PBEM_CONFIG": str(tmp_path / "pbem.env"), "PBEM_MAIL_PORT": None},
                              catch_exceptions=False)


def test_check_passes_the_deploy_files_this_release_ships(app, smtp, tmp_path):
    from pbem.play import health
    health.beat()
    out = check_deploy(tmp_path, smtp, app, (DEPLOY / "gunicorn.conf.py").read_text(),
                       (DEPLOY / "nginx-pbem.conf").read_text(), "PBEM_PROXIES=1\n")
    assert out.exit_code == 0, out.output
    assert "has what this release's gunicorn config has" in out.output
    assert "limits requests, sends HSTS and logs no links" in out.output


def test_check_names_what_old_deploy_files_lack(app, smtp, tmp_path):
    shipped = (DEPLOY / "gunicorn.conf.py").read_text().split("\ndef post_worker_init")[0]
    old_gunicorn = "\n".join(line for line in shipped.splitlines()
                             if not line.startswith(("logger_class", "max_requests")))
    old_site = "\n".join(line for line in (DEPLOY / "nginx-pbem.conf").read_text().splitlines()
                         if "limit_req" not in line and "Strict-Transport" not in line)
    out = check_deploy(tmp_path, smtp, app, old_gunicorn, old_site, "")
    assert out.exit_code == 1
    assert "lacks logger_class = \"pbem.logs.GunicornLogger\"" in out.output
    assert "no token redaction" in out.output
    assert ("deploy/gunicorn.conf.py has: max_requests, max_requests_jitter, post_worker_init"
            in out.output)
    assert "has no PBEM_PROXIES while nginx stands in front" in out.output
    assert "no request limits (limit_req)" in out.output and "no HSTS header" in out.output
    assert "4 problem(s)" in out.output


def test_verify_quiet_prints_only_broken_games(app):
    runner = app.test_cli_runner()
    good, bad = new_game(), new_game()
    out = runner.invoke(args=["games", "verify", "--all", "--quiet"])
    assert out.exit_code == 0 and out.output == ""
    Event.update(hash="0" * 64).where(Event.game == bad.id, Event.seq == 0).execute()
    out = runner.invoke(args=["games", "verify", "--all", "--quiet"])
    assert out.exit_code == 1 and out.output.startswith(f"game {bad.id} ")
    assert f"game {good.id} " not in out.output and "BROKEN" in out.output


def test_a_backup_is_one_file_and_an_unwritable_folder_is_said_in_words(sqlite_app, tmp_path):
    runner = sqlite_app.test_cli_runner()
    new_game()
    folder = tmp_path / "backups"
    out = runner.invoke(args=["backup", str(folder / "pbem-Mon.db")])
    assert out.exit_code == 0, out.output
    assert sorted(p.name for p in folder.iterdir()) == ["pbem-Mon.db"]
    (tmp_path / "a-file").write_text("")
    out = runner.invoke(args=["backup", str(tmp_path / "a-file" / "pbem.db")])
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert f"cannot write the backup in {tmp_path / 'a-file'}" in out.output
    assert "a folder this user may write" in out.output
    db.close()
    shutil.rmtree(folder)


from tests.ops.test_cli import sqlite_app  # noqa: E402,F401 - the fixture, shared
