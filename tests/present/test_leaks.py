"""No page, email, replay or JSON answer for one seat reveals another seat's hidden holdings,
in any game of RULES (plugins too: none is named here).

Whole random games of each game are played through `store.append`. At checkpoints, every
answer a seat (or a spectator) can get is fetched twice: once from the real game, once from a
state the game itself redraws from that seat's view (`determinize`: everything the seat sees
kept, everything it cannot see -- the other hands or tiles, victory points the rules keep
hidden, the order of the bags and decks, the seed -- drawn anew). A seat's answer must be the
same byte for byte: whatever it shows cannot depend on what it may not see. The check is
sensitive: where the redraw changes what another seat's view holds (its hidden holdings), that
seat's own JSON answer changes too (asserted below), so a page showing another seat's holdings
in any form would differ. A game with secrets must say what they are by redrawing them; one
without `determinize` fails here by name. The log's lines are stored when written, so they are
checked at the source: each line comes out the same from `describe` whatever the secrets were.
"""
from __future__ import annotations

import random
import re
from contextlib import contextmanager

import pytest

from pbem.play import moves as playing
from pbem.play import creation, home, quiet
from pbem.play import links
from pbem.mail import compose
from pbem.play import announce
from pbem.log import store
from pbem.db.database import write_transaction
from pbem.games.base import speaking
from pbem.db.models import Game, Outbox, Seat, db
from pbem.games import RULES
from tests.conftest import a_move, on_sqlite

database_url = on_sqlite
from pbem.present import replay as replay_states_module
from pbem.web import pagecache, replay as replay_module
from tests.support.games import GAMES

PLAYERS = [{"name": n, "email": f"{n.lower()}@example.org", "language": lang}
           for n, lang in (("Ann", "en"), ("Bob", "hu"), ("Cy", "en"))]
# links are credentials, not game facts: one signed a second later differs (its time is in it)
TOKEN = re.compile(r"/(turn|replay|me|optout)/[A-Za-z0-9_.\-]+")


# -- redrawing what `seat` may not see ---------------------------------------------------------------

def redrawn(rules, state, seat: int, seed: int):
    """A state that shows `seat` what `state` shows it, everything else drawn anew by the game."""
    assert getattr(rules, "determinize", None) is not None, (
        f"{rules.name} has no determinize: it cannot redraw what a seat may not see, so no "
        "test can tell whether a page shows another seat's hidden holdings")
    return rules.determinize(rules.view(state, seat), seat, random.Random(seed))


# -- what a seat can fetch ------------------------------------------------------------------------------

@contextmanager
def snapshot(app, game, rules, state):
    """The game's stored snapshot temporarily replaced by `state`. Behind the log's back: the
    seq and head hash stay, and they are what names a state in the pages' validators, so the
    pages kept in this worker are dropped on the way in and out (a real state never changes
    without its hash)."""
    original = Game.get_by_id(game.id).state
    Game.update(state=rules.dump(state)).where(Game.id == game.id).execute()
    app.extensions.pop(pagecache.EXTENSION, None)
    try:
        yield
    finally:
        Game.update(state=original).where(Game.id == game.id).execute()
        app.extensions.pop(pagecache.EXTENSION, None)


@contextmanager
def replay_states(change):
    """The replay viewer rebuilding its states as usual, then passing them through `change`."""
    real = replay_states_module.state_at

    def patched(game, step):
        state, event = real(game, step)
        return change(state), event
    replay_states_module.state_at = patched
    try:
        yield
    finally:
        replay_states_module.state_at = real


def fetch(client, url):
    answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return TOKEN.sub(r"/\1/TOKEN", answer.get_data(as_text=True))


def turn_mail(game, rules, state, seat):
    """The turn email `seat` would get now (rendered, then rolled back)."""
    with db.atomic() as transaction:
        seats = list(Seat.select().where(Seat.game == game).order_by(Seat.index))
        announce.turn_mail(game, seats[seat])
        row = compose.render(Outbox.select().order_by(Outbox.id.desc()).first())
        mail = "\n".join((row.subject, row.body_text, row.body_html))
        transaction.rollback()
    return TOKEN.sub(r"/\1/TOKEN", mail)


