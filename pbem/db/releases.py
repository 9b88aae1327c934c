"""Which migrations each release shipped, so that a rollback undoes one release's and no more.

A release is a version CHANGELOG.md dates (`## 0.3.1 (2026-12-03)`) and pbem/__init__.py says
at the commit that dated it; between releases the package calls itself a development version
(`0.3.2.dev0`) of the next one. RELEASES names each release's newest migration: rolling back to
a release undoes the migrations newer than that one (tests/ops/test_releases_table.py checks the
table against CHANGELOG.md and migrations/)."""
from __future__ import annotations

import re

RELEASES: tuple[tuple[str, str], ...] = (      # (release, its newest migration), oldest first
    ("0.1.0", "006_heartbeat"),
    ("0.2.1", "009_pace_failure"),
    ("0.3.0", "019_time_zone"),
    ("0.3.1", "020_played_by"),
)

VERSION = re.compile(r"(\d+)\.(\d+)\.(\d+)(?:\.dev(\d+))?")


class UnknownRelease(ValueError):
    """A version that is no release this pbem knows, said in words."""


def order(version: str) -> tuple[int, ...]:
    """A version's place: 0.3.2.dev0 comes after 0.3.1 and before 0.3.2."""
    match = VERSION.fullmatch(version.strip())
    if not match:
        raise UnknownRelease(f"{version!r} is not a version (write it as 0.3.1)")
    major, minor, patch, dev = match.groups()
    return (int(major), int(minor), int(patch), 0 if dev is not None else 1, int(dev or 0))


def newest_migration(release: str) -> str:
    """The newest migration `release` shipped."""
    shipped = dict(RELEASES)
    if release not in shipped:
        raise UnknownRelease(f"{release} is not a release this pbem knows (releases: "
                             + ", ".join(name for name, _ in RELEASES) + ")")
    return shipped[release]


def previous(installed: str) -> str | None:
    """The release before `installed` (a release or a development version), or None."""
    place = order(installed)
    older = [name for name, _ in RELEASES if order(name) < place]
    return older[-1] if older else None


def number(migration: str) -> str:
    """A migration's number: "019" of "019_time_zone"."""
    return migration.split("_", 1)[0]
