"""Who made each move, as a field of its event (`played_by`, set where the move is recorded):
the link pages read it, not the log line's English; events recorded before it (None) are told
as before, from the flags and the line. Only a default's why enters the hash (as "timeout"
does, only where it is): records from before still verify and import, a record's why cannot be
changed without its hash, and the export carries the field for `pbem games check`."""
from __future__ import annotations

import datetime as dt
import json

import pytest

from pbem.db.models import Event, Link
from pbem.log import chain, store
from pbem.play import computers, links, pace, records
from pbem.play import hosting
from pbem.play import moves as playing
from tests.conftest import token_of
from tests.web.test_link_pages import ANN, DAY, PLAYERS, asked_at, new_game, page

MINUTE = dt.timedelta(minutes=1)


def seat_events(game, seat=None):
    query = Event.select().where(Event.game == game.id, Event.seq > 0).order_by(Event.seq)
    return [e for e in query if seat is None or e.seat == seat]


def play_first(game, seat):
    game = store.get_game(game.id)
    rules = store.rules_of(game)
    return playing.act(game.id, seat, rules.legal_actions(store.state_of(game), seat)[0],
                       game.seq)


def to_act(game):
    game = store.get_game(game.id)
    return store.rules_of(game).to_act(store.state_of(game))


def test_a_players_move_the_servers_forced_one_and_an_undo_say_so(app):
    game, _ = new_game()
    rules = store.rules_of(game)
    while store.get_game(game.id).status == "running":
        play_first(game, to_act(game)[0])
    made = {(e.automatic, e.played_by) for e in seat_events(game)}
    assert made == {(False, "player"), (True, "forced")}
    assert all(not e.timeout and not e.bot for e in seat_events(game))
    assert rules.result(store.state_of(store.get_game(game.id))) is not None


def test_defaults_say_why_they_were_played_as_their_lines_do(app):
    game, _ = new_game(on_timeout="wait")
    late = asked_at(game) + 1.5 * DAY
    pace.run_pass(late)
    hosting.play_default_once(game.id, 0, now=late)            # the host: Ann's default, once
    [host] = [e for e in seat_events(game, 0) if e.timeout]
    assert host.played_by == "host" and host.summary.endswith("(played by the host for {p0})")
    bob = [s for s in store.seats_of(store.get_game(game.id)) if s.index == 1][0]
    pace.run_pass(bob.deadline + MINUTE)
    hosting.hand_over(game.id, 1, now=bob.deadline + MINUTE)  # Bob's moves handed over
    handed = [e for e in seat_events(game, 1) if e.timeout]
    assert handed and {e.played_by for e in handed} == {"handover"}

    game, _ = new_game(on_timeout="auto", drop_after=1)
    pace.run_pass(asked_at(game) + 1.5 * DAY)             # Ann's miss drops her
    defaults = [e for e in seat_events(game, 0) if e.timeout]
    assert defaults[0].played_by == "deadline"
    assert defaults[0].summary.endswith("(played at the deadline)")
    assert all(e.played_by == "absent" for e in defaults[1:])


def test_a_move_the_computer_made_for_a_player_says_so_on_the_players_link(app, client, smtp):
    app.config["BOT_ITERATIONS"] = 3
    game, _ = new_game(on_timeout="bot")
    token = token_of(smtp.inbox.last_link(ANN))
    pace.run_pass(asked_at(game) + 1.5 * DAY)             # Ann misses: the computer stands in
    assert computers.run_pass(asked_at(game) + 1.5 * DAY)["moves"] == 1
    [event] = [e for e in seat_events(game, 0) if e.bot]
    assert event.played_by == "stand_in" and not event.timeout
    status, text = page(client, token)
    assert status == 410 and "The computer played your move for you on" in text
    assert "You made your move" not in text
    status, text = page(client, token + "?lang=hu")
    assert "A számítógép lépett helyetted:" in text


@pytest.mark.parametrize("on_timeout, steps", [
    ("wait", "player"), ("auto", "deadline"), ("wait", "host"), ("auto", "dropped"),
    ("wait", "handover")])
