"""Every target on every board has a name a screen reader can say (its aria-label or its
text), in English and in Hungarian, before a piece is picked and after (`?pick=`); a picked
piece names what its places do ("Place a temple on %s"), in the page's language."""
from __future__ import annotations

import random
from html.parser import HTMLParser

import pytest
from flask import render_template

from pbem.games import RULES
from pbem.games.base import speaking
from pbem.present import choices as make_choices, presenter_for
from tests.conftest import make_app

GAMES = ("tigris", "tigris_cards", "assyria")
PARTS = ("board_template", "public_template", "holdings_template")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Targets(HTMLParser):
    """Each element with a `data-tap`: its attributes and the text inside it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found, self.open = [], []

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        attrs = dict(attrs)
        entry = None
        if "data-tap" in attrs:
            entry = {"tag": tag, "attrs": attrs, "text": []}
            self.found.append(entry)
        hidden = attrs.get("aria-hidden") == "true" or tag == "title"
        self.open.append((tag, entry, hidden))

    def handle_startendtag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-tap" in attrs:
            self.found.append({"tag": tag, "attrs": attrs, "text": []})

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data):
        if any(hidden for _t, _e, hidden in self.open):
            return
        for _tag, entry, _hidden in self.open:
            if entry is not None:
                entry["text"].append(data)


def targets(html: str) -> list[dict]:
    parser = Targets()
    parser.feed(html)
    return parser.found


def accessible_name(target: dict) -> str:
    return (target["attrs"].get("aria-label") or "".join(target["text"])).strip()


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return make_app(f"sqlite:///{tmp_path_factory.mktemp('names') / 'pages.db'}", 25)


def positions(rules_name, seed, every=7, moves=140):
    """(state, seat) of a random game: every `every`-th decision."""
    rules = RULES[rules_name]
    state = rules.setup(2 + seed % 2, seed)
    rng = random.Random(seed)
    for n in range(moves):
        waiting = rules.to_act(state)
        if not waiting:
            return
        if n % every == 0:
            yield state, waiting[0]
        state = rules.apply(state, waiting[0], rng.choice(rules.legal_actions(state, waiting[0])))


def render(app, rules_name, state, seat, language, pick=None):
    rules, presenter = RULES[rules_name], presenter_for(rules_name)
    with app.test_request_context(f"/?lang={language}"), speaking(language):
        view = rules.view(state, seat)
        choices = make_choices(presenter, rules.legal_actions(state, seat), view,
                               lambda a: rules.describe(state, seat, a))
        players = len(view["players"]) if isinstance(view["players"], list) else view["players"]
        names = [f"P{i}" for i in range(players)]
        html = "".join(render_template(getattr(presenter, part), view=view, seat=seat,
                                       choices=choices, names=names, presenter=presenter,
                                       payload={}, game=None, pick=pick)
                       for part in PARTS)
        return html, choices


def two_step_picks(choices) -> list[str]:
    """The first taps that pick a piece (more taps follow)."""
    return sorted(token for token, group in choices.groups.items()
                  if any(len(c.taps) > 1 for c in group))


@pytest.mark.parametrize("language", ["en", "hu"])
@pytest.mark.parametrize("rules_name", GAMES)
def test_every_board_target_has_a_name_before_and_after_a_pick(app, rules_name, language):
    picked = drawn = 0
    for seed in (1, 2):
        for state, seat in positions(rules_name, seed):
            html, choices = render(app, rules_name, state, seat, language)
            pages = [html]
            for token in two_step_picks(choices)[:2]:
                pages.append(render(app, rules_name, state, seat, language, pick=token)[0])
                picked += 1
            for page in pages:
                for target in targets(page):
                    drawn += 1
                    assert accessible_name(target), (rules_name, language, target)
    assert drawn > 1000 and picked > 10, (drawn, picked)


@pytest.mark.parametrize("rules_name", GAMES)
def test_a_picked_piece_says_what_its_places_do_in_the_pages_language(app, rules_name):
    said = {}
    for language in ("en", "hu"):
        patterns = set()
        for state, seat in positions(rules_name, 3, every=3):
            html, _choices = render(app, rules_name, state, seat, language)
            for target in targets(html):
                then = target["attrs"].get("data-then")
                if then:
                    assert then.count("%s") == 1, then
                    patterns.add(then)
        said[language] = patterns
    assert said["en"] and said["hu"]
    assert not said["en"] & said["hu"], "untranslated: " + ", ".join(said["en"] & said["hu"])


def test_a_tigris_square_says_where_it_is_and_its_ground(app):
    state = RULES["tigris"].setup(2, 1)
    for language, river, land in (("en", "river", "land"), ("hu", "folyó", "szárazföld")):
        html, _choices = render(app, "tigris", state, 0, language)
        names = {t["attrs"]["data-tap"]: accessible_name(t) for t in targets(html)}
        grounds = {name.split(", ", 1)[1].split(":")[0] for token, name in names.items()
                   if token.startswith("sq:")}
        assert grounds == {river, land}, grounds
        assert names["sq:0-0"].startswith("A1, ")


# -- the board in words, in the turn mail's plain text --------------------------------------------

@pytest.mark.parametrize("rules_name", GAMES)
def test_the_turn_mail_spells_the_board_out_row_by_row(app, rules_name):
    from pbem.db.models import Outbox, db
    from pbem.log import store
    from pbem.mail import compose
    from pbem.play import creation
    with app.app_context():
        db.connect(reuse_if_open=True)
        people = [{"name": "Anna", "email": f"{rules_name}-anna@example.org", "language": "hu"},
                  {"name": "Bob", "email": f"{rules_name}-bob@example.org", "language": "en"}]
        game, _ = creation.create_game(rules_name, people, seed=6)
        texts = {row.recipient: compose.render(row).body_text for row in
                 Outbox.select().where(Outbox.game == game, Outbox.kind == "turn")}
        state = store.state_of(game)
    assert texts, "no turn mail"
    rules, presenter = RULES[rules_name], presenter_for(rules_name)
    for who in people:
        if who["email"] not in texts:
            continue
        seat = people.index(who)
        with speaking(who["language"]):
            lines = presenter.board_lines(rules.view(state, seat), ["Anna", "Bob"], seat)
        heading = {"en": "The board, row by row", "hu": "A tábla soronként"}[who["language"]]
        text = texts[who["email"]]
        assert heading in text
        for line in lines:
            assert f"- {line}\n" in text, (who["language"], line)


def test_the_tigris_board_in_words_has_every_row_and_every_piece(app):
    rules, presenter = RULES["tigris"], presenter_for("tigris")
    for state, seat in positions("tigris", 5, every=20):
        view = rules.view(state, seat)
        with speaking("en"):
            lines = presenter.board_lines(view, ["Ann", "Bob", "Cy"], seat)
        rows = [line for line in lines if line.startswith("Row ")]
        assert [line.split(" – ")[0] for line in rows] == [f"Row {n}" for n in range(1, 12)]
        text = "\n".join(lines)
        for tile in view["tiles"]:
            assert f"{tile['square']}: " in text
        for leader in view["leaders"]:
            assert f"{leader['square']}: " in text
        assert text.count("Monument ") == sum(1 for at in view["monuments"].values() if at)
