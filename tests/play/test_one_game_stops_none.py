"""One game never stops another: a game the pace pass cannot settle is recorded with its
error, skipped until it moves, and named in /health and `pbem check` (a note), while every
other game is settled and mailed; a game whose every seat is dropped pauses within one
pass, its host is told, and `resume` brings its players back."""
from __future__ import annotations

from pbem.db.models import Game, Outbox, Seat, utcnow
from pbem.play import pace
from pbem.play import moves as playing
from tests.play.test_pace import DAY, new_game, seat, timeouts


def poison(game) -> None:
    """A snapshot the rules cannot load: settling this game raises."""
    Game.update(state={"not": "a state"}).where(Game.id == game.id).execute()


def test_a_poisoned_game_is_skipped_and_named_while_the_others_settle_and_mail(app, client, smtp):
    games = [new_game() for _ in range(3)]
    poisoned = games[1]
    poison(poisoned)
    later = max(seat(g, i).deadline for g in games for i in (0, 1)
                if seat(g, i).deadline) + DAY
    out = app.test_cli_runner().invoke(args=["mail", "send", "--now", later.isoformat()])
    assert out.exit_code == 0, out.output
    assert "1 games could not be settled" in out.output
    assert [len(timeouts(g)) >= 1 for g in games] == [True, False, True]
    sent = Outbox.select().where(Outbox.sent_at.is_null(False))
    assert sent.where(Outbox.game == games[2].id, Outbox.kind == "turn").count() >= 1
    record = Game.get_by_id(poisoned.id)
    assert record.pace_error and record.pace_error_seq == record.seq
    answer = client.get("/health")          # named, as a note: later faults still turn it 503
    assert answer.status_code == 200
    assert [g["game"] for g in answer.json["failed_games"]] == [poisoned.id]
    assert any(f"game {poisoned.id}: the pace pass fails" in p for p in answer.json["notes"])
    # the next pass skips it (nothing new is logged as failed) and settles the others
    assert pace.run_pass(later + DAY)["failed"] == 0


def test_a_game_with_every_seat_dropped_pauses_within_one_pass_and_resumes(app, smtp):
    game = new_game(on_timeout="auto", drop_after=1)
    Seat.update(dropped=True).where(Seat.game == game.id).execute()   # both stopped playing
    counts = pace.run_pass(utcnow())
    assert counts["failed"] == 0
    game = Game.get_by_id(game.id)
    assert game.paused_at is not None and game.status == "running"
    [notice] = Outbox.select().where(Outbox.kind == "host-nobody")
    assert notice.recipient == "host@example.org"
    from pbem.mail import compose
    compose.render(notice)
    assert "nobody is playing; resume when someone is back" in notice.subject
    seq = game.seq
    assert pace.run_pass(utcnow() + 2 * DAY) == {**counts, "digests": 0}     # nothing runs
    assert Outbox.select().where(Outbox.kind == "host-nobody").count() == 1
    assert Game.get_by_id(game.id).seq == seq
    out = app.test_cli_runner().invoke(args=["games", "resume", str(game.id)])
    assert out.exit_code == 0 and "resumed" in out.output, out.output
    game = Game.get_by_id(game.id)
    assert game.paused_at is None
    assert not any(s.dropped for s in game.seats)
    assert all(s.deadline > utcnow() for s in game.seats if s.asked_at is not None)
    rules_state = playing.store.state_of(game)
    assert playing.store.rules_of(game).to_act(rules_state)     # waiting for a player again
