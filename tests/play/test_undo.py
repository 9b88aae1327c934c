"""Undo within a turn through the server: the API and the turn page offer it after a
quiet action, it restores the turn as it was (for every seat), it is refused with a reason, from
a stale seq and from a spent or foreign link, and the log with undos verifies, exports, imports
and checks."""
from __future__ import annotations

import pytest

from pbem.play import moves as playing
from pbem.play import creation
from pbem.play import records
from pbem.mail import mailer
from pbem.log import check, store, undo
from pbem.present import replay as replaying
from pbem.present.seat import turn_payload
from tests.conftest import token_of

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org", "language": "hu"}]
CHANGING = ("seq", "undo")


def start(smtp, seed=4):
    game, _host = creation.create_game("tigris_cards", PLAYERS, seed=seed)
    mailer.send_due()
    rules = store.rules_of(game)
    seat = rules.to_act(store.state_of(game))[0]
    return game, rules, seat, token_of(smtp.inbox.last_link(PLAYERS[seat]["email"]))


def quiet_action(rules, state, seat):
    """A legal action of `seat` after which it may undo."""
    for action in rules.legal_actions(state, seat):
        if undo.quiet(rules, state, rules.apply(state, seat, action), seat):
            return action
    raise AssertionError("no quiet action here")


def everyone(game):
    game = store.get_game(game.id)
    return [{k: v for k, v in turn_payload(game, seat).items() if k not in CHANGING}
            for seat in range(game.players)]


def test_undo_through_the_api_restores_the_turn_for_every_seat(app, client, smtp):
    game, rules, seat, token = start(smtp)
    first = client.get(f"/api/turn/{token}").get_json()
    assert first["undo"] is False
    seen_before = everyone(game)
    action = quiet_action(rules, store.state_of(game), seat)
    moved = client.post(f"/api/turn/{token}", json={"seq": first["seq"], "action": action})
    assert moved.status_code == 200 and moved.get_json()["undo"] is True
    assert client.get(f"/api/turn/{token}").get_json()["undo"] is True
    answer = client.post(f"/api/turn/{token}/undo", json={"seq": moved.get_json()["seq"]})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    undone = answer.get_json()
    assert undone["undo"] is False and undone["seq"] == first["seq"] + 2
    assert undone["actions"] == first["actions"] and undone["view"] == first["view"]
    assert everyone(game) == seen_before
    # nothing is left to undo: 409 with the reason; a stale seq is 409 too
    again = client.post(f"/api/turn/{token}/undo", json={"seq": undone["seq"]})
    assert again.status_code == 409 and "nothing to undo" in again.get_json()["error"]
    stale = client.post(f"/api/turn/{token}/undo", json={"seq": 0})
    assert stale.status_code == 409 and "already played" in stale.get_json()["error"]
    assert client.post(f"/api/turn/{token}/undo", json={"sq": 1}).status_code == 400
    assert client.post(f"/api/turn/{token}x/undo", json={"seq": 1}).status_code == 403
    game = store.get_game(game.id)
    assert store.verify(game) == []
    assert [e.action for e in game.events.order_by(store.Event.seq)][-1] == {"type": "undo"}


def test_undo_step_by_step_then_the_turn_passes_and_the_link_is_spent(app, client, smtp):
    game, rules, seat, token = start(smtp, seed=9)
    for _step in range(2):                  # two quiet actions? the second may end the turn
        game = store.get_game(game.id)
        state = store.state_of(game)
        if rules.to_act(state) != [seat]:
            break
        try:
            action = quiet_action(rules, state, seat)
        except AssertionError:
            break
        playing.act(game.id, seat, action, game.seq)
    game = store.get_game(game.id)
    while turn_payload(game, seat)["undo"]:
        answer = client.post(f"/api/turn/{token}/undo", json={"seq": game.seq})
        assert answer.status_code == 200
        game = store.get_game(game.id)
    assert store.verify(game) == []
    # play the turn out: the link is spent, and so is the undo
    while rules.to_act(store.state_of(game)) == [seat]:
        state = store.state_of(game)
        playing.act(game.id, seat, rules.default_action(state, seat), game.seq)
        game = store.get_game(game.id)
    refused = client.post(f"/api/turn/{token}/undo", json={"seq": game.seq})
    assert refused.status_code == 410


