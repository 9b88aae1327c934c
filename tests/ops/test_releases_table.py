"""The package's table of releases (pbem/db/releases.py: release -> its newest migration) agrees
with CHANGELOG.md and migrations/: the same releases, each entry's migrations ending at the
table's, each "to go back to" naming the table's target, every migration file shipped by a
release or listed under "Unreleased"; and the package's version is the newest release (at a
release commit) or a development version after it, never one a release already has; the
deploy guide installs the newest release by default."""
from __future__ import annotations

import re

from pbem import __version__
from pbem.db import releases
from tests.install.conftest import ROOT

HEADING = re.compile(r"^## (\S+)(?: \((.+)\))?$", re.M)
MIGRATION = re.compile(r"`(\d{3}_[a-z0-9_]+)`")
GO_BACK = re.compile(r"to go back to (\S+?): `pbem db rollback (?:--release (\S+)|--to (\d{3}))`")
UNRELEASED = "Unreleased"


def changelog() -> list[tuple[str, str | None, str]]:
    """(heading, its date or None, its text), newest first."""
    text = (ROOT / "CHANGELOG.md").read_text()
    found = list(HEADING.finditer(text))
    return [(m.group(1), m.group(2), text[m.end():found[i + 1].start() if i + 1 < len(found)
                                           else len(text)])
            for i, m in enumerate(found)]


def migration_files() -> list[str]:
    return sorted(p.stem for p in (ROOT / "migrations").glob("[0-9][0-9][0-9]_*.py"))


def test_the_table_has_the_changelog_s_releases_in_order():
    named = [heading for heading, _date, _text in changelog() if heading != UNRELEASED]
    assert named == [release for release, _ in reversed(releases.RELEASES)]
    orders = [releases.order(release) for release, _ in releases.RELEASES]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)


def test_each_release_s_newest_migration_is_its_entry_s_newest():
    entries = {heading: text for heading, _date, text in changelog()}
    files = migration_files()
    shipped_before = "000"
    for release, newest in releases.RELEASES:
        assert newest in files, newest
        named = MIGRATION.findall(entries[release])
        assert all(name in files for name in named), named
        assert (max(named) if named else shipped_before) == newest, release
        shipped_before = newest


def test_each_way_back_names_the_table_s_target():
    seen = 0
    for heading, _date, text in changelog():
        for older, release, number in GO_BACK.findall(text):
            seen += 1
            if release:
                assert release == older
            else:
                assert number == releases.number(releases.newest_migration(older)), heading
            assert releases.previous(heading if heading != UNRELEASED else __version__) == older
    assert seen >= 3


def test_every_migration_is_a_release_s_or_unreleased():
    last_release, last_newest = releases.RELEASES[-1]
    newer = [name for name in migration_files() if name > last_newest]
    entries = changelog()
    unreleased = [text for heading, _date, text in entries if heading == UNRELEASED]
    if newer:
        assert unreleased and set(newer) <= set(MIGRATION.findall(unreleased[0])), newer
    if unreleased:
        assert entries[0][0] == UNRELEASED and len(unreleased) == 1


def test_the_version_is_the_newest_release_or_a_development_version_after_it():
    last_release = releases.RELEASES[-1][0]
    heading, date, _text = changelog()[0]
    if heading == UNRELEASED:
        assert ".dev" in __version__
        assert releases.order(__version__) > releases.order(last_release)
        assert releases.previous(__version__) == last_release
    else:
        assert __version__ == heading == last_release
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", date or ""), "a release's entry has its date"


def test_the_deploy_guide_installs_the_newest_release_by_default():
    guide = (ROOT / "deploy" / "README.md").read_text()
    assert re.findall(r"^PBEM_RELEASE=\$\{PBEM_RELEASE:-(.+)\}$", guide, re.M) == [
        releases.RELEASES[-1][0]]