def test_an_event_from_before_the_field_ends_its_link_as_it_did(app, on_timeout, steps):
    game, _ = new_game(on_timeout=on_timeout, drop_after=1 if steps == "dropped" else 3)
    late = asked_at(game) + 1.5 * DAY
    if steps == "player":
        play_first(game, 0)
    else:
        pace.run_pass(late)
    if steps == "host":
        hosting.play_default_once(game.id, 0, now=late)
    if steps == "handover":
        hosting.hand_over(game.id, 0, now=late)
    link = Link.select().where(Link.game == game.id, Link.seat == 0).order_by(Link.id).first()
    told = links.how_ended(game, 0, link.turn_seq)
    assert told == link.spent_by and told == {"player": "you", "deadline": "default"}.get(
        steps, "dropped" if steps in ("dropped", "handover") else steps)
    Event.update(played_by=None).where(Event.game == game.id).execute()     # as before 0.3.1
    assert links.how_ended(game, 0, link.turn_seq) == told


def test_a_defaults_why_is_in_the_hash_export_and_import_and_checks(app, tmp_path):
    game, _ = new_game(on_timeout="wait")
    late = asked_at(game) + 1.5 * DAY
    hosting.play_default_once(game.id, 0, now=late)
    play_first(game, to_act(game)[0])
    game = store.get_game(game.id)
    [host] = [e for e in seat_events(game) if e.timeout]
    before = Event.get(Event.game == game.id, Event.seq == host.seq - 1).hash
    assert host.hash == chain.chain_hash(before, host.seq, host.seat, host.action, False,
                                         host.created_at, True, False, "host")
    assert host.hash != chain.chain_hash(before, host.seq, host.seat, host.action, False,
                                         host.created_at, True)
    others = [e for e in seat_events(game) if not e.timeout]    # their hash is as it was
    assert all(e.hash == chain.chain_hash(
        Event.get(Event.game == game.id, Event.seq == e.seq - 1).hash, e.seq, e.seat, e.action,
        e.automatic, e.created_at) for e in others)
    assert store.verify(game) == []

    record = records.export_game(game)
    assert [e.get("played_by") for e in record["events"]] == \
        [None] + [e.played_by for e in seat_events(game)]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    out = app.test_cli_runner().invoke(args=["games", "check", str(path)])
    assert out.exit_code == 0 and out.output.startswith("ok"), out.output
    copy = records.import_game(record)
    assert store.verify(copy) == []
    assert [(e.played_by, e.summaries) for e in seat_events(copy)] == \
        [(e.played_by, e.summaries) for e in seat_events(game)]

    def forged(seq, change, rehash=False):
        altered = json.loads(json.dumps(record))
        change(altered["events"][seq])
        with pytest.raises(ValueError) as refused:
            records.import_game(rehashed(altered) if rehash else altered)
        return str(refused.value)
    # the why, or its absence, changes the hash: the host's default is not the deadline's
    assert "hash does not match" in forged(host.seq, lambda e: e.update(played_by="deadline"))
    assert "hash does not match" in forged(host.seq, lambda e: e.pop("played_by"))
    # and one with its chain written anew must still be a why, and any other move's the flags'
    assert "played at the deadline says why" in forged(
        host.seq, lambda e: e.update(played_by="player"), rehash=True)
    assert '"played_by" is one of' in forged(host.seq, lambda e: e.update(played_by={"x": 1}))
    assert "its flags and seat 'player'" in forged(host.seq + 1, lambda e: e.update(
        played_by="host"))                                   # a move of Bob's claimed by the host
    # a record from before 0.3.1 (no played_by: the why in the line only) imports as before
    old = json.loads(json.dumps(record))
    for event in old["events"]:
        event.pop("played_by", None)
    copy = records.import_game(rehashed(old))
    assert store.verify(copy) == [] and all(e.played_by is None for e in seat_events(copy))
    assert Event.get(Event.game == copy.id, Event.seq == host.seq).summary.endswith(
        "(played by the host for {p0})")
    assert "played_by" not in json.dumps(records.export_game(copy)["events"])


def rehashed(record: dict) -> dict:
    """The record's hash chain written anew over what its events now say (as a forger would)."""
    events = record["events"]
    for event in events[1:]:
        event["hash"] = chain.chain_hash(
            events[event["seq"] - 1]["hash"], event["seq"], event["seat"], event["action"],
            event["automatic"], event["created_at"], event.get("timeout", False),
            event.get("bot", False), event.get("played_by"))
    record["head_hash"] = events[-1]["hash"]
    return record
