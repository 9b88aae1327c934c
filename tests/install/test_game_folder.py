"""A new game is one folder: copied into pbem/games/, it plays with no other file of pbem changed.

A throwaway copy of pbem's source gets one folder more, pbem/games/highcard/: the tiny plugin
game's package ("Higher card", tests/plugin/tinygame) under a name of its own, renamed inside
the folder only. pbem, run from that copy, finds the game as it finds its own three: its
engine, its presenter (presenter.py), its template and stylesheet, its Hungarian catalogue.
The game is created with `pbem games create`, its links come by real SMTP, it is played
through the JSON API of a real gunicorn, replayed, exported and verified.
"""
from __future__ import annotations

import json
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from tests.conftest import free_port
from tests.install.conftest import ROOT, clean_environment, wait_for
from tests.install.test_plugin_game import play_through_the_api

pytestmark = pytest.mark.install
TINYGAME = ROOT / "tests" / "plugin" / "tinygame" / "pbem_tinygame"
SKIP = shutil.ignore_patterns("__pycache__", "*.egg-info")


def copy_with_a_new_game(target: Path) -> Path:
    """pbem's source at `target`, with Higher card as the folder pbem/games/highcard/."""
    for folder in ("pbem", "templates", "migrations", "deploy"):
        shutil.copytree(ROOT / folder, target / folder, ignore=SKIP)
    game = shutil.copytree(TINYGAME, target / "pbem" / "games" / "highcard", ignore=SKIP)
    (game / "static" / "tinygame.css").rename(game / "static" / "highcard.css")
    for path in [*game.glob("*.py"), *game.glob("templates/*")]:
        path.write_text(path.read_text().replace("tinygame", "highcard"))
    return target


def test_a_game_copied_as_a_folder_plays_end_to_end(smtp, tmp_path):
    source = copy_with_a_new_game(tmp_path / "src")
    env = clean_environment(
        PYTHONPATH=str(source), PBEM_DATABASE_URL=f"sqlite:///{tmp_path}/pbem.db",
        PBEM_SECRET_KEY="folder-test-" + secrets.token_urlsafe(40),
        PBEM_BASE_URL="http://pbem.test", PBEM_MAIL_SERVER="127.0.0.1",
        PBEM_MAIL_PORT=str(smtp.port), PBEM_MAIL_SENDER="pbem <pbem@pbem.test>")

    def pbem(*args, ok=True):
        done = subprocess.run([sys.executable, "-m", "pbem.ops.cli", *args], cwd=tmp_path,
                              env=env, capture_output=True, text=True)
        assert ok is None or (done.returncode == 0) == ok, done.stdout + done.stderr
        return done

    pbem("db", "upgrade")
    checked = pbem("check", ok=None).stdout        # (it also finds no deploy files here)
    assert "highcard" in checked.split("games: ")[1].split("\n")[0]
    created = pbem("games", "create", "highcard", "--player", "Anna <anna@example.org>",
                   "--player", "Bob <bob@example.org>", "--option", "hand=3", "--seed", "7",
                   "--language", "hu")
    game_id = created.stdout.split()[0]
    pbem("mail", "send")
    assert all("Magasabb lap" in m["Subject"]
               for m in smtp.inbox.to("anna@example.org") + smtp.inbox.to("bob@example.org"))

    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
         "pbem.app:create_app()"], cwd=tmp_path,
        env=dict(env, PBEM_BIND=f"127.0.0.1:{(port := free_port())}", PBEM_WORKERS="1"),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(base + "/", server)
        answer, posts, _hands, pages = play_through_the_api(base, smtp, pbem, rules="highcard")
        assert posts == 4 and answer["to_act"] == [] and answer["result"]["ranking"]
        assert "Lapjaid" in pages["hu"] and "Play your" in pages["en"]     # its presenter
        assert "/static/games/highcard/highcard.css" in pages["en"]
        css = requests.get(base + "/static/games/highcard/highcard.css", timeout=10)
        assert css.status_code == 200 and ".tinygame-card" in css.text
        replay = requests.get(f"{base}/games/{game_id}/replay?step=2&lang=hu", timeout=10)
        assert replay.status_code == 200 and "viszi az ütést" in replay.text
    finally:
        server.terminate()
        server.wait(timeout=20)

    record = json.loads(pbem("games", "export", game_id).stdout)
    assert record["rules"] == "highcard" and record["status"] == "over"
    assert f"game {game_id} (highcard, 6 moves): ok" in pbem("games", "verify", "--all").stdout
