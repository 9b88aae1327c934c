"""Wrong facts and small things: who must act in a Tigris conflict is the one the
players panel marks, the hand never ends on a separator, words come in the singular and the
plural, mail breaks only links, a browser finds its icon, passing says it ends the turn."""
from __future__ import annotations

import pytest

import random
import re

from pbem.play import moves as playing
from pbem.play import creation
from pbem.mail import mailer
from pbem.log import store
from pbem.games import RULES
from pbem.games.base import speaking
from pbem.present import presenter_for
from tests.conftest import Inbox, on_sqlite, token_of

database_url = on_sqlite     # words on pages and in mails, not storage: SQLite alone

PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"},
           {"name": "Cid", "email": "cid@example.org"}]


def to_a_conflict(game):
    """Random play until someone other than the player on turn must decide (a conflict)."""
    rules, rng = store.rules_of(game), random.Random(3)
    for _ in range(3000):
        game = store.get_game(game.id)
        state = store.state_of(game)
        waiting = rules.to_act(state)
        if state["pending"] and waiting and waiting[0] != state["turn"]["active"]:
            return game, state
        actions = rules.legal_actions(state, waiting[0])
        placing = [a for a in actions if a["type"] in ("place_tile", "place_leader")]
        playing.act(game.id, waiting[0], rng.choice(placing or actions), game.seq)
    raise AssertionError("no conflict in 3000 moves")


def panel(html: str) -> dict[str, str]:
    """Each player's entry in the players panel, by name."""
    section = html.split('class="tg-players"', 1)[1].split("</ul>", 1)[0]
    items = re.findall(r"<li[^>]*>.*?</li>", section, re.S)
    return {name: item for item in items for name in ("Ann", "Bob", "Cid") if name in item}


def test_a_tigris_conflict_marks_who_must_act_everywhere(app, client, smtp):
    game, _ = creation.create_game("tigris", PLAYERS, seed=7)
    game, state = to_a_conflict(game)
    mailer.send_due()
    rules = store.rules_of(game)
    deciding = rules.to_act(state)[0]
    active = state["turn"]["active"]
    name, active_name = PLAYERS[deciding]["name"], PLAYERS[active]["name"]
    token = token_of(smtp.inbox.last_link(PLAYERS[deciding]["email"]))
    turn = client.get(f"/turn/{token}").get_data(as_text=True)
    spectator = client.get(f"/games/{game.id}").get_data(as_text=True)
    for html, me in ((turn, True), (spectator, False)):
        entries = panel(html)
        assert 'class="tg-to-act"' in entries[name] and f"<strong>{name}</strong>" in entries[name]
        assert ("you act now" if me else "acts now") in entries[name]
        assert "tg-to-act" not in entries[active_name] and "strong" not in entries[active_name]
        assert "their turn" in entries[active_name]
    assert f"waiting for {name}" in spectator


def test_the_tigris_hand_never_ends_on_a_separator(app):
    presenter = presenter_for("tigris")
    with app.test_request_context("/"):
        view = {"hand": {"red": 2, "blue": 1, "green": 0, "black": 0}}
        assert presenter.hand_items(view) == [("red", 2), ("blue", 1)]
        assert presenter.hand_words(view) == "2 temples · 1 farm"


def test_singular_and_plural_in_the_log():
    """The card game's commitments and the trader's treasures: no "(s)", no "0 cards"."""
    cards, rng = RULES["tigris_cards"], random.Random(2)
    with speaking("en"):
        state = cards.setup(2, 2)
        for _ in range(4000):
            seat = cards.to_act(state)[0]
            actions = cards.legal_actions(state, seat)
            counts = {a["count"] for a in actions if a["type"] == "commit"}
            if {0, 1} <= counts:
                break
            state = cards.apply(state, seat, rng.choice(actions))
        else:
            raise AssertionError("no commitment of 0 or 1 card in 4000 moves")
        none = cards.describe(state, seat, {"type": "commit", "count": 0})
        one = cards.describe(state, seat, {"type": "commit", "count": 1})
    assert "committed no support" in none and "committed 0" not in none
    assert re.search(r"committed 1 \w+ card ", one) and "(s)" not in one


def test_mail_breaks_only_links_and_counts_days(app, app_with, smtp):
    creation.create_game("duel", PLAYERS[:2], seed=1)
    mailer.send_due()
    mail = smtp.inbox.to("ann@example.org")[-1]
    html = mail.get_body(preferencelist=("html",)).get_content()
    for paragraph in re.findall(r"<p[^>]*word-break[^>]*>.*?</p>", html, re.S):
        raise AssertionError(f"a whole paragraph breaks anywhere: {paragraph[:80]}")
    assert re.search(r"<span style=\"word-break:break-all[^\"]*\">http://pbem.test/turn/", html)
    assert "at most 30 days" in smtp.inbox.text(mail)


