"""The shuffle commitment: published from move 0 in the invitations, on the game page
and in the API; the seed and the salt show nowhere while the game runs; the finished record
reveals them, and `pbem games check` confirms a record offline (or names its first problem)."""
from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.play import moves as playing
from pbem.play import creation
from pbem.play import records
from pbem.mail import mailer
from pbem.log import check, store
from pbem.db.models import Game
from tests.conftest import LINK, token_of

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org", "language": "hu"}]
ROOT = Path(__file__).resolve().parents[2]
OLD_RECORD = ROOT / "tests" / "games" / "tigris" / "data" / "store-record-v1-3p.json"
HEX64 = re.compile(r"\b[0-9a-f]{64}\b")


def expected_commitment(seed: int, salt: str) -> str:
    return hashlib.sha256(f"pbem-commit-1:{salt}:{seed}".encode()).hexdigest()


class Seen:
    """Every response body and mail a played game gave, to search for its secrets."""

    def __init__(self, client, smtp):
        self.client, self.smtp, self.bodies = client, smtp, []

    def get(self, url, **kwargs):
        response = self.client.get(url, **kwargs)
        self.bodies.append(response.get_data(as_text=True))
        return response

    def post(self, url, **kwargs):
        response = self.client.post(url, **kwargs)
        self.bodies.append(response.get_data(as_text=True))
        return response

    def mails(self) -> list[str]:
        mailer.send_due()
        return [m.as_string() + self.smtp.inbox.text(m) for m in self.smtp.inbox.messages]

    def last_token(self, address) -> str:
        mailer.send_due()
        return token_of(self.smtp.inbox.last_link(address))


def play_through_the_web(seen: Seen, game_id: int) -> tuple[list[str], list[str]]:
    """Play a Duel to its end from the mailed links, fetching every page of every turn; the
    commitments the API and the game page gave."""
    from_api, from_page = [], []
    for _turn in range(40):
        game = store.get_game(game_id)
        if game.status == "over":
            break
        seat = store.rules_of(game).to_act(store.state_of(game))[0]
        token = seen.last_token(PLAYERS[seat]["email"])
        seen.get(f"/turn/{token}")
        seen.get(f"/replay/{token}")
        page = seen.get(f"/games/{game_id}").get_data(as_text=True)
        from_page += HEX64.findall(page)
        assert seen.get(f"/games/{game_id}/record.json").status_code == 403
        seen.get(f"/games/{game_id}/replay")
        turn = seen.get(f"/api/turn/{token}").get_json()
        from_api.append(turn["commitment"])
        answer = seen.post(f"/api/turn/{token}",
                           json={"seq": turn["seq"], "action": turn["actions"][-1]})
        assert answer.status_code == 200, answer.get_data(as_text=True)
    assert store.get_game(game_id).status == "over"
    return from_api, from_page


def test_the_commitment_is_published_from_the_start_and_the_secrets_only_at_the_end(
        app, client, smtp):
    game, _host = creation.create_game("duel", PLAYERS)
    seen = Seen(client, smtp)
    invitations = [text for text in seen.mails()
                   if "invites you to play" in text or "meghív, hogy" in text]
    committed = [HEX64.findall(text) for text in invitations]
    assert len(invitations) == 2 and all(committed)
    from_api, from_page = play_through_the_web(seen, game.id)
    row = Game.get_by_id(game.id)
    commitment = expected_commitment(row.seed, row.salt)
    assert re.fullmatch(r"[0-9a-f]{32}", row.salt)
    assert {c for found in committed for c in found} == {commitment}
    assert set(from_api) == {commitment} and set(from_page) == {commitment}
    # while it ran, no page, answer or mail held the seed or the salt
    for text in seen.bodies + seen.mails():
        assert str(row.seed) not in text and row.salt not in text
    # the finished game's public record reveals them, beside the same commitment
    record = client.get(f"/games/{game.id}/record.json").get_json()
    assert (record["seed"], record["salt"], record["commitment"]) == \
        (row.seed, row.salt, commitment)
    assert expected_commitment(record["seed"], record["salt"]) == from_api[0]
    assert check.check(record, commitment).text == "ok"
    assert records.import_game(record).salt == row.salt      # and it replays elsewhere


