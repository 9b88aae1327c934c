"""Moving by answering the turn mail: reply codes in the API, the Reply-To address of each turn
mail, and replies read from standard input (`pbem mail receive`) and from a real IMAP server
(Dovecot, `pbem mail fetch`)."""
from __future__ import annotations

from pbem.play import moves as playing
from pbem.mail import mailer
from pbem.games.codes import normal
from tests.conftest import token_of

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org"}]


def test_the_api_names_a_reply_code_for_every_action(client, smtp):
    playing.create_game("tigris", PLAYERS, seed=5)
    mailer.send_due()
    for address in ("ann@example.org", "bob@example.org"):
        link = smtp.inbox.last_link(address)
        if link:
            break
    body = client.get(f"/api/turn/{token_of(link)}").get_json()
    assert len(body["codes"]) == len(body["actions"]) > 100
    assert len({normal(c) for c in body["codes"]}) == len(body["codes"])
    tile = next(i for i, a in enumerate(body["actions"]) if a["type"] == "place_tile")
    assert body["codes"][tile].startswith(body["actions"][tile]["color"] + " ")
    answer = client.post(f"/api/turn/{token_of(link)}",
                         json={"seq": body["seq"], "action": body["actions"][tile]}).get_json()
    assert len(answer["codes"]) == len(answer["actions"])
