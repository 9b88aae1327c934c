"""A game's mail through the real SMTP server: the invitation says which game, who invited and
who plays; every mail of a game to a player keeps one subject and refers to the first one (a
thread in any mail client); turn mails of every game show the player's own holdings and nothing
of another seat's."""
from __future__ import annotations

import random

import pytest

from pbem.play import creation
from pbem.mail import context, mailer
from pbem.log import store
from pbem.present import presenter_for
from tests.conftest import play_at_random

NAMES = ("Ann", "Bob", "Cid")


def players(rules_name):
    return [{"name": n, "email": f"{rules_name}-{n.lower()}@example.org"} for n in NAMES]


def holdings(game, seat):
    """The holdings lines the seat's mail should carry now."""
    rules = store.rules_of(game)
    view = rules.view(store.state_of(game), seat)
    with context.in_language("en"):
        return context.holdings_lines(presenter_for(game.rules), view=view, seat=seat,
                                     names=list(NAMES))


@pytest.mark.parametrize("rules_name", ["tigris", "tigris_cards", "assyria"])
def test_turn_mail_shows_own_holdings_and_no_one_elses(app, smtp, rules_name):
    game, _ = creation.create_game(rules_name, players(rules_name), seed=4)
    mailer.send_due()
    game = store.get_game(game.id)
    seat = store.rules_of(game).to_act(store.state_of(game))[0]
    address = f"{rules_name}-{NAMES[seat].lower()}@example.org"
    mail = smtp.inbox.to(address)[-1]
    text = smtp.inbox.text(mail)
    html = mail.get_body(preferencelist=("html",)).get_content()
    own = holdings(game, seat)
    assert own, "the game shows no holdings in mail"
    for line in own:
        assert f"- {line}" in text and line.replace("&", "&amp;") in html
    for other in range(len(NAMES)):
        for line in set(holdings(game, other)) - set(own):
            assert line not in text and line not in html, f"seat {other}'s holdings"


def title_of_rules(game) -> str:
    from pbem.games import RULES
    return RULES[game.rules].title


@pytest.mark.parametrize("rules_name", ["tigris", "tigris_cards", "assyria"])
def test_invitation_and_threading(app, smtp, rules_name):
    game, _ = creation.create_game(rules_name, players(rules_name), seed=5, title="Friday game")
    play_at_random(game, 12, random.Random(5))
    mailer.send_due()
    for seat, name in enumerate(NAMES):
        mails = smtp.inbox.to(f"{rules_name}-{name.lower()}@example.org")
        invite = mails[0]
        text = smtp.inbox.text(invite)
        assert smtp.inbox.headline(invite).startswith("The host invites you to play ")
        assert "“Friday game”" in text
        assert "Players: " + ", ".join(f"{n} (you)" if n == name else n for n in NAMES) in text
        # the invitation to an address that never played here has a fixed subject (nothing a
        # host wrote); every later mail of the game shares the game's own
        assert invite["Subject"] == f"[pbem] An invitation to play {title_of_rules(game)} by email"
        assert len({m["Subject"] for m in mails[1:]}) == 1 and "Friday game" in mails[1]["Subject"]
        root = invite["Message-ID"]
        assert invite["In-Reply-To"] is None and root.startswith(f"<pbem.{game.id}.seat{seat}.")
        for later in mails[1:]:
            assert later["In-Reply-To"] == root and later["References"] == root
        assert len({m["Message-ID"] for m in mails}) == len(mails)
    bob = smtp.inbox.to(f"{rules_name}-bob@example.org")[0]["Message-ID"]
    assert bob != smtp.inbox.to(f"{rules_name}-ann@example.org")[0]["Message-ID"]


def test_the_invitation_names_the_game_in_each_language(app, smtp):
    ps = players("duel")[:2]
    ps[1]["language"] = "hu"
    creation.create_game("tigris", ps, seed=1)
    mailer.send_due()
    assert "Tigris & Euphrates" in smtp.inbox.headline(smtp.inbox.to(ps[0]["email"])[0])
    assert "Tigris és Eufrátesz" in smtp.inbox.headline(smtp.inbox.to(ps[1]["email"])[0])
