"""scripts/setup, the one set-up behind `make run`, `make test` and CI: where a Debian package
the tests need is missing and it can neither be root nor use `sudo -n`, it stops at once with
one line naming the exact command, before any Python environment is made or any test runs.
(Where it can install, CI's own run installs them: .ci/run calls `make test` on a machine
without them.)"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.install.conftest import ROOT

# What the script needs of the system to reach its decision; chromium, openssl and
# spamassassin are left out, as on a machine that never had them.
TOOLS = ("bash", "env", "id", "sort", "dirname", "cat", "cut", "cksum", "mktemp", "grep", "rm")


@pytest.fixture
def folder():
    """A folder the user nobody can enter (pytest's own tmp_path is root's alone)."""
    path = Path(tempfile.mkdtemp(prefix="pbem-setup-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def as_nobody(tmp_path, *arguments):
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "setup", checkout / "scripts" / "setup")
    shutil.copy(ROOT / "pyproject.toml", checkout / "pyproject.toml")
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    for tool in TOOLS:
        (bin_folder / tool).symlink_to(shutil.which(tool))
    for folder in (tmp_path, checkout, checkout / "scripts", bin_folder):
        folder.chmod(0o755)
    return subprocess.run(
        [shutil.which("setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups",
         str(bin_folder / "bash"), str(checkout / "scripts" / "setup"), *arguments],
        env={"PATH": str(bin_folder), "HOME": str(tmp_path)}, cwd=tmp_path,
        capture_output=True, text=True, timeout=60), checkout


def test_without_root_or_sudo_it_stops_at_once_with_the_one_command_to_run(folder):
    done, checkout = as_nobody(folder, "test")
    assert done.returncode == 2
    assert done.stdout == ""
    expected = "chromium openssl spamassassin"
    if not os.path.exists("/usr/sbin/dovecot"):
        expected = "chromium dovecot-imapd openssl spamassassin"
    assert done.stderr.splitlines() == [
        f"setup: missing Debian packages {expected}: run 'sudo apt-get install -y {expected}', "
        "then this command again"]
    assert not (checkout / ".venv").exists()      # it stopped before anything was made


def test_it_names_its_two_uses_when_asked_for_another(folder):
    done, _ = as_nobody(folder, "everything")
    assert done.returncode == 2
    assert done.stderr.strip() == "setup: usage: scripts/setup run|test"
