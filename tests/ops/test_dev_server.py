"""What `make run` gives a newcomer: `pbem dev` migrates, serves, catches mail and lists it."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import requests

from tests.conftest import free_port
from tests.support.gunicorn_server import ROOT


def test_pbem_dev_serves_a_game_whose_links_arrive_in_the_mail_catcher(tmp_path):
    port, smtp_port = free_port(), free_port()
    env = dict(os.environ, PBEM_ENV="development", PBEM_DATABASE_URL=f"sqlite:///{tmp_path}/dev.db",
               PBEM_BASE_URL=f"http://127.0.0.1:{port}", PBEM_MAIL_SERVER="127.0.0.1",
               PBEM_MAIL_PORT=str(smtp_port), PBEM_MAIL_CATCHER_DIR=str(tmp_path / "mail"))
    env.pop("PBEM_SECRET_KEY", None)
    process = subprocess.Popen([sys.executable, "-m", "pbem.ops.cli", "dev", "--host", "127.0.0.1",
                                "--port", str(port)],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for(base)
        created = requests.post(f"{base}/new", data={
            "rules": "assyria", "name0": "Ann", "email0": "ann@example.org",
            "name1": "Bob", "email1": "bob@example.org"}, timeout=10)
        assert created.status_code == 200 and "/host/" in created.text
        # every page says where the caught mail is: a newcomer's links arrive there
        assert 'href="/dev/mail" id="dev-mail"' in created.text
        links = []
        for _ in range(100):
            links = re.findall(r"/turn/[A-Za-z0-9_.\-]+", requests.get(f"{base}/dev/mail").text)
            if links:
                break
            time.sleep(0.1)
        assert links, "no turn link reached the mail catcher"
        page = requests.get(base + links[0], timeout=10)
        assert page.status_code == 200 and "Assyria" in page.text
        assert list((tmp_path / "mail").glob("*.eml"))
        # each mail's HTML part as the player sees it: framed, sandboxed, its own styles only
        mail_id = re.findall(r'href="/dev/mail/([\w.-]+)"', requests.get(f"{base}/dev/mail").text)[0]
        framing = requests.get(f"{base}/dev/mail/{mail_id}", timeout=10)
        assert f'<iframe class="mail-html" src="/dev/mail/{mail_id}/html" sandbox=' in framing.text
        assert "frame-src 'self'" in framing.headers["Content-Security-Policy"]
        html = requests.get(f"{base}/dev/mail/{mail_id}/html", timeout=10)
        policy = html.headers["Content-Security-Policy"]
        assert "sandbox" in policy and "script-src" not in policy and "default-src 'none'" in policy
        assert html.text.startswith('<base target="_top">') and "<html" in html.text
        assert requests.get(f"{base}/dev/mail/nothing/html", timeout=10).status_code == 404
    finally:
        process.terminate()
        output = process.communicate(timeout=20)[0].decode()
    assert "Traceback" not in output, output


def _wait_for(base):
    for _ in range(150):
        try:
            requests.get(base + "/", timeout=1)
            return
        except requests.RequestException:
            time.sleep(0.1)
    raise AssertionError("pbem dev did not start")


def test_make_run_listens_where_asked_and_installs_only_what_running_needs():
    def dry(*args):
        return subprocess.run(["make", "-n", "run", *args], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout
    local = dry()
    assert "pbem dev --host 127.0.0.1 --port 5000" in local
    assert "PBEM_BASE_URL=http://localhost:5000" in local
    lan = dry("HOST=0.0.0.0", "PORT=8000")
    assert "pbem dev --host 0.0.0.0 --port 8000" in lan
    base = re.search(r"PBEM_BASE_URL=(\S+)", lan).group(1)
    assert base.endswith(":8000") and "localhost" not in base and "0.0.0.0" not in base
    assert "PBEM_BASE_URL=http://box.lan:8000" in dry("HOST=0.0.0.0", "BASE_URL=http://box.lan:8000")
    # running installs what running needs (scripts/setup run: pbem alone), never the test tools
    # nor the Debian packages the tests drive
    assert "scripts/setup run" in local and "scripts/setup test" not in local
