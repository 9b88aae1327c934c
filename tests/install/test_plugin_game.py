"""A game installed as a distribution of its own plays end to end with no file of pbem touched.

tests/plugin/tinygame is such a game ("Higher card": hidden hands, forced last cards, a
presenter, a template, a stylesheet and a Hungarian catalogue); tests/plugin/brokengame is a
plugin that cannot load. Both are installed into a folder that the installed pbem finds on
PYTHONPATH, beside the install tests' venv of pbem's wheel (`installed`); the game is then created with `pbem games create`, its links come by real SMTP,
it is played through the API of a real gunicorn, and its record is exported, imported and
verified — by the installed commands, away from the checkout.
"""
from __future__ import annotations

import secrets

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import requests

from tests.conftest import free_port
from tests.install.conftest import ROOT, clean_environment, wait_for

pytestmark = pytest.mark.install
PLUGINS = Path(__file__).resolve().parents[1] / "plugin"
TURN_LINK = re.compile(r"http://pbem\.test(/turn/[A-Za-z0-9_.\-]+)")


@pytest.fixture(scope="module")
def plugins(tmp_path_factory) -> Path:
    """The two plugins installed into a folder of their own (built from copies: no build/ left
    in the checkout), which the installed pbem finds on PYTHONPATH: pbem's venv is the install
    tests' shared one, and stays as the wheel made it."""
    workdir = tmp_path_factory.mktemp("plugins")
    sources = [shutil.copytree(PLUGINS / name, workdir / name,
                               ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
               for name in ("tinygame", "brokengame")]
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                    str(workdir / "site"), *map(str, sources)], check=True, capture_output=True,
                   env=clean_environment(), cwd=workdir)
    return workdir / "site"


@pytest.fixture(scope="module")
def engine():
    """The plugin's engine in this process too, to check what the server showed."""
    sys.path.insert(0, str(PLUGINS / "tinygame"))
    try:
        import pbem_tinygame
        yield pbem_tinygame.rules
    finally:
        sys.path.remove(str(PLUGINS / "tinygame"))
        sys.modules.pop("pbem_tinygame", None)


