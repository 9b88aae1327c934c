"""One error type: a refused move shows the engine's own reason, in the player's language, on
every edge (the turn page, the API, the command line)."""
from __future__ import annotations

import json

from pbem.errors import Refusal
from pbem.games import IllegalAction
from pbem.log import store
from pbem.mail import mailer
from pbem.play import limits, links, pace, talk
from pbem.play import creation
from pbem import validate
from tests.conftest import token_of, on_sqlite

database_url = on_sqlite     # the engine's reason in the player's words, not storage: SQLite alone

PLAYERS = [{"name": "Anna", "email": "anna@example.org", "language": "hu"},
           {"name": "Bob", "email": "bob@example.org"}]


def _misplaced_leader(game, seat):
    """A leader placed two squares away from any temple: Tigris refuses it with its reason."""
    rules, state = store.rules_of(game), store.state_of(game)
    leader = next(a for a in rules.legal_actions(state, seat) if a["type"] == "place_leader")
    return {**leader, "at": [0, 0]}


def _started(smtp):
    game, _ = creation.create_game("tigris", PLAYERS, seed=5)
    mailer.send_due()
    seat = store.rules_of(game).to_act(store.state_of(game))[0]
    email = PLAYERS[seat]["email"]
    return game, seat, token_of(smtp.inbox.last_link(email))


def test_a_refused_move_reads_the_engines_reason_in_hungarian(app, client, smtp):
    game, seat, token = _started(smtp)
    action = _misplaced_leader(game, seat)
    answer = client.post(f"/turn/{token}?lang=hu", data={"seq": game.seq,
                                                         "action": json.dumps(action)})
    text = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert "Ez a lépés nem szabályos" in text, text[:2000]
    assert "nem szomszédos templommal" in text          # Tigris's own words, in Hungarian
    assert "not one of the actions" not in text
    assert store.get_game(game.id).seq == game.seq       # nothing written


def test_the_api_says_the_engines_reason_too(app, client, smtp):
    game, seat, token = _started(smtp)
    answer = client.post(f"/api/turn/{token}?lang=en", json={"seq": game.seq,
                                                             "action": _misplaced_leader(game, seat)})
    assert answer.status_code == 422
    error = answer.get_json()["error"]
    assert error.startswith("illegal action:") and "is not next to a temple" in error


def test_an_extra_key_is_refused_with_the_general_reason(app, client, smtp):
    game, seat, token = _started(smtp)
    rules, state = store.rules_of(game), store.state_of(game)
    action = {**rules.legal_actions(state, seat)[0], "note": "x"}
    answer = client.post(f"/api/turn/{token}?lang=en", json={"seq": game.seq, "action": action})
    assert answer.status_code == 422
    assert "not one of the actions you may take now" in answer.get_json()["error"]


def test_every_refusal_is_one_type_with_its_status():
    for refusal, status in ((IllegalAction("x"), 422), (store.StaleSeq("x"), 409),
                            (store.NotFound("x"), 404), (links.LinkError(410, "played", "x"), 410),
                            (limits.Refused(429, "x"), 429), (pace.PaceError("x"), 409),
                            (talk.TalkError(400, "x"), 400), (validate.Invalid("x"), 400)):
        assert isinstance(refusal, Refusal) and refusal.status == status, refusal
    assert isinstance(IllegalAction("x"), ValueError)        # the Rules protocol's contract


def test_a_refusal_no_route_answers_gets_the_error_page(app, client):
    @app.route("/test-refusal")
    def refuse():
        raise pace.PaceError("the game is over")
    answer = client.get("/test-refusal")
    assert answer.status_code == 409 and "the game is over" in answer.get_data(as_text=True)


def test_the_command_line_prints_a_refusal_as_one_line(app):
    runner = app.test_cli_runner()
    done = runner.invoke(args=["games", "create", "tigris", "--player", "Ann <ann@example.org>"])
    assert done.exit_code == 1 and "Traceback" not in done.output
    assert "takes 2 to 4 players" in done.output