def finished_record(rules="duel", seed=11, moves=200):
    game, _host = creation.create_game(rules, PLAYERS, seed=seed)
    rules_ = store.rules_of(game)
    for _ in range(moves):
        game = store.get_game(game.id)
        state = store.state_of(game)
        if not rules_.to_act(state):
            break
        seat = rules_.to_act(state)[0]
        playing.act(game.id, seat, rules_.legal_actions(state, seat)[0], game.seq)
    return records.export_game(store.get_game(game.id), messages=False)


def test_check_passes_a_good_record_and_fails_any_change(app):
    record = finished_record()
    assert record["status"] == "over" and check.check(record).ok
    seed = copy.deepcopy(record)
    seed["seed"] = seed["events"][0]["action"]["seed"] = record["seed"] + 1
    assert not check.check(seed).ok
    salt = copy.deepcopy(record)
    salt["events"][0]["action"]["salt"] = salt["salt"] = "0" * 32
    assert not check.check(salt).ok
    commitment = copy.deepcopy(record)
    commitment["commitment"] = "0" * 64
    assert not check.check(commitment).ok
    assert not check.check(record, commitment="0" * 64).ok
    no_commitment = copy.deepcopy(record)
    del no_commitment["commitment"]
    assert not check.check(no_commitment).ok
    for seq in range(1, len(record["events"])):      # any single action changed
        changed = copy.deepcopy(record)
        action = changed["events"][seq]["action"]
        action["card" if "card" in action else "type"] = \
            action.get("card", 0) + 1 if "card" in action else "attack"
        verdict = check.check(changed)
        assert not verdict.ok, (seq, verdict)
    result = copy.deepcopy(record)
    result["result"]["scores"][0] += 1
    assert "result" in check.check(result).text


def test_check_says_what_is_wrong_with_a_malformed_record():
    assert check.check_text("{").text.startswith("not a JSON record")
    assert "not a pbem game record" in check.check_text("[1, 2]").text
    assert "lacks" in check.check_text(json.dumps({"format": "pbem-game-record"})).text


def test_an_old_record_has_no_commitment_and_still_checks():
    verdict = check.check_text(OLD_RECORD.read_text())
    assert verdict.ok and "no commitment" in verdict.text
    assert not check.check_text(OLD_RECORD.read_text(), "0" * 64).ok


def test_pbem_games_check_runs_offline_with_no_settings(app, tmp_path):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    record = finished_record("tigris_cards", seed=5, moves=60)
    good.write_text(json.dumps(record))
    record["events"][3]["action"] = {"type": "pass"}
    bad.write_text(json.dumps(record))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env["PBEM_ENV"] = "production"        # the server itself would refuse to start so
    pbem = [sys.executable, "-c", "from pbem.ops.cli import main; main()"]
    ok = subprocess.run(pbem + ["games", "check", str(good)], env=env, cwd=tmp_path,
                        capture_output=True, text=True, timeout=120)
    assert (ok.returncode, ok.stdout) == (0, "ok\n"), ok.stderr
    broken = subprocess.run(pbem + ["games", "check", str(bad)], env=env, cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert broken.returncode == 1 and broken.stdout.startswith("event 3:"), broken.stdout
    assert "Traceback" not in broken.stderr


def test_games_created_before_commitments_keep_replaying(app):
    game = records.import_game(json.loads(OLD_RECORD.read_text()))
    assert game.salt is None and store.game_commitment(game) is None
    assert store.verify(game) == []
    assert records.export_game(game)["commitment"] is None


@pytest.mark.parametrize("path", ["/games/{id}"])
def test_the_game_page_of_an_old_game_says_it_has_no_commitment(app, client, path):
    game = records.import_game(json.loads(OLD_RECORD.read_text()))
    page = client.get(path.format(id=game.id)).get_data(as_text=True)
    assert "created before shuffle commitments" in page
