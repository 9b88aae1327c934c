"""deploy/README.md runs as written: its `sh` blocks, extracted from the file, run in order in
one bash against a scratch root (PBEM_ROOT) and this machine's PostgreSQL. Blocks whose first
line is `# server only` (apt, systemd, nginx, certbot) are skipped.

Shims, since the test has no `pbem` or `postgres` system user: `sudo -u USER CMD` runs CMD as
the test's own user (the environment carries PGHOST/PGUSER to the test's PostgreSQL), and
`chown` only checks that it is given an owner. Settings the test must point elsewhere (the
SMTP server) come from the environment, which wins over the settings file."""
from __future__ import annotations

import os
import re
import subprocess
from urllib.parse import urlsplit

import pytest

from tests.conftest import PG_URL
from tests.install.conftest import ROOT, clean_environment, guide_path

pytestmark = [pytest.mark.install,
              pytest.mark.skipif(not PG_URL, reason="needs PBEM_TEST_DATABASE_URL (PostgreSQL)")]

GUIDE = ROOT / "deploy" / "README.md"
BLOCK = re.compile(r"^```sh\n(.*?)^```", re.S | re.M)
SKIP = "# server only"

SHIMS = r'''
sudo() {
  while [ "$#" -gt 0 ]; do
    case "$1" in -u) shift 2 ;; -*) shift ;; *) break ;; esac
  done
  "$@"
}
chown() { [ "$#" -ge 2 ] || { echo "chown: missing operand" >&2; return 1; }; }
'''


UPGRADES = "## 10. Upgrades"


def guide_blocks(upgrades: bool = True) -> list[str]:
    """The guide's `sh` blocks, in order; without those of its upgrades section (a test of
    their own runs them between two builds: test_upgrade_guide.py)."""
    text = GUIDE.read_text()
    if not upgrades:
        start = text.index(UPGRADES)
        end = text.find("\n## ", start + 1)
        text = text[:start] + (text[end:] if end >= 0 else "")
    return BLOCK.findall(text)


def test_the_guide_marks_what_needs_a_real_server():
    blocks = guide_blocks()
    skipped = [b for b in blocks if b.startswith(SKIP)]
    assert len(blocks) >= 8 and 3 <= len(skipped) < len(blocks)
    for block in blocks:
        needs_server = re.search(r"^\s*(apt-get|adduser|systemctl|nginx|certbot)\b", block, re.M)
        assert not needs_server or block.startswith(SKIP), block


def drop_database(name: str) -> None:
    import psycopg2
    connection = psycopg2.connect(PG_URL)
    connection.autocommit = True
    with connection.cursor() as cursor:
        for database in (name, name + "_check"):
            cursor.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    connection.close()


def test_the_deploy_guide_runs_as_written(tmp_path, smtp):
    scratch = tmp_path / "root"
    scratch.mkdir()
    pg = urlsplit(PG_URL)
    database = f"{pg.path.lstrip('/')}_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_guide"
    drop_database(database)
    script = "set -euo pipefail\n" + SHIMS + "\n".join(
        f"echo '--- block {i}' >&2\n{block}" for i, block in enumerate(guide_blocks(upgrades=False))
        if not block.startswith(SKIP))
    env = clean_environment(
        PBEM_ROOT=str(scratch), PBEM_REPO=str(ROOT), PBEM_DB=database, PBEM_COMMIT="HEAD",
        PBEM_CONFIG=str(scratch / "etc/pbem/pbem.env"),
        PATH=guide_path(scratch),
        PGHOST=pg.hostname, PGPORT=str(pg.port or 5432), PGUSER=pg.username or "postgres",
        PBEM_MAIL_SERVER="127.0.0.1", PBEM_MAIL_PORT=str(smtp.port), HOME=str(tmp_path))
    try:
        done = subprocess.run(["bash", "-c", script], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
        assert "no problems found" in done.stdout
        assert "applied: 001_initial" in done.stdout
        settings = (scratch / "etc/pbem/pbem.env").read_text()
        assert re.search(r"^PBEM_SECRET_KEY=[A-Za-z0-9_\-]{64}$", settings, re.M)
        assert (scratch / "var/backups/pbem/check.dump").stat().st_size > 0
        assert "pbem games verify --all" in (scratch / "etc/cron.d/pbem").read_text()
        assert (scratch / "opt/pbem/static/pbem.css").is_file()
        kept = (scratch / "opt/pbem/wheels/current").read_text().strip()
        assert (scratch / "opt/pbem/wheels" / kept).is_dir() and kept.endswith(
            "-" + subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT,
                                 capture_output=True, text=True).stdout.strip())
        assert os.stat(scratch / "etc/pbem/pbem.env").st_mode & 0o777 == 0o640
    finally:
        drop_database(database)
