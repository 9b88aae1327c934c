"""English and Hungarian: every message in the code and templates has a Hungarian translation
in the merged catalogues (pbem's own and each game's), compiled, and every page and email
renders in both languages without an English sentence left in the Hungarian ones."""
from __future__ import annotations

import gettext
import html
import io
import random
import re
from collections import defaultdict
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from pbem.play import creation
from pbem.mail import mailer
from pbem.games.base import GAME_PACKAGES
from pbem.db.models import Link, Outbox
from tests.conftest import play_at_random, token_of
from tests.conftest import on_sqlite

database_url = on_sqlite     # pages, not storage: SQLite alone

ROOT = Path(__file__).resolve().parents[2]
METHODS = [("pbem/**.py", "python"), ("templates/**.html", "jinja2"),
           ("templates/**.txt", "jinja2")]


def catalogue_paths() -> dict[str, Path]:
    """Each catalogue: pbem's own and each game's, by owner."""
    paths = {"pbem": ROOT / "pbem/translations/hu/LC_MESSAGES/messages.po"}
    for game in GAME_PACKAGES:
        paths[game] = ROOT / f"pbem/games/{game}/translations/hu/LC_MESSAGES/messages.po"
    return paths


def read_catalogue(path: Path):
    with path.open("rb") as f:
        return read_po(f, locale="hu")


def owner_of(filename: str) -> str:
    """Whose catalogue should hold a message found in `filename`."""
    for game in GAME_PACKAGES:
        if filename.startswith(f"pbem/games/{game}/"):
            return game
    return "pbem"


def extracted() -> dict:
    """msgid (or (singular, plural)) -> the files it was found in."""
    found = defaultdict(set)
    for filename, _line, message, _comments, _context in extract_from_dir(str(ROOT), METHODS, {}):
        key = message if isinstance(message, str) else tuple(message)
        if key and (key if isinstance(key, str) else key[0]):
            found[key].add(filename.replace("\\", "/"))
    return found


def test_every_message_has_a_hungarian_translation():
    translated = {}
    for owner, path in catalogue_paths().items():
        if not path.exists():
            continue
        for message in read_catalogue(path):
            if message.id and not message.fuzzy:
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                if all(strings):
                    translated[message.id] = strings
    missing = defaultdict(list)
    for msgid, files in extracted().items():
        if msgid not in translated:
            for filename in sorted(files):
                missing[owner_of(filename)].append(f"{filename}: {msgid!r}")
    report = "\n".join(f"{owner}: {len(lines)} untranslated\n  " + "\n  ".join(lines[:40])
                       for owner, lines in sorted(missing.items()))
    assert not missing, "messages without a Hungarian translation:\n" + report


@pytest.mark.parametrize("owner", sorted(catalogue_paths()))
def test_catalogue_is_complete_unfuzzy_and_compiled(owner):
    path = catalogue_paths()[owner]
    assert path.exists(), f"{owner} has no Hungarian catalogue at {path.relative_to(ROOT)}"
    catalogue = read_catalogue(path)
    fuzzy = [m.id for m in catalogue if m.id and m.fuzzy]
    empty = [m.id for m in catalogue if m.id and not all(
        m.string if isinstance(m.string, tuple) else (m.string,))]
    assert not fuzzy, f"fuzzy entries in {owner}: {fuzzy[:20]}"
    assert not empty, f"empty translations in {owner}: {empty[:20]}"
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)
    compiled.seek(0)
    expected = gettext.GNUTranslations(compiled)._catalog
    mo = path.with_suffix(".mo")
    assert mo.exists(), f"{owner}: {mo.relative_to(ROOT)} is missing: run pybabel compile"
    with mo.open("rb") as f:
        actual = gettext.GNUTranslations(f)._catalog
    assert actual == expected, f"{owner}: the .mo is older than the .po: run pybabel compile"


# -- every page and email in both languages --------------------------------------------------------

TAG = re.compile(r"<script\b.*?</script>|<style\b.*?</style>|<[^>]+>", re.S)
PLACEHOLDER = re.compile(r"%\(|\{")


def visible_text(page: str) -> str:
    return " ".join(html.unescape(TAG.sub(" ", page)).split())


def english_sentences() -> list[str]:
    """Catalogue messages long enough to be recognised, without placeholders, whose
    Hungarian differs: none of them may appear in a Hungarian page or email."""
    sentences = set()
    for path in catalogue_paths().values():
        if path.exists():
            for m in read_catalogue(path):
                if (isinstance(m.id, str) and m.string and m.string != m.id
                        and len(m.id.split()) >= 3 and not PLACEHOLDER.search(m.id)):
                    sentences.add(" ".join(m.id.split()))
    return sorted(sentences)


def assert_hungarian(text: str, where: str) -> None:
    text = " ".join(text.split())
    left = [s for s in english_sentences() if s in text]
    assert not left, f"{where}: English left in the Hungarian text: {left[:10]}"


PLAYERS = [{"name": "Anna", "email": "anna@example.org", "language": "hu"},
           {"name": "Bob", "email": "bob@example.org", "language": "en"}]




def live_token(game, seat_index: int, inbox, email: str) -> str | None:
    for link in reversed(inbox.links_for(email)):
        row = Link.get_or_none(Link.game == game, Link.seat == seat_index, Link.spent_at.is_null())
        if row is not None:
            return token_of(link)
    return None


