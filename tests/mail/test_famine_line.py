"""Assyria: huts that famine sends back to stock are named in the log line of the event that
set it off, in every language, and so in the turn mail of the next player."""
from __future__ import annotations

from pbem.play import moves as playing
from pbem.play import creation
from pbem.mail import mailer
from pbem.log import lines, store
from pbem.games import RULES
from tests.games.assyria.helpers import cards, position

PLAYERS = [{"name": "Ann", "email": "ann@example.org"},
           {"name": "Bob", "email": "bob@example.org", "language": "hu"}]


def test_the_famine_is_in_the_event_summaries_and_the_next_mail(app, smtp):
    rules = RULES["assyria"]
    game, _ = creation.create_game("assyria", PLAYERS, seed=4)
    state = position(2, "1,4:R1 1,3:r 2,5:r 4,3:G1", phase="feed", active=0, order=[0, 1])
    state["hands"][0] = cards("grape-3")                  # feeds 1,3 (grape); 2,5 starves
    state["hands"][1] = cards("joker")
    game.state = rules.dump(state)
    game.save()
    mailer.send_due()
    applied = playing.act(game.id, 0, {"type": "feed", "card": "grape-3", "hex": [1, 3]},
                           game.seq)
    event = applied.events[0]
    assert "Famine: {p0}'s unfed hut on 2,5 went back to stock." in lines.text(game, event, "en")
    assert "Éhínség: {p0} ellátatlan kunyhója (2,5) lekerült a tábláról" in \
        lines.text(game, event, "hu")
    assert rules.to_act(applied.state) == [1]
    mailer.send_due()
    text = smtp.inbox.text(smtp.inbox.to("bob@example.org")[-1])
    assert "Éhínség: Ann ellátatlan kunyhója (2,5)" in " ".join(text.split())
