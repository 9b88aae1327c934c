"""The docs state only what runs: every command line in a `sh` block of README.md and docs/*.md
is run here as written (a `pbem` command in process, against a scratch SQLite database and the
real SMTP fixture; a `make` target by `make -n`), in the order the docs give them, and must
exit 0. A command line the test cannot run (another program, or a `pbem` or `make` line
outside a `sh` block) fails it, and so does a `pbem ...` named in the prose that is not a
command with those options: docs and tests cannot drift apart.

Words in capitals in a command (GAME_ID, EMAIL, ...) are filled in from PLACEHOLDERS, once
the state they name is built (a game, a waiting mail, a commitment). Each `pbem` command gets
a fresh copy of that database; files it writes (an export, a backup) stay for the commands
after it, as they would in a reader's shell. Servers (`pbem dev`, `pbem run`,
`pbem mail worker`) run as processes until they answer, then stop on ^C.

Besides: README.md is at most 150 lines, every relative link of the docs reaches a file (and
its anchor), and every PBEM_* setting pbem reads is in docs/settings.md."""
from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
import requests
from click.testing import CliRunner

from pbem.config import DEFAULTS
from pbem.ops.cli import cli as pbem_cli
from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_MOST_LINES = 150

FENCE = re.compile(r"^( *)```(\w*)[^\n]*\n(.*?)^\1```", re.S | re.M)
INLINE = re.compile(r"`((?:pbem|make) [^`]+)`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|^[A-Z]{4,}$")

# A strong key: the commands run as on a production server, so that `pbem check` passes.
SECRET_KEY = "Zq8wR2x" + "k3Vn9LpT4sY6bHc1JmG5fD7aE0uW-_QiXoP"
# `pbem ...` commands that serve until stopped: started as processes, checked, stopped by ^C.
SERVERS = {("dev",), ("run",), ("mail", "worker")}


# -- reading the docs ----------------------------------------------------------------------------

def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of each fenced block, its indentation taken off."""
    blocks = []
    for match in FENCE.finditer(text):
        indent = len(match.group(1))
        body = "\n".join(line[indent:] for line in match.group(3).splitlines())
        blocks.append((match.group(2), body))
    return blocks


def command_lines(block: str) -> list[str]:
    """A `sh` block's commands: a trailing backslash joins lines, `#` starts a comment."""
    joined = re.sub(r"\\\n\s*", " ", block)
    return [line.strip() for line in joined.splitlines()
            if line.strip() and not line.strip().startswith("#")]


def stated_commands() -> list[tuple[str, str]]:
    """(doc, command line) of every `sh` block of the docs, in reading order."""
    return [(doc.relative_to(ROOT).as_posix(), line) for doc in DOCS
            for language, body in fenced_blocks(doc.read_text()) if language == "sh"
            for line in command_lines(body)]


def prose(text: str) -> str:
    return FENCE.sub("", text)


# -- the placeholders and the state they name ----------------------------------------------------

PLACEHOLDERS = {          # the word in the docs -> how the test fills it in (see `filled`)
    "GAME_ID": "the id of the prepared game",
    "EMAIL": "a player of the prepared game",
    "DAYS": "a number of days",
    "MAIL_ID": "a mail of the prepared game not sent yet",
    "COMMITMENT": "the prepared game's commitment",
    "WEBHOOK_URL": "a chat webhook on this machine",
}