@pytest.mark.parametrize("rules_name", ["tigris", "tigris_cards", "assyria"])
def test_pages_and_mail_render_in_both_languages(app, client, smtp, rules_name):
    rng = random.Random(rules_name)
    game, host_token = creation.create_game(rules_name, PLAYERS, seed=5,
                                         host_email="host@example.org")
    game = play_at_random(game, 12, rng)
    mailer.send_due()
    tokens = {seat: live_token(game, seat, smtp.inbox, p["email"])
              for seat, p in enumerate(PLAYERS)}
    pages = ["/", "/new", "/games", f"/games/{game.id}", f"/games/{game.id}/replay?step=3",
             f"/host/{host_token}", "/turn/not-a-link", "/games/999"]
    pages += [f"/turn/{t}" for t in tokens.values() if t] + [f"/replay/{t}?step=4"
                                                             for t in tokens.values() if t]
    assert any(tokens.values())
    for language in ("en", "hu"):
        for url in pages:
            answer = client.get(url + ("&" if "?" in url else "?") + f"lang={language}")
            assert answer.status_code in (200, 403, 404), (url, answer.status_code)
            page = answer.get_data(as_text=True)
            assert f'<html lang="{language}">' in page, url
            if language == "hu":
                text = visible_text(page)
                for row in Outbox.select():     # the host page lists mail sent in English too
                    text = text.replace(row.subject, " ")
                assert_hungarian(text, url)
    client.get("/?lang=en")
    hungarian_mail = [m for m in smtp.inbox.messages if m["To"] in ("anna@example.org",
                                                                     "host@example.org")]
    assert {m["To"] for m in hungarian_mail} == {"anna@example.org", "host@example.org"}
    for message in hungarian_mail:
        assert_hungarian(message["Subject"], "subject")
        assert_hungarian(smtp.inbox.text(message), f"text of {message['Subject']}")
        body = message.get_body(preferencelist=("html",)).get_content()
        assert_hungarian(visible_text(body), f"html of {message['Subject']}")
    english = [m for m in smtp.inbox.messages if m["To"] == "bob@example.org"]
    assert english and all("Hello Bob" in smtp.inbox.text(m) for m in english)
    assert all("Szia, Anna" in smtp.inbox.text(m) for m in smtp.inbox.to("anna@example.org"))


def test_game_over_mail_and_pages_in_both_languages(app, client, smtp):
    """Finished games: the ranking, the chart, the archive and the over mail."""
    game, _ = creation.create_game("assyria", PLAYERS, seed=9)
    game = play_at_random(game, 2000, random.Random(9))
    assert game.status == "over"
    mailer.send_due()
    over = [m for m in smtp.inbox.to("anna@example.org") if "Véget ért" in smtp.inbox.headline(m)]
    assert len(over) == 1
    assert "Végeredmény" in smtp.inbox.text(over[0])
    assert_hungarian(smtp.inbox.text(over[0]), "over mail")
    for url in (f"/games/{game.id}", "/games", f"/games/{game.id}/replay?step={game.seq}"):
        page = client.get(url + ("&" if "?" in url else "?") + "lang=hu").get_data(as_text=True)
        assert "Végeredmény" in page or url == "/games", url
        assert_hungarian(visible_text(page), url)
    assert Outbox.select().where(Outbox.kind == "over").count() == 2


def test_the_pages_around_a_move_in_hungarian(app, client, smtp):
    """The new-game form and its answer, "already played" and a fresh-link request."""
    client.get("/?lang=hu")                              # the switch sets a cookie
    form = {"rules": "duel", "name0": "Anna", "email0": "anna@example.org", "language0": "hu",
            "name1": "Bob", "email1": "bob@example.org"}
    created = client.post("/new", data=form, follow_redirects=True).get_data(as_text=True)
    assert "A játék elkészült" in created
    # the host page's mail list shows each subject as sent, in its recipient's language
    assert_hungarian(visible_text(created.split("<h2>Levelek</h2>")[0]), "created")
    wrong = client.post("/new", data={**form, "email1": "nope"})
    assert wrong.status_code == 400 and "érvényes e-mail-cím" in wrong.get_data(as_text=True)
    mailer.send_due()
    token = token_of(smtp.inbox.last_link("anna@example.org"))
    page = client.get(f"/turn/{token}").get_data(as_text=True)
    seq = re.search(r'name="seq" value="(\d+)"', page).group(1)
    action = html.unescape(re.findall(r'name="action" value="([^"]+)"', page)[0])
    renew = client.post(f"/turn/{token}/renew")
    assert renew.status_code == 429 and "Pár perce" in renew.get_data(as_text=True)
    moved = client.post(f"/turn/{token}", data={"seq": seq, "action": action})
    assert moved.status_code == 303
    done = client.get(moved.headers["Location"]).get_data(as_text=True)
    assert "A lépésedet rögzítettük" in done
    assert_hungarian(visible_text(done), "move is in")
    again = client.post(f"/turn/{token}", data={"seq": seq, "action": action})
    assert again.status_code == 409
    assert "Ezt a lépést már megtetted" in again.get_data(as_text=True)
    assert_hungarian(visible_text(again.get_data(as_text=True)), "played")