def test_the_turn_page_offers_undo_as_a_plain_form(app, client, smtp):
    game, rules, seat, token = start(smtp)
    assert f'action="/turn/{token}/undo"' not in client.get(f"/turn/{token}").get_data(as_text=True)
    playing.act(game.id, seat, quiet_action(rules, store.state_of(game), seat), game.seq)
    page = client.get(f"/turn/{token}").get_data(as_text=True)
    assert f'action="/turn/{token}/undo"' in page and "Undo my last action" in page
    game = store.get_game(game.id)
    answer = client.post(f"/turn/{token}/undo", data={"seq": str(game.seq)})
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/turn/{token}")
    page = client.get(f"/turn/{token}").get_data(as_text=True)
    assert f'action="/turn/{token}/undo"' not in page
    assert "took back their last action" in page
    refused = client.post(f"/turn/{token}/undo", data={"seq": str(game.seq + 1)})
    assert refused.status_code == 409


@pytest.mark.slow
def test_a_game_with_undos_verifies_exports_imports_and_checks(app, client, smtp):
    game, rules, seat, _token = start(smtp, seed=2)
    at_start = store.get_game(game.id).state
    playing.act(game.id, seat, quiet_action(rules, store.state_of(game), seat), game.seq)
    undo_seq = playing.undo(game.id, seat, store.get_game(game.id).seq).game.seq
    # the replay viewer rebuilds the undo's step as the state before the undone action
    game = store.get_game(game.id)
    assert rules.dump(replaying.state_at(game, undo_seq)[0]) == at_start
    assert client.get(f"/games/{game.id}/replay?step={undo_seq}").status_code == 200
    for _ in range(300):                    # then to the end, by default moves
        game = store.get_game(game.id)
        state = store.state_of(game)
        if not rules.to_act(state):
            break
        who = rules.to_act(state)[0]
        playing.act(game.id, who, rules.default_action(state, who), game.seq)
    game = store.get_game(game.id)
    assert store.verify(game) == []
    record = records.export_game(game, messages=False)
    assert {"type": "undo"} in [e["action"] for e in record["events"]]
    assert check.check(record).ok
    copy = records.import_game(record)
    assert store.verify(copy) == [] and copy.head_hash == game.head_hash
    # an undo where none is allowed does not check
    bad = dict(record, events=[dict(e) for e in record["events"]])
    at = [e["action"] for e in bad["events"]].index({"type": "undo"})
    bad["events"].insert(at + 1, dict(bad["events"][at], seq=at + 1))
    assert not check.check(bad).ok


@pytest.mark.parametrize("language,word", [("hu", "visszavonta")])
def test_the_undo_line_speaks_hungarian(language, word):
    assert word in undo.line(0)[language]


def test_an_undo_just_after_a_checkpoint_replays_from_an_earlier_one(app, smtp):
    """The action taken back is before the checkpoint kept at move CHECKPOINT_EVERY: the
    state of the undo's step comes from the checkpoint before (here the seed)."""
    game, rules, _seat, _token = start(smtp, seed=6)
    every = store.CHECKPOINT_EVERY
    for _ in range(10 * every):
        game = store.get_game(game.id)
        state = store.state_of(game)
        who = rules.to_act(state)[0]
        if game.seq % every == every - 1:
            try:
                action = quiet_action(rules, state, who)
            except AssertionError:
                action = None
            if action is not None:
                playing.act(game.id, who, action, game.seq)
                if store.get_game(game.id).seq == game.seq + 1:
                    break
                continue
        playing.act(game.id, who, rules.default_action(state, who), game.seq)
    game = store.get_game(game.id)
    assert game.seq % every == 0 and store.checkpoint_at_or_before(game, game.seq).seq == game.seq
    before = store.state_at(game, game.seq - 1).state
    playing.undo(game.id, who, game.seq)
    game = store.get_game(game.id)
    rebuilt = store.state_at(game, game.seq - 1)        # not the snapshot: from checkpoints
    assert rules.dump(rebuilt.state) != rules.dump(before)      # that is the undone action's
    assert rules.dump(store.state_at(game, game.seq).state) == rules.dump(before)
    game.head_hash = "x"                                # the snapshot is not taken as it is
    rebuilt = store.state_at(game, game.seq)
    assert rules.dump(rebuilt.state) == rules.dump(before) and rebuilt.replayed > every
    assert store.verify(store.get_game(game.id)) == []
