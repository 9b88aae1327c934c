"""Deploy/README.md's upgrade and rollback, as written, from the previous release to this
checkout's HEAD and back: the whole guide's `sh` blocks run in order against a scratch root,
installing the previous release by its name (found in a clone with no tags, as the guide finds
it), upgrading to HEAD's commit and rolling back to the kept wheel. Games made under the
release, under HEAD and after the rollback verify at every step, and each build keeps its
own wheel.

HEAD comes from git (committed work only): the guide clones this repository."""
from __future__ import annotations

import os
import re
import subprocess
from urllib.parse import urlsplit

import pytest

from pbem import __version__
from pbem.db import releases
from tests.conftest import PG_URL
from tests.install.conftest import ROOT, clean_environment, guide_path
from tests.install.test_deploy_guide import SHIMS, SKIP, drop_database, guide_blocks

pytestmark = [pytest.mark.install,
              pytest.mark.skipif(not PG_URL, reason="needs PBEM_TEST_DATABASE_URL (PostgreSQL)")]


def git(*args) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()


def version_at(commit: str) -> str:
    return re.search(r'__version__ = "([^"]+)"', git("show", f"{commit}:pbem/__init__.py")).group(1)


def newest_migration_at(commit: str) -> str:
    return sorted(name.split("/")[1][:-3] for name in
                  git("ls-tree", "--name-only", commit, "migrations/").split()
                  if re.match(r"migrations/\d{3}_", name))[-1]


def release_commit(release: str) -> str:
    """The commit that dated the release's CHANGELOG entry: the guide's lookup."""
    return git("log", "--format=%H", "-F", f"-S## {release} (2", "HEAD", "--",
               "CHANGELOG.md").split()[-1]


# A whole Tigris game recorded in the words of rules versions 1 and 2 ("color", "tiles"):
# imported under the release, it must still verify under HEAD, which speaks version 3.
OLD_RECORD = ROOT / "tests" / "games" / "tigris" / "data" / "store-record-v1-3p.json"
IMPORT = f'sudo -u pbem pbem games import "{OLD_RECORD}"\n'
GAME = ('sudo -u pbem pbem games create {rules} --player "Ann <ann@example.org>" '
        '--player "Bob <bob@example.org>" --title "{title}"\n'
        'sudo -u pbem pbem games verify --all\n'
        'echo "--- games: $(sudo -u pbem pbem games list | wc -l)"\n')


def test_the_guide_upgrades_from_the_previous_release_and_rolls_back(tmp_path, smtp):
    previous = releases.previous(__version__)
    older, head = release_commit(previous), git("rev-parse", "HEAD")
    assert version_at(older) == previous                    # a release says its own version
    assert version_at(head) == __version__ != previous
    older_kept, head_kept = f"{previous}-{older[:12]}", f"{__version__}-{head[:12]}"
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
            parts.append(IMPORT + GAME.format(rules="tigris", title="before the upgrade"))
        if block.startswith("# rollback"):
            # a game the release can play on after the rollback: HEAD makes Tigris and card
            # games at rules version 3, which 0.3.1 does not know (the guide and CHANGELOG say
            # so); Assyria is at version 1 in both
            parts.append(GAME.format(rules="assyria", title="after the upgrade"))
        parts.append(f"echo '--- block {i}' >&2\n{block}")
        if block.startswith("# rollback"):
            parts.append(GAME.format(rules="tigris", title="after the rollback"))
    parts.append('echo "--- finally $(sudo -u pbem pbem games list | wc -l) games"')
    script = "set -euo pipefail\n" + SHIMS + "\n".join(parts)
    env = clean_environment(
        PBEM_ROOT=str(scratch), PBEM_REPO=str(ROOT), PBEM_DB=database,
        PBEM_RELEASE=previous, PBEM_NEW_COMMIT=head,
        PBEM_CONFIG=str(scratch / "etc/pbem/pbem.env"),
        PATH=guide_path(scratch),
        PGHOST=pg.hostname, PGPORT=str(pg.port or 5432), PGUSER=pg.username or "postgres",
        PBEM_MAIL_SERVER="127.0.0.1", PBEM_MAIL_PORT=str(smtp.port), HOME=str(tmp_path))
    try:
        done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=900)
        out = done.stdout
        assert done.returncode == 0, out[-3000:] + done.stderr[-5000:]
        upgrade = out.index(f"upgrading pbem {older_kept} to {head_kept}")
        rollback = out.index("--- games: 3")
        assert f"pbem {previous}\n" in out[:upgrade]            # the release installed first
        assert f"pbem {__version__}\n" in out[upgrade:rollback]  # the upgrade ran HEAD
        rolled_back = out[rollback:]
        if newest_migration_at(head) > releases.newest_migration(previous):
            assert "this undoes, newest first: " in rolled_back and "rolled back: " in rolled_back
        else:
            assert ("nothing to undo: the newest migration applied is "
                    f"{releases.newest_migration(previous)}") in rolled_back
        assert f"pbem {previous}\n" in rolled_back and f"pbem {__version__}" not in rolled_back
        assert "--- games: 2" in out and "--- games: 4" in out
        assert "--- finally 4 games" in out
        assert "BROKEN" not in out
        wheels = scratch / "opt/pbem/wheels"
        assert sorted(p.name for p in wheels.iterdir() if p.is_dir()) == sorted(
            [older_kept, head_kept])                          # each build its own, both kept
        assert (wheels / "current").read_text().strip() == older_kept
    finally:
        drop_database(database)