class Scratch:
    """A migrated SQLite database holding a game whose mail went out and a second whose
    mail waits, the SMTP fixture, and the folder the commands run in."""

    def __init__(self, folder: Path, smtp_port: int):
        self.folder = folder
        self.settings = folder / "pbem.env"
        self.settings.write_text("# the docs' commands read their settings from the environment\n")
        self.base = folder / "prepared.db"
        self.smtp_port = smtp_port
        self.copies = 0
        self.values: dict[str, str] = {}

    def environment(self, database: Path, **extra) -> dict:
        return {"PBEM_CONFIG": str(self.settings), "PBEM_ENV": "production",
                "PBEM_SECRET_KEY": SECRET_KEY, "PBEM_DATABASE_URL": f"sqlite:///{database}",
                "PBEM_BASE_URL": "https://pbem.example.org", "PBEM_MAIL_SERVER": "127.0.0.1",
                "PBEM_MAIL_PORT": str(self.smtp_port), "PBEM_MAIL_TIMEOUT": "5",
                "PBEM_WEBHOOK_ALLOW_PRIVATE": "true", "PBEM_BOT_ITERATIONS": "5",
                "PBEM_BOT_SECONDS": "0.05", "PBEM_GUNICORN_CONF": None, "PBEM_NGINX_SITE": None,
                "PBEM_CHROMIUM": None, **extra}

    def invoke(self, args: list[str], database: Path | None = None, input: str | None = None):
        return CliRunner().invoke(pbem_cli, args, env=self.environment(database or self.base),
                                  input=input, catch_exceptions=True)

    def prepare(self) -> None:
        def ok(*args):
            done = self.invoke(list(args))
            assert done.exit_code == 0, (args, done.output, done.exception)
            return done.output
        ok("db", "upgrade")
        game = ok("games", "create", "tigris", "--player", "Ann <ann@example.org>",
                  "--player", "Bob <bob@example.org>", "--host-email", "host@example.org",
                  "--pace", "3").split()[0]
        ok("mail", "send")                                   # also /health's heartbeat
        ok("games", "create", "assyria", "--player", "Cid <cid@example.org>",
           "--player", "Dee <dee@example.org>")              # its mail waits
        waiting = ok("mail", "list", "--waiting").split("\t")[0]
        record = self.folder / "prepared.json"
        ok("games", "export", game, "-o", str(record))
        import json
        commitment = json.loads(record.read_text())["commitment"]
        record.unlink()
        self.values = {"GAME_ID": game, "EMAIL": "ann@example.org", "DAYS": "7",
                       "MAIL_ID": waiting, "COMMITMENT": commitment,
                       "WEBHOOK_URL": f"http://127.0.0.1:{free_port()}/hooks/chat"}
        assert set(self.values) == set(PLACEHOLDERS)

    def fresh_copy(self) -> Path:
        self.copies += 1
        copy = self.folder / "databases" / f"{self.copies}.db"
        copy.parent.mkdir(exist_ok=True)
        shutil.copyfile(self.base, copy)
        return copy

    def filled(self, tokens: list[str]) -> list[str]:
        return [self.values.get(token, token) for token in tokens]

    # -- running one command line ---------------------------------------------------------------

    def run(self, line: str) -> str | None:
        """None when the line ran as the docs say, else what went wrong."""
        tokens = shlex.split(line, comments=True)
        unknown = [t for t in tokens if PLACEHOLDER.match(t) and t not in PLACEHOLDERS]
        if unknown:
            return f"no value for {', '.join(unknown)}: add it to PLACEHOLDERS"
        if tokens[0] == "make":
            return run_make(tokens[1:])
        if tokens[0] != "pbem":
            return "no test runs this command: state only `pbem` and `make` commands in sh blocks"
        args = self.filled(tokens[1:])
        if is_server(args):
            return self.serve([args])[0]
        done = self.invoke(args, self.fresh_copy(), input="y\n")
        if done.exit_code != 0:
            return f"exit {done.exit_code}: {done.output.strip()[-500:]} {done.exception or ''}"
        if "Traceback" in done.output:
            return done.output[-1000:]
        return None

    def serve(self, servers: list[list[str]]) -> list[str | None]:
        """Start the servers at once, see each answer, stop each with ^C: each must stop
        cleanly (exit 0). None for each that did, else what went wrong."""
        started = [self.start(args) for args in servers]
        return [self.stop(*server) for server in started]

    def start(self, args: list[str]):
        port, catcher = free_port(), free_port()
        database = self.fresh_copy()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "FLASK_"))}
        env.update({k: v for k, v in self.environment(database).items() if v is not None})
        env["PYTHONFAULTHANDLER"] = "1"      # a server that hangs on ^C shows where (`stop`)
        env.update(PBEM_ENV="development", PBEM_BASE_URL=f"http://127.0.0.1:{port}",
                   PBEM_MAIL_PORT=str(catcher), PBEM_MAIL_CATCHER_DIR=str(self.folder / "mail"),
                   FLASK_DEV_PORT=str(port), FLASK_RUN_PORT=str(port))
        del env["PBEM_SECRET_KEY"]                           # development's own key
        if args[0] == "mail":                                # the worker sends to the fixture
            env["PBEM_MAIL_PORT"] = str(self.smtp_port)
        log = self.folder / f"server-{self.copies}.log"
        with open(log, "wb") as output:
            process = subprocess.Popen([sys.executable, "-m", "pbem.ops.cli", *args],
                                       cwd=self.folder, env=env, stdout=output,
                                       stderr=subprocess.STDOUT)
        if args[0] == "mail":
            def ready():
                return "sending through" in log.read_text()
        else:
            def ready():
                return answers(port)
        return process, ready, log

    @staticmethod
    def stop(process, ready, log) -> str | None:
        try:
            answered = wait_until(ready, process)
            process.send_signal(signal.SIGINT)
            try:
                code = process.wait(timeout=20)
            except subprocess.TimeoutExpired:   # every thread's stack into the log, then out
                process.send_signal(signal.SIGABRT)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    pass
                return f"still running 20 s after ^C; its threads: {log.read_text()[-4000:]}"
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        text = log.read_text()
        if not answered:
            return f"never came up: {text[-800:]}"
        if code != 0 or "Traceback" in text:
            return f"exit {code} on ^C: {text[-800:]}"
        return None


