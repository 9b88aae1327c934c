"""`pip install .` (not editable) is a complete pbem: a wheel installed into a fresh venv
outside the checkout migrates an empty database, mails a game's links through real SMTP and
serves its turn page through gunicorn — with no file of the checkout in reach."""
from __future__ import annotations

import re
import shutil
import subprocess
import zipfile

import pytest
import requests

from tests.conftest import free_port
from tests.install.conftest import (ROOT, build_wheel, clean_environment, database_params,
                                    fresh_postgresql, wait_for)

pytestmark = pytest.mark.install


def test_the_wheel_carries_every_template_migration_and_catalogue(tmp_path):
    names = set(zipfile.ZipFile(build_wheel(tmp_path)).namelist())
    expected = [f"pbem/{path.relative_to(ROOT)}" for folder in ("templates", "migrations")
                for path in (ROOT / folder).rglob("*") if path.is_file()
                and "__pycache__" not in path.parts]
    expected += [str(path.relative_to(ROOT)) for path in (ROOT / "pbem").rglob("*")
                 if path.suffix in (".mo", ".css", ".js", ".json", ".txt")]
    assert [name for name in expected if name not in names] == []


@pytest.fixture(params=database_params())
def database(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/data/pbem.db"
    return fresh_postgresql("wheel")


def test_an_installed_wheel_migrates_mails_and_serves_a_game(installed, database, smtp, tmp_path):
    port = free_port()
    env = clean_environment(
        PBEM_DATABASE_URL=database, PBEM_SECRET_KEY="wheel-test-" + "Zq8wR2xk3Vn9LpT4sY6bHc1JmG5fD7aE0uW-_QiXoP",
        PBEM_BASE_URL="http://pbem.test", PBEM_MAIL_SERVER="127.0.0.1",
        PBEM_MAIL_PORT=str(smtp.port), PBEM_MAIL_SENDER="pbem <pbem@pbem.test>")
    pbem = str(installed / "bin" / "pbem")

    def run(*args):
        done = subprocess.run([pbem, *args], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    applied = run("db", "upgrade")
    assert "001_initial" in applied and "002_event_summaries" in applied
    assert "up to date" in run("db", "upgrade")
    game_id = run("games", "create", "tigris", "--player", "Ann <ann@example.org>",
                  "--player", "Bob <bob@example.org>", "--host-email", "host@example.org").split()[0]
    assert "sent" in run("mail", "send")
    links = re.findall(r"http://pbem\.test(/turn/[A-Za-z0-9_.\-]+)",
                       "".join(smtp.inbox.text(m) for m in smtp.inbox.messages))
    assert links and smtp.inbox.to("host@example.org")

    # as the units run it: the deploy guide's gunicorn settings, copied where the guide puts them
    conf = tmp_path / "gunicorn.conf.py"
    shutil.copy(ROOT / "deploy" / "gunicorn.conf.py", conf)
    server = subprocess.Popen([str(installed / "bin" / "gunicorn"), "-c", str(conf),
                               "pbem.app:create_app()"], cwd=tmp_path,
                              env=dict(env, PBEM_BIND=f"127.0.0.1:{port}", PBEM_WORKERS="1"),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(base + "/", server)
        page = requests.get(base + links[-1], timeout=10)
        assert page.status_code == 200 and "Tigris" in page.text
        assert requests.get(f"{base}/games/{game_id}", timeout=10).status_code == 200
        assert requests.get(base + "/static/pbem.css", timeout=10).status_code == 200
        hungarian = requests.get(base + links[-1] + "?lang=hu", timeout=10)
        assert hungarian.status_code == 200 and "Tigris és Eufrátesz" in hungarian.text
    finally:
        server.terminate()
        server.wait(timeout=20)