def test_a_game_from_its_own_distribution_plays_end_to_end(installed, plugins, engine, smtp,
                                                            tmp_path):
    venv = installed
    env = clean_environment(
        PYTHONPATH=str(plugins),
        PBEM_DATABASE_URL=f"sqlite:///{tmp_path}/pbem.db", PBEM_SECRET_KEY="plugin-test-" + secrets.token_urlsafe(40),
        PBEM_BASE_URL="http://pbem.test", PBEM_MAIL_SERVER="127.0.0.1",
        PBEM_MAIL_PORT=str(smtp.port), PBEM_MAIL_SENDER="pbem <pbem@pbem.test>")

    def pbem(*args, ok=True):
        done = subprocess.run([str(venv / "bin" / "pbem"), *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True)
        assert (done.returncode == 0) == ok, done.stdout + done.stderr
        return done

    pbem("db", "upgrade")
    created = pbem("games", "create", "tinygame", "--player", "Anna <anna@example.org>",
                   "--player", "Bob <bob@example.org>", "--option", "hand=3", "--seed", "7",
                   "--language", "hu", "--host-email", "host@example.org")
    game_id = created.stdout.split()[0]
    # the broken plugin is named, and pbem went on without it
    assert "'brokengame'" in created.stderr and "pbem_brokengame:rules" in created.stderr
    assert "is left out: ImportError" in created.stderr
    checked = pbem("check", ok=False).stdout
    assert "games: assyria, tigris, tigris_cards, tinygame" in checked
    assert re.search(r"PROBLEM +the game 'brokengame' .*pbem-brokengame 0\.1\.0", checked)

    pbem("mail", "send")
    invitations = smtp.inbox.to("anna@example.org") + smtp.inbox.to("bob@example.org")
    assert invitations and all("Magasabb lap" in m["Subject"] for m in invitations)

    conf = tmp_path / "gunicorn.conf.py"
    shutil.copy(ROOT / "deploy" / "gunicorn.conf.py", conf)
    server = subprocess.Popen([str(venv / "bin" / "gunicorn"), "-c", str(conf),
                               "pbem.app:create_app()"], cwd=tmp_path,
                              env=dict(env, PBEM_BIND=f"127.0.0.1:{(port := free_port())}",
                                       PBEM_WORKERS="1"),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(base + "/", server)
        answer, posts, first_hands, pages = play_through_the_api(base, smtp, pbem)
        assert posts == 4                   # two tricks chosen; the last cards play themselves
        assert answer["result"]["ranking"] and answer["to_act"] == []
        hands = engine.setup(2, 7, {"hand": 3})["hands"]
        assert first_hands == {0: hands[0], 1: hands[1]}   # each saw its own hand, no other

        # the generic turn page with the plugin's presenter, template, words and stylesheet
        assert "Magasabb lap" in pages["hu"] and "Lapjaid" in pages["hu"]
        assert "kijátssza" in pages["hu"] and "Kijátszom:" in pages["hu"]
        assert "Higher card" in pages["en"] and "Play your" in pages["en"]
        assert "/static/games/tinygame/tinygame.css" in pages["en"]
        new_game = requests.get(base + "/new?lang=hu", timeout=10).text   # the game on offer
        assert 'value="tinygame"' in new_game and "Magasabb lap: lapok a kézben" in new_game
        css = requests.get(base + "/static/games/tinygame/tinygame.css", timeout=10)
        assert css.status_code == 200 and ".tinygame-card" in css.text

        over = requests.get(f"{base}/games/{game_id}?lang=hu", timeout=10).text
        assert "Végeredmény" in over and "ki nem osztott lapok" in over   # results, generic
        replay = requests.get(f"{base}/games/{game_id}/replay?step=2&lang=hu", timeout=10)
        assert replay.status_code == 200 and "viszi az ütést" in replay.text
    finally:
        server.terminate()
        server.wait(timeout=20)

    pbem("mail", "send")
    assert any("Anna" in smtp.inbox.text(m) and "Végeredmény" in smtp.inbox.text(m)
               for m in smtp.inbox.to("anna@example.org"))
    record = json.loads(pbem("games", "export", game_id).stdout)
    assert record["rules"] == "tinygame" and record["status"] == "over"
    assert [e["automatic"] for e in record["events"][1:]] == [False] * 4 + [True] * 2
    (tmp_path / "record.json").write_text(json.dumps(record))
    copy_id = pbem("games", "import", str(tmp_path / "record.json")).stdout.split()[0]
    verified = pbem("games", "verify", "--all").stdout
    assert f"game {game_id} (tinygame, 6 moves): ok" in verified
    assert f"game {copy_id} (tinygame, 6 moves): ok" in verified


def live_links(smtp) -> list[str]:
    """The newest link of each player, newest mail first."""
    found = [smtp.inbox.links_for(a) for a in ("anna@example.org", "bob@example.org")]
    return [links[-1].removeprefix("http://pbem.test") for links in found if links]


def play_through_the_api(base: str, smtp, pbem, rules: str = "tinygame") -> tuple[dict, int, dict, dict]:
    """Play from the links in the mails, the first card offered, until the game is over; the
    last answer, how many moves were posted, the hand each seat was first shown, and the
    second turn's page in each language (Higher card, named `rules`)."""
    posts, first_hands, pages = 0, {}, {}
    for _ in range(10):
        asked = [(link, got) for link in live_links(smtp)
                 if (got := requests.get(base + "/api" + link, timeout=10)).status_code == 200
                 and got.json()["actions"]]
        if not asked:
            break
        link, got = asked[0]
        turn = got.json()
        assert turn["rules"] == rules and "deck" not in turn["view"]
        assert set(turn["view"]["hand"]) == {a["card"] for a in turn["actions"]}
        first_hands.setdefault(turn["seat"], turn["view"]["hand"])
        if posts == 1:
            pages = {language: requests.get(f"{base}{link}?lang={language}", timeout=10).text
                     for language in ("hu", "en")}
        stale = requests.post(base + "/api" + link, timeout=10,
                              json={"seq": turn["seq"] + 1, "action": turn["actions"][0]})
        assert stale.status_code == 409
        wrong = requests.post(base + "/api" + link, timeout=10,
                              json={"seq": turn["seq"], "action": {"type": "play", "card": 99}})
        assert wrong.status_code == 422 and wrong.json()["error"]
        answer = requests.post(base + "/api" + link, timeout=10,
                               json={"seq": turn["seq"], "action": turn["actions"][0]})
        assert answer.status_code == 200, answer.text
        posts += 1
        pbem("mail", "send")
    return answer.json(), posts, first_hands, pages