def test_a_short_link_age_says_one_day(app_with, smtp):
    app_with(smtp.port, LINK_MAX_AGE=3600)
    creation.create_game("duel", PLAYERS[:2], seed=1)
    mailer.send_due()
    text = smtp.inbox.text(smtp.inbox.to("ann@example.org")[-1])
    assert "at most 1 day)" in text and "0 days" not in text


def test_the_favicon_is_served(client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200 and answer.data[:4] == b"\x00\x00\x01\x00"
    assert "max-age" in answer.headers["Cache-Control"]


def test_pass_says_it_ends_the_turn(app):
    presenter = presenter_for("tigris")
    with app.test_request_context("/"):
        assert presenter.label({"type": "pass"}, {"actions_done": 0}) == \
            "Pass: end your turn without acting"
        assert presenter.label({"type": "pass"}, {"actions_done": 1}) == "Pass: end your turn"


@pytest.mark.slow
def test_a_finished_replay_calls_no_other_hand_yours(app, client, smtp):
    from tests.conftest import a_move, play_at_random
    game, _ = creation.create_game("tigris_cards", PLAYERS[:2], seed=4)
    mailer.send_due()
    token = token_of(smtp.inbox.last_link("ann@example.org"))
    game = play_at_random(game, 20000, random.Random(4), pick=a_move)     # to the end
    assert game.status == "over"
    step = game.seq // 2
    spectator = client.get(f"/games/{game.id}/replay?step={step}").get_data(as_text=True)
    assert spectator.count("<h2>Holdings of") == 2 and "Your hand" not in spectator
    assert "Your leaders" not in spectator
    ann = client.get(f"/replay/{token}?step={step}").get_data(as_text=True)
    assert ann.count("Your hand") == 1 and ann.count("Your leaders") == 1
    assert ann.index("Your hand") > ann.index("Holdings of Ann")
    assert ann.index("Holdings of Bob") > ann.index("Your hand")


# words about the result
@pytest.mark.parametrize("rules_name", ["tigris", "tigris_cards", "assyria"])
def test_a_finished_game_says_why_it_ended_and_how_it_is_scored(app, client, smtp, rules_name):
    from tests.conftest import a_move, play_at_random
    game, _ = creation.create_game(rules_name, PLAYERS[:2], seed=3)
    game = play_at_random(game, 20000, random.Random(3), pick=a_move)
    assert game.status == "over"
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert "Why it ended:</strong>" in page and "How it is scored:</strong>" in page
    why = re.search(r"Why it ended:</strong> ([^<]+)<", page).group(1).strip()
    assert why and why != "None"
    magyar = client.get(f"/games/{game.id}?lang=hu").get_data(as_text=True)
    assert "Miért ért véget:" in magyar and "Hogyan számít a pontozás:" in magyar
    app.config["MAILS_PER_RECIPIENT_PER_DAY"] = 10_000     # a card game mails Ann ~150 times
    while mailer.send_due()["sent"]:
        pass
    over = [m for m in smtp.inbox.to("ann@example.org") if "is over" in m["Subject"] or
            "Why it ended" in Inbox.text(m)]
    assert any("How it is scored:" in Inbox.text(m) for m in over)


def test_the_card_game_page_counts_declined_cards_from_the_log(app):
    """A person in the seat reads what the computer believes: at most so many cards of a
    colour in a rival's hand, by its declines and the cards drawn since (hand_record.py)."""
    from flask import render_template
    rules, presenter = RULES["tigris_cards"], presenter_for("tigris_cards")
    state = rules.setup(3, 5)
    names = ["Ann", "Bob", "Cid"]
    with app.test_request_context("/"):
        def page(state) -> str:
            html = render_template(presenter.public_template, view=rules.view(state, 0),
                                   names=names, presenter=presenter)
            return " ".join(re.sub(r"<[^>]+>", " ", html).split())
        assert "Counted from the log" not in page(state)        # nothing declined yet
        state["at_most"][1] = {"black": 0, "red": 2}
        state["at_most"][2] = {"blue": 3}
        assert ("Counted from the log (a declined card or a lost defence, and the cards drawn "
                "since): Bob: at most 0 black, at most 2 red; Cid: at most 3 blue.") in page(state)
    with app.test_request_context("/", headers={"Accept-Language": "hu"}), speaking("hu"):
        assert "A naplóból feljegyezve" in page(state) and "legfeljebb 2 piros" in page(state)
