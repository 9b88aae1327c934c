"""Deploy/README.md's upgrade and rollback, as written, between two builds:
the whole guide's `sh` blocks run in order against a scratch root, installing the release
before the newest migration was added, then upgrading to this checkout's HEAD and rolling back
to the kept wheel. Games made before the upgrade and after it verify at every step.

Both builds come from git (committed work only): the older is the parent of the commit that
added the newest migration, so it is an older schema by construction."""
from __future__ import annotations

import os
import re
import subprocess
from urllib.parse import urlsplit

import pytest

from tests.conftest import PG_URL
from tests.install.conftest import ROOT, clean_environment
from tests.install.test_deploy_guide import SHIMS, SKIP, drop_database, guide_blocks

pytestmark = [pytest.mark.install,
              pytest.mark.skipif(not PG_URL, reason="needs PBEM_TEST_DATABASE_URL (PostgreSQL)")]


def git(*args) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()


def releases() -> tuple[str, str, str]:
    """(the older commit, its newest migration's number, HEAD)."""
    newest = sorted(name for name in git("ls-tree", "--name-only", "HEAD", "migrations/").split()
                    if re.match(r"migrations/\d{3}_", name))[-1]
    added = git("log", "--diff-filter=A", "--format=%H", "HEAD", "--", newest).split()[-1]
    older = git("rev-parse", f"{added}^")
    before = sorted(name for name in git("ls-tree", "--name-only", older, "migrations/").split()
                    if re.match(r"migrations/\d{3}_", name))[-1]
    return older, before.split("/")[1][:3], git("rev-parse", "HEAD")


GAME = ('sudo -u pbem pbem games create tigris --player "Ann <ann@example.org>" '
        '--player "Bob <bob@example.org>" --title "{title}"\n'
        'sudo -u pbem pbem games verify --all\n'
        'echo "--- games: $(sudo -u pbem pbem games list | wc -l)"\n')


def test_the_guide_upgrades_and_rolls_back_between_two_builds(tmp_path, smtp):
    older, older_newest, head = releases()
    scratch = tmp_path / "root"
    scratch.mkdir()
    pg = urlsplit(PG_URL)
    database = f"{pg.path.lstrip('/')}_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_upgrade"
    drop_database(database)
    parts = []
    for i, block in enumerate(guide_blocks()):
        if block.startswith(SKIP):
            continue
        if block.startswith("# upgrade, 1"):
            parts.append(GAME.format(title="before the upgrade"))
        if block.startswith("# rollback"):
            parts.append(GAME.format(title="after the upgrade"))
        parts.append(f"echo '--- block {i}' >&2\n{block}")
    parts.append('echo "--- finally $(sudo -u pbem pbem games list | wc -l) games"')
    script = "set -euo pipefail\n" + SHIMS + "\n".join(parts)
    env = clean_environment(
        PBEM_ROOT=str(scratch), PBEM_REPO=str(ROOT), PBEM_DB=database,
        PBEM_RELEASE=older, PBEM_NEW_RELEASE=head, PBEM_ROLLBACK_TO=older_newest,
        PBEM_CONFIG=str(scratch / "etc/pbem/pbem.env"),
        PATH=f"{scratch}/usr/local/bin:{os.environ['PATH']}",
        PGHOST=pg.hostname, PGPORT=str(pg.port or 5432), PGUSER=pg.username or "postgres",
        PBEM_MAIL_SERVER="127.0.0.1", PBEM_MAIL_PORT=str(smtp.port), HOME=str(tmp_path))
    try:
        done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=900)
        out = done.stdout
        assert done.returncode == 0, out[-3000:] + done.stderr[-5000:]
        new_version = git("show", f"{head}:pbem/__init__.py")
        new_version = re.search(r'__version__ = "([^"]+)"', new_version).group(1)
        old_version = re.search(r'__version__ = "([^"]+)"', git("show", f"{older}:pbem/__init__.py"))
        assert f"pbem {new_version}" in out                     # the upgrade ran the new release
        assert "upgrading pbem " + (old_version.group(1) if old_version else "") in out
        assert "this undoes, newest first: " in out and "rolled back: " in out
        rolled_back = out[out.index("rolled back: "):]
        assert f"pbem {new_version}" not in rolled_back         # the older release runs again
        assert "--- games: 1" in out and "--- games: 2" in out
        assert "--- finally 2 games" in out
        assert "BROKEN" not in out
    finally:
        drop_database(database)
