"""`pbem backup` into a folder it may not enter (the guide's /var/backups/pbem belongs to
postgres, mode 700) says so in one line and exits 1, as does `pbem restore` from one; a folder
that does not exist yet is made, and the output says so. Run by the real `pbem` command as a
user other than the folder's owner (root enters any folder: the test then runs it as nobody)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.conftest import free_port, make_app
from tests.ops.test_cli import STRONG, new_game

PBEM = Path(sys.executable).parent / "pbem"


@pytest.fixture
def scratch():
    """A folder anyone may enter (pytest's own are root's alone), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="pbem-backup-"))
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder)


def as_another_user() -> list[str]:
    """What runs a command as a user who is not the folders' owner: root as nobody."""
    if os.geteuid() != 0:
        return []
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


def pbem(database: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ["PATH"], "PBEM_CONFIG": "/dev/null", "PBEM_SECRET_KEY": STRONG,
           "PBEM_BASE_URL": "https://a.example", "PBEM_DATABASE_URL": f"sqlite:///{database}",
           "PBEM_MAIL_SERVER": "127.0.0.1", "PBEM_MAIL_PORT": str(free_port()), "HOME": "/"}
    return subprocess.run([*as_another_user(), str(PBEM), *args], env=env, cwd="/",
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def live(scratch, smtp, duel):
    """An SQLite database with a game, that the other user may read and write."""
    path = scratch / "live" / "pbem.db"
    path.parent.mkdir()
    app = make_app(f"sqlite:///{path}", smtp.port)
    with app.app_context():
        new_game()
        from pbem.db.models import db
        db.close()
    for item in [path.parent, *path.parent.iterdir()]:
        item.chmod(0o777 if item.is_dir() else 0o666)
    return path


def test_a_folder_the_user_may_not_enter_is_said_in_one_line(live, scratch):
    locked = scratch / "backups"
    locked.mkdir(mode=0o700)                  # as /var/backups/pbem: its owner's alone
    locked.chmod(0o700)
    if os.geteuid() != 0:
        locked.chmod(0o000)
    done = pbem(live, "backup", str(locked / "pbem-Mon.db"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.strip().splitlines() == [done.stderr.strip()], done.stderr
    assert f"cannot write the backup in {locked}" in done.stderr
    assert "Permission denied" in done.stderr and "a folder this user may write" in done.stderr
    done = pbem(live, "restore", "--force", str(locked / "pbem-Mon.db"))
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert f"will not restore: cannot read {locked / 'pbem-Mon.db'}: Permission denied" \
        in done.stderr
    locked.chmod(0o700)
    assert list(locked.iterdir()) == []


def test_a_missing_folder_is_made_and_said(live, scratch):
    target = scratch / "backups" / "sqlite" / "pbem-Mon.db"
    done = pbem(live, "backup", str(target))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(f"made the folder {target.parent}\nbacked up to {target} ")
    assert target.is_file()
    again = pbem(live, "backup", "--force", str(target))
    assert again.returncode == 0 and "made the folder" not in again.stdout