def seat_answers(client, app, game, rules, seat, token, steps):
    """Everything `seat` can see: turn page, API, replays, the turn email."""
    answers = {"turn": fetch(client, f"/turn/{token}"),
               "api": fetch(client, f"/api/turn/{token}"),
               "mail": turn_mail(game, rules, store.state_of(Game.get_by_id(game.id)), seat)}
    for step in steps:
        answers[f"replay {step}"] = fetch(client, f"/replay/{token}?step={step}")
    return answers


def spectator_answers(client, game, steps):
    answers = {"game": fetch(client, f"/games/{game.id}")}
    for step in steps:
        answers[f"replay {step}"] = fetch(client, f"/games/{game.id}/replay?step={step}")
    return answers


def api_of(client, app, game, seat):
    with write_transaction():
        token = links.issue(app.config["SECRET_KEY"], game, seat, 3600)
    return fetch(client, f"/api/turn/{token}")


def check_no_leak(client, app, game, rng, sensitive: dict):
    game = Game.get_by_id(game.id)
    rules = store.rules_of(game)
    state = store.state_of(game)
    steps = sorted({game.seq, game.seq // 2})
    players = game.players
    # (seat, the seat whose view the redraw keeps): a spectator sees less than any seat, so its
    # answers may change with none of the secrets of seat 0 (redrawn from 1's view) nor seat 1
    viewers = [(seat, seat) for seat in range(players)] + [(None, 0), (None, 1)]
    for seat, holder in viewers:
        change = (lambda s, holder=holder: redrawn(rules, s, holder, 7))
        if seat is None:
            real = spectator_answers(client, game, steps)
            with snapshot(app, game, rules, change(state)), replay_states(change):
                other = spectator_answers(client, game, steps)
        else:
            with write_transaction():
                token = links.issue(app.config["SECRET_KEY"], game, seat, 3600)
            real = seat_answers(client, app, game, rules, seat, token, steps)
            neighbour = (seat + 1) % players
            seen_before = api_of(client, app, game, neighbour)
            with snapshot(app, game, rules, change(state)), replay_states(change):
                other = seat_answers(client, app, game, rules, seat, token, steps)
                seen_changed = api_of(client, app, game, neighbour)
            # the redraw is not a no-op: where it changed the neighbour's hidden holdings, the
            # neighbour's own answer shows it
            if rules.view(change(state), neighbour) != rules.view(state, neighbour):
                sensitive["redrawn"] += 1
                assert seen_changed != seen_before, (
                    f"{rules.name} at move {game.seq}: the redraw changed what seat {neighbour} "
                    "holds, yet its own answer did not change: the check would see no leak")
            sensitive["checks"] += 1
        for what in real:
            assert real[what] == other[what], (
                f"{rules.name} at move {game.seq}: the {what} of seat {seat} changes when "
                f"the other seats' secrets change")


def players_for(rules) -> int:
    """Three players where the game allows: a seat then has two others to keep secrets from."""
    return max(rules.min_players, min(3, rules.max_players))


CHECKPOINTS = {1, 8, 40, 150}   # moves (of the game's own length) at which every answer is checked


def play_and_check(client, app, rules_name, players, seed, checkpoints=CHECKPOINTS,
                   max_moves=20_000, pace=None):
    rng = random.Random(seed)
    game, _ = creation.create_game(rules_name, PLAYERS[:players], seed=seed, pace=pace)
    rules = store.rules_of(game)
    sensitive = {"checks": 0, "redrawn": 0}
    moves = 0
    while moves < max_moves:
        game = Game.get_by_id(game.id)
        state = store.state_of(game)
        waiting = rules.to_act(state)
        if not waiting:
            break
        if moves in checkpoints:
            check_no_leak(client, app, game, rng, sensitive)
        seat = rng.choice(waiting)
        playing.act(game.id, seat, a_move(rules, rules.legal_actions(state, seat), rng), game.seq)
        moves += 1
    game = Game.get_by_id(game.id)
    assert game.status == "over", f"{rules_name} did not end in {max_moves} moves"
    check_log_lines(game)
    return sensitive


def check_log_lines(game):
    """Every line of the log says the same whatever the secrets were: the other seats' and
    the acting seat's own, where the action stays legal (a line is shown to everyone)."""
    rules = store.rules_of(game)
    before, checked = None, {False: 0, True: 0}
    for event, state in store.replay(game):
        if event.seq > 0:
            for hide_own in (False, True):
                # redrawn from the actor's view: the others' secrets; from the next seat's:
                # the actor's own too (a few draws, until one leaves the action legal)
                holder = (event.seat + 1) % game.players if hide_own else event.seat
                for attempt in range(5 if hide_own else 1):
                    changed = redrawn(rules, before, holder, event.seq * 10 + attempt)
                    if event.action in rules.legal_actions(changed, event.seat):
                        break
                else:
                    continue        # the actor's own holdings made the action possible
                with speaking("en"):
                    line = rules.describe(changed, event.seat, event.action)
                assert line == event.summary, (
                    f"{rules.name} move {event.seq}: the log line depends on "
                    f"{'the actor' if hide_own else 'another seat'}'s secrets: "
                    f"{event.summary!r} became {line!r}")
                checked[hide_own] += 1
        before = state
    assert checked[False] == game.seq and checked[True] >= game.seq // 4, checked


@pytest.mark.slow
# what an answer reveals is the engine's view through the pages and the API, whatever the
# database: SQLite alone (`database_url` above; PostgreSQL serves the same rows to the same
# code, tested elsewhere)
@pytest.mark.parametrize("rules_name", GAMES)
def test_no_answer_reveals_another_seats_secrets(app, client, rules_name):
    players = players_for(RULES[rules_name])
    sensitive = play_and_check(client, app, rules_name, players, seed=3)
    assert sensitive["checks"] >= players


def test_duel_too(app, client):
    """The test game Duel, which the server tests play most (its hands are hidden)."""
    sensitive = play_and_check(client, app, "duel", 3, 5, checkpoints={0, 1, 2, 3, 4})
    assert sensitive["checks"] >= 3 and sensitive["redrawn"] >= 1


def test_the_clocks_reveal_no_holdings(app, client):
    """Clocks with a pace and a player's quiet hours on every page: none of it
    depends on a hand (a bank's time left changes by the second, so it is not compared here)."""
    home.store_quiet("bob@example.org", quiet.check("Asia/Tokyo", "00:00", "16:00"),
                     "Asia/Tokyo")
    sensitive = play_and_check(client, app, "duel", 3, 5, checkpoints={0, 1, 2, 3, 4},
                               pace={"days": 2.0, "on_timeout": "auto"})
    assert sensitive["checks"] >= 3


def test_the_check_catches_a_leak(app, client, monkeypatch):
    """A JSON answer carrying the next seat's hand is caught (so the check above can fail)."""
    from pbem.web import api
    real = api.turn_payload

    def leaky(game, seat, state=None, seats=None):
        payload = real(game, seat, state, seats)
        rules = store.rules_of(game)
        full = rules.load(Game.get_by_id(game.id).state) if state is None else state
        payload["view"]["next_hand"] = full["hands"][(seat + 1) % game.players]
        return payload

    monkeypatch.setattr(api, "turn_payload", leaky)
    game, _ = creation.create_game("duel", PLAYERS[:3], seed=5)
    with pytest.raises(AssertionError, match="the api of seat 0 changes"):
        check_no_leak(client, app, game, random.Random(1), {"checks": 0, "redrawn": 0})


def test_a_running_games_replay_shows_no_other_holdings(app, client, monkeypatch):
    """Were the replay to show every seat's holdings before the end, the check would see it."""
    game, _ = creation.create_game("duel", PLAYERS[:2], seed=5)
    real_render = replay_module.render

    def everything(game, seat, base, **kwargs):
        game.status = "over"            # pretend: a finished game shows everything
        return real_render(game, seat, base, **kwargs)
    monkeypatch.setattr(replay_module, "render", everything)
    with pytest.raises(AssertionError, match="replay"):
        check_no_leak(client, app, game, random.Random(1), {"checks": 0, "redrawn": 0})
