"""`pbem db rollback` undoes no more than a release: `--release X` goes back to the migrations
release X shipped, and `--yes` (the guide's scripted rollback) refuses any target older than
the release before the installed one, with nothing undone. Asked, an operator may go further,
and is told that it goes past the previous release."""
from __future__ import annotations

import pytest

from pbem import __version__
from pbem.db import database, releases
from tests.ops.test_cli import new_game


@pytest.fixture
def run(app):
    runner = app.test_cli_runner()

    def invoke(*args, answer=None):
        return runner.invoke(args=["db", "rollback", *args], input=answer)
    return invoke


def previous_release() -> tuple[str, str]:
    """(the release before the installed pbem, its newest migration)."""
    before = releases.previous(__version__)
    return before, releases.newest_migration(before)


def test_yes_refuses_to_go_back_past_the_previous_release(run):
    """The guide's old default, --to 006 --yes, undid 14 migrations and their data."""
    new_game()
    applied = database.applied()
    before, floor = previous_release()
    out = run("--to", "006", "--yes")
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert f"--yes undoes only what pbem {__version__} brought since {before}" in out.output
    assert "Nothing was undone" in out.output and f"--release {before}" in out.output
    assert database.applied() == applied
    out = run("--to", "000", "--yes")
    assert out.exit_code == 1 and database.applied() == applied


def test_release_goes_back_to_what_that_release_shipped(run):
    before, floor = previous_release()
    out = run("--release", before, "--yes")
    assert out.exit_code == 0, out.output
    assert database.applied()[-1] == floor
    again = run("--release", before, "--yes")
    assert again.exit_code == 0 and f"nothing to undo: the newest migration applied is {floor}" \
        in again.output


def test_going_past_the_previous_release_is_asked_and_said(run):
    """Two releases back, asked: it lists what it undoes, says it goes past the previous
    release, and undoes them when the operator says yes."""
    before, floor = previous_release()
    older = releases.previous(before)
    older_floor = releases.newest_migration(older)
    expected = [m for m in reversed(database.applied()) if m > older_floor]
    out = run("--release", older, answer="n\n")
    assert out.exit_code == 1 and "Aborted" in out.output
    assert "this undoes, newest first: " + ", ".join(expected) in out.output
    assert f"careful: that goes back past {before} (its newest migration is {floor})" in out.output
    assert database.applied()[-1] != older_floor
    out = run("--release", older, answer="y\n")
    assert out.exit_code == 0, out.output
    assert "rolled back: " + ", ".join(expected) in out.output
    assert database.applied()[-1] == older_floor
    assert "nothing to undo" in run("--release", older, "--yes").output


def test_release_must_be_an_older_known_release(run):
    applied = database.applied()
    for args, said in [(("--release", __version__), f"pbem {__version__} is installed"),
                       (("--release", "9.0.0"), f"pbem {__version__} is installed"),
                       (("--release", "0.2.0"), "0.2.0 is not a release this pbem knows"),
                       (("--release", "0.3"), "'0.3' is not a version"),
                       ((), "name the release to go back to"),
                       (("--release", "0.1.0", "--to", "006"), "name the release to go back to")]:
        out = run(*args)
        assert out.exit_code != 0 and said in out.output, (args, out.output)
        assert "Traceback" not in out.output
    assert database.applied() == applied


def test_the_previous_release_of_a_development_version_is_the_last_release():
    assert releases.previous("0.3.2.dev0") == "0.3.1"
    assert releases.previous("0.3.1") == "0.3.0"
    assert releases.previous("0.3.0") == "0.2.1"
    assert releases.previous("0.1.0") is None
    assert releases.order("0.3.1") < releases.order("0.3.2.dev0") < releases.order("0.3.2")
    assert releases.order("0.3.10") > releases.order("0.3.9")