def is_server(args: list[str]) -> bool:
    return tuple(args[:1]) in SERVERS or tuple(args[:2]) in SERVERS


def answers(port: int) -> bool:
    try:
        return requests.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code < 500
    except requests.RequestException:
        return False


def wait_until(condition, process, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        if condition():
            return True
        time.sleep(0.1)
    return False


def run_make(args: list[str]) -> str | None:
    """`make -n ARGS` must succeed, and the test files PYTEST_ARGS names must exist."""
    done = subprocess.run(["make", "-n", *args], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        return f"make -n {' '.join(args)}: {done.stderr.strip()[-300:]}"
    named = [word for arg in args if arg.startswith("PYTEST_ARGS=")
             for word in arg.split("=", 1)[1].split() if word.startswith("tests/")]
    missing = [name for name in named if not (ROOT / name.split("::")[0]).exists()]
    return f"no such test file: {', '.join(missing)}" if missing else None


@pytest.fixture(scope="module")
def scratch(tmp_path_factory, smtp_server):
    folder = tmp_path_factory.mktemp("docs")
    state = Scratch(folder, smtp_server.port)
    state.prepare()
    return state


@pytest.fixture(scope="module")
def smtp_server():
    from tests.conftest import SMTPServer
    server = SMTPServer().start()
    yield server
    server.stop()


# -- the tests -----------------------------------------------------------------------------------

def words(line: str) -> list[str]:
    return shlex.split(line, comments=True)


def test_every_pbem_command_the_docs_state_runs_as_written(scratch, monkeypatch):
    """In the docs' order: a command may read what one before it wrote (game.json, backup.db)."""
    monkeypatch.chdir(scratch.folder)
    stated = [(doc, line) for doc, line in stated_commands()
              if not (words(line)[0] == "pbem" and is_server(words(line)[1:]))
              and words(line)[0] != "make"]
    assert sum(words(line)[0] == "pbem" for _, line in stated) >= 30
    failures = [f"{doc}: {line}\n    {why}" for doc, line in stated
                if (why := scratch.run(line)) is not None]
    assert not failures, "\n".join(failures)


def test_the_servers_the_docs_name_start_answer_and_stop(scratch):
    servers = [(doc, line) for doc, line in stated_commands()
               if words(line)[0] == "pbem" and is_server(words(line)[1:])]
    assert {tuple(words(line)[1:3]) if words(line)[1] == "mail" else (words(line)[1],)
            for _, line in servers} == SERVERS
    outcomes = scratch.serve([scratch.filled(words(line)[1:]) for _, line in servers])
    failures = [f"{doc}: {line}\n    {why}" for (doc, line), why in zip(servers, outcomes) if why]
    assert not failures, "\n".join(failures)


def test_every_make_command_the_docs_state_is_a_target_of_the_makefile():
    stated = [(doc, line) for doc, line in stated_commands() if words(line)[0] == "make"]
    assert {words(line)[1] for _, line in stated} >= {"run", "test", "quick", "bench", "fuzz"}
    failures = [f"{doc}: {line}\n    {why}" for doc, line in stated
                if (why := run_make(words(line)[1:])) is not None]
    assert not failures, "\n".join(failures)


def test_commands_stand_only_in_sh_blocks():
    """A command in another block or an indented one would go untested: it must be in `sh`."""
    misplaced = []
    for doc in DOCS:
        text = doc.read_text()
        for language, body in fenced_blocks(text):
            if language != "sh":
                misplaced += [f"{doc.name} ({language or 'no language'}): {line.strip()}"
                              for line in body.splitlines()
                              if re.match(r"\s*(\$ )?(pbem|make) ", line)]
        misplaced += [f"{doc.name} (indented): {line.strip()}"
                      for line in prose(text).splitlines()
                      if re.match(r" {4,}(\$ )?(pbem|make) \S", line)]
    assert not misplaced, "\n".join(misplaced)


def test_each_placeholder_the_commands_use_is_explained_in_the_command_guide():
    used = {token for _, line in stated_commands() for token in shlex.split(line, comments=True)
            if PLACEHOLDER.match(token)}
    guide = (ROOT / "docs" / "commands.md").read_text()
    assert used and used <= set(PLACEHOLDERS)
    assert [word for word in PLACEHOLDERS if f"| `{word}` |" not in guide] == []


def resolve(tokens: list[str]) -> str | None:
    """None when `pbem TOKENS` names a command and only options it has, else why not."""
    command, ctx = pbem_cli, click.Context(pbem_cli)
    rest = list(tokens)
    while isinstance(command, click.Group) and rest and not rest[0].startswith("-"):
        word = rest[0]
        if PLACEHOLDER.match(word) or word in ("...", "…"):
            return None                           # `pbem COMMAND --help`
        found = command.get_command(ctx, word)
        if found is None:
            return f"there is no command {word!r}"
        command, rest = found, rest[1:]
    names = {name for param in command.params for name in getattr(param, "opts", [])}
    names |= {name for param in command.params for name in getattr(param, "secondary_opts", [])}
    names.add("--help")
    wrong = [t.split("=")[0] for t in rest
             if t.startswith("--") and t.split("=")[0] not in names]
    return f"{command.name} has no option {', '.join(wrong)}" if wrong else None


def test_every_pbem_command_named_in_the_prose_exists_with_its_options():
    wrong = []
    for doc in DOCS:
        for span in INLINE.findall(prose(doc.read_text())):
            words = span.replace("|", " ").split()
            if words[0] == "pbem":
                why = resolve([w for w in words[1:] if not w.startswith(("<", "[", "("))])
            else:
                target = next((w for w in words[1:] if "=" not in w), None)
                why = run_make([target] if target else [])
            if why:
                wrong.append(f"{doc.name}: `{span}`: {why}")
    assert not wrong, "\n".join(wrong)


def test_the_readme_is_a_front_door_of_at_most_150_lines():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= README_MOST_LINES, f"README.md has {len(lines)} lines"
    text = "\n".join(lines)
    for target in ("make run", "make test", "make quick", "make bench", "make fuzz",
                   "deploy/README.md", "docs/README.md"):
        assert target in text, target


def anchors(path: Path) -> set[str]:
    """GitHub's anchors for a markdown file: each heading's slug, and every <a id>."""
    text = path.read_text()
    found = set(re.findall(r'<a id="([^"]+)"', text))
    for heading in re.findall(r"^#{1,6} (.+)$", prose(text), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


def test_every_relative_link_reaches_a_file_and_its_anchor():
    broken = []
    for doc in DOCS:
        for target in LINK.findall(prose(doc.read_text())):
            if re.match(r"[a-z]+:", target):
                continue                                  # http:, https:, mailto:
            path, _, anchor = target.partition("#")
            file = (doc.parent / path).resolve() if path else doc
            if not file.exists():
                broken.append(f"{doc.relative_to(ROOT)}: {target}: no such file")
            elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                broken.append(f"{doc.relative_to(ROOT)}: {target}: no such heading")
    assert not broken, "\n".join(broken)


def test_every_setting_pbem_reads_is_in_the_settings_doc():
    settings = (ROOT / "docs" / "settings.md").read_text()
    read = {f"PBEM_{key}" for key in DEFAULTS}
    for folder in ("pbem", "deploy", "tests"):
        for source in (ROOT / folder).rglob("*.py"):
            read |= set(re.findall(r"environ(?:\.get)?[\[(]\"(PBEM_[A-Z_]+)\"", source.read_text()))
    named = set(re.findall(r"PBEM_[A-Z_]+", settings))
    # a row may name parts by their tail: `PBEM_DATABASE_HOST`, `_PORT`, ...
    for row in re.findall(r"^\| `(PBEM_[A-Z_]+)`((?:, `_[A-Z]+`)+)", settings, re.M):
        stem = row[0].rsplit("_", 1)[0]
        named |= {stem + tail for tail in re.findall(r"`(_[A-Z]+)`", row[1])}
    missing = sorted(read - named)
    assert not missing, f"not in docs/settings.md: {', '.join(missing)}"
