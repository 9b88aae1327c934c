"""Settings: defaults, overridden by the settings file, by PBEM_* environment variables, then by
create_app(config).

The settings file is the one systemd reads (`EnvironmentFile=/etc/pbem/pbem.env`): pbem reads
it itself when PBEM_CONFIG names it, or else when /etc/pbem/pbem.env exists, so that
`sudo -u pbem pbem ...` sees what the services see. It is parsed the way systemd parses an
EnvironmentFile; a variable already set in the environment wins over the file.
"""
from __future__ import annotations

import itertools
import math
import os
from pathlib import Path

DEFAULTS = {
    "ENV": "production",                  # PBEM_ENV=development for `make run`
    "DATABASE_URL": "sqlite:///instance/pbem.db",
    # PostgreSQL by parts (each overrides the URL's part): a password needs no quoting here.
    "DATABASE_HOST": None,
    "DATABASE_PORT": None,
    "DATABASE_NAME": None,
    "DATABASE_USER": None,
    "DATABASE_PASSWORD": None,
    "SECRET_KEY": None,
    "BASE_URL": "http://localhost:5000",
    "MAIL_SERVER": "localhost",
    "MAIL_PORT": 25,
    "MAIL_USE_TLS": False,
    "MAIL_USE_SSL": False,
    "MAIL_USERNAME": None,
    "MAIL_PASSWORD": None,
    "MAIL_SENDER": "pbem <pbem@localhost>",
    "MAIL_TIMEOUT": 20,                   # seconds; flask-mail has no timeout of its own
    "LINK_MAX_AGE": 30 * 24 * 3600,       # seconds a turn link stays valid
    "HOST_LINK_MAX_AGE": 2 * 365 * 24 * 3600,
    "HOME_LINK_MAX_AGE": 30 * 24 * 3600,  # seconds a player's home link stays valid (each mail
                                          # carries a fresh one)
    "OPTOUT_LINK_MAX_AGE": 90 * 24 * 3600,  # seconds a mail's opt-out link works
    "RENEW_INTERVAL": 300,                # seconds between two fresh links on request
    "MAIL_CATCHER_DIR": None,             # development: where the local catcher keeps mail
    # Who may start a game on /new, and how often (/new must not be a mail relay).
    "OPEN_SIGNUP": True,                  # false: /new is closed, games come from the CLI
    "SIGNUP_CONFIRM": "auto",             # mail the host a confirmation link first; auto: on in
                                          # production, off in development and tests
    "SIGNUP_MAX_AGE": 2 * 24 * 3600,      # seconds a confirmation link stays valid
    "GAMES_PER_HOST_PER_DAY": 5,          # sign-ups per host address in 24 hours
    "GAMES_PER_CLIENT_PER_DAY": 10,       # sign-ups per client (IP) address in 24 hours
    "MAILS_PER_RECIPIENT_PER_DAY": 200,   # mails sent to one address in 24 hours; more wait
    "PROXIES": 0,                         # proxies in front that set X-Forwarded-For (nginx: 1)
    "VACATION_DAYS": 30,                  # each player's vacation bank, days a year
    "BOT_SECONDS": 5.0,                   # at most this long a computer thinks a decision
    "BOT_ITERATIONS": 0,                  # at most this many search iterations (0: the level's)
    "HOST_WAIT_DAYS": 7,                  # without a pace: days a seat waits before the host
                                          # may play its default move or hand it over
    "MAX_CONTENT_LENGTH": 64 * 1024,      # bytes a request body may carry (413 beyond)
    "DISK_FREE_MIN_MB": 200,              # SQLite: less free space beside the database is a
                                          # problem for /health and pbem check (writes fail
                                          # "database or disk is full" when it runs out)
    "WEBHOOK_ALLOW_PRIVATE": False,       # true: chat webhooks may post to private addresses
    "WEBHOOK_TIMEOUT": 10.0,              # seconds one chat post may take in all
    "WEBHOOK_SECONDS_PER_PASS": 30.0,     # seconds of chat posts in one pass of the mail worker;
                                          # the posts left over go in the next pass
    # Moves by answering the turn mail: turns@example.org makes every turn mail's
    # Reply-To turns+<reply id>@example.org; replies come in by `pbem mail receive` (a pipe)
    # or from the IMAP mailbox below (`pbem mail fetch`, and the mail worker when it is set).
    "REPLY_ADDRESS": None,
    "REPLY_TRUSTED_AUTHSERV": None,       # require dkim=pass or spf=pass from this authserv-id
    "MAX_MAIL_SIZE": 1024 * 1024,         # bytes a reply may carry (the mail twin of the above)
    "IMAP_HOST": None,
    "IMAP_PORT": 993,
    "IMAP_USER": None,
    "IMAP_PASSWORD": None,
    "IMAP_FOLDER": "INBOX",
    "IMAP_TLS": True,                     # IMAPS (993); false: plain IMAP (a local server only)
    "IMAP_DONE_FOLDER": "",               # handled replies move here; empty: they are deleted
}

DEV_SECRET_KEY = "pbem-development-only-not-secret"
DEFAULT_FILE = "/etc/pbem/pbem.env"


class SettingsError(RuntimeError):
    """A setting that is missing or wrong; the message says which and how to fix it."""


MIN_SECRET_KEY_LENGTH = 32
# 2^72 guesses: some 15,000 years of a graphics card trying 10^10 keys a second. The estimate
# of a random key lies above (lowest in December 2026's draws: 32 random hex digits 87 bits of
# 5,000, secrets.token_urlsafe(24) 95 of 3,000, token_urlsafe(48) 193 of 2,000), of keys
# built from runs, repeats, sequences, keyboard walks, dates and dictionary words below (under
# 20 bits for "password" x 4, about 60 for five common words with dashes between them).
MIN_SECRET_KEY_BITS = 72
# Keys that are published (deploy/pbem.env.example, the development key): never secret.
PUBLISHED_SECRET_KEYS = {"change-me-to-64-random-characters", DEV_SECRET_KEY}
# Words an attacker of this server tries first (zxcvbn's "user inputs").
SITE_WORDS = ["pbem", "play-by-email", "playbyemail", "secret", "key", "change-me", "tigris",
              "euphrates", "assyria"]
ESTIMATED_LENGTH = 72            # zxcvbn refuses (and would be slow on) longer inputs


def secret_key_bits(key: str) -> float:
    """An estimate of the guesses a smart attacker needs for `key`, in bits: zxcvbn's, which
    finds the runs, repeats, sequences, keyboard walks, dates and dictionary words a key is
    built from and prices each (what is left is priced as random characters). zxcvbn prices a
    space or a dash between words as a random character, so a key with characters other than
    letters and digits is estimated by its letters and digits, plus a choice among the
    printable others for each one it uses (where they stand is not priced: low for a random
    key, which stays far above the bar). Runs of one character (aaaabbbb...) are priced as
    the key without them plus a length for each length they have."""
    separators = {c for c in key if not c.isalnum()}
    letters_and_digits = "".join(c for c in key if c.isalnum())
    bits = _estimate_with_runs(letters_and_digits)
    return bits + len(separators) * math.log2(SEPARATOR_CHOICES)


def _estimate_with_runs(text: str) -> float:
    runs = [len(list(run)) for _, run in itertools.groupby(text)]
    bits = _estimate(text)
    if runs and max(runs) >= 3:             # zxcvbn prices each run, and the next, as a guess
        collapsed = "".join(c for c, _ in itertools.groupby(text))
        bits = min(bits, _estimate(collapsed) + len(set(runs)) * math.log2(len(text)))
    return bits


SEPARATOR_CHOICES = 33          # the printable ASCII characters that are not letters or digits


def _estimate(text: str) -> float:
    """zxcvbn's guesses for `text` in bits; a text longer than zxcvbn takes is estimated by
    its hardest stretch of 72 characters."""
    from zxcvbn import zxcvbn
    if not text:
        return 0.0                  # zxcvbn fails on an empty text
    stretches = {text[start:start + ESTIMATED_LENGTH]
                 for start in range(0, len(text), ESTIMATED_LENGTH)}
    stretches.add(text[-ESTIMATED_LENGTH:])         # the last one a whole stretch too
    return max(math.log2(zxcvbn(stretch, user_inputs=SITE_WORDS)["guesses"])
               for stretch in stretches)


def _patterns(key: str) -> list[str]:
    """What zxcvbn found the key's first 72 characters made of, in words."""
    from zxcvbn import zxcvbn
    names = {"repeat": "a repeat", "sequence": "a sequence", "dictionary": "a word",
             "spatial": "a keyboard walk", "date": "a date", "regex": "a year"}
    found = []
    letters_and_digits = "".join(c for c in key if c.isalnum())[:ESTIMATED_LENGTH]
    for match in (zxcvbn(letters_and_digits, user_inputs=SITE_WORDS)["sequence"]
                  if letters_and_digits else []):
        name = names.get(match["pattern"])
        if name and name not in found:
            found.append(name)
    return found


def secret_key_weakness(key: str) -> str | None:
    """Why `key` cannot sign links in production, or None when it can: checked when the app
    starts, and by `pbem check` (each adds how to make a good key)."""
    if any(published in key.strip().lower() for published in PUBLISHED_SECRET_KEYS):
        return "is the published example value"
    if len(key) < MIN_SECRET_KEY_LENGTH:
        return f"is shorter than {MIN_SECRET_KEY_LENGTH} characters"
    bits = secret_key_bits(key)
    if bits < MIN_SECRET_KEY_BITS:
        made_of = _patterns(key)
        return ("is too easy to guess"
                + (f" (built from {', '.join(made_of)})" if made_of else "")
                + f": about {bits:.0f} bits, at least {MIN_SECRET_KEY_BITS} are needed. "
                  "Use random characters only")
    return None


TRUE_WORDS = ("1", "true", "yes", "on")


def flag(raw) -> bool:
    """A yes/no setting: a bool as it is, a text true when it says 1, true, yes or on."""
    return raw if isinstance(raw, bool) else str(raw).strip().lower() in TRUE_WORDS


def _coerce(default, raw: str):
    if isinstance(default, bool):
        return flag(raw)
    if isinstance(default, int):
        return int(raw)
    if isinstance(default, float):
        return float(raw)
    return raw


def from_environment(environ=os.environ) -> dict:
    """The settings: defaults, then the settings file's PBEM_<NAME> values, then the
    environment's (which win)."""
    settings = dict(DEFAULTS)
    merged = {**read_settings_file(environ), **environ}
    for key, default in DEFAULTS.items():
        raw = merged.get(f"PBEM_{key}")
        if raw is not None and raw != "":
            try:
                settings[key] = _coerce(default, raw)
            except ValueError:
                raise SystemExit(f"PBEM_{key}={raw!r} is not a valid {type(default).__name__}")
    return settings


# -- the settings file -------------------------------------------------------------------------------

def settings_file(environ=os.environ) -> Path | None:
    """The settings file pbem reads: PBEM_CONFIG's, else /etc/pbem/pbem.env when it exists."""
    named = environ.get("PBEM_CONFIG")
    if named:
        return Path(named)
    default = Path(DEFAULT_FILE)
    return default if default.exists() else None


def read_settings_file(environ=os.environ) -> dict:
    """The variables the settings file assigns ({} when there is none)."""
    path = settings_file(environ)
    if path is None:
        return {}
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SettingsError(
            f"cannot read the settings file {path} ({exc.strerror}): run pbem as the service "
            f"user (sudo -u pbem pbem ...) or name another file with PBEM_CONFIG") from None
    return parse_environment_file(text)


WHITESPACE, NEWLINE, COMMENTS = " \t\n\r", "\n\r", "#;"
SHELL_NEED_ESCAPE = '"\\`$'


def parse_environment_file(text: str) -> dict:
    """KEY=VALUE lines as systemd reads an EnvironmentFile (systemd's env-file.c): # and ;
    start comment lines (only at a line's start), values may be 'single' or "double" quoted,
    a backslash escapes the next character (and joins lines), an unquoted value loses its
    trailing blanks. Lines that are not assignments are skipped."""
    reader = _EnvironmentFileReader()
    for c in text + "\n":
        reader.state = getattr(reader, "in_" + reader.state)(c) or reader.state
    return reader.found


class _EnvironmentFileReader:
    """env-file.c's state machine: the method `in_<state>` takes a character and returns the
    next state (None: the same)."""

    def __init__(self):
        self.found: dict[str, str] = {}
        self.state, self.key, self.value = "pre_key", [], []
        self.key_blank = self.value_blank = None    # where trailing blanks began, to trim them

    def push(self) -> str:
        name = "".join(self.key[:self.key_blank] if self.key_blank is not None else self.key)
        if name:
            self.found[name] = "".join(self.value)
        return "pre_key"

    def in_pre_key(self, c):
        if c in COMMENTS:
            return "comment"
        if c not in WHITESPACE:
            self.key, self.key_blank = [c], None
            return "key"
        return None

    def in_key(self, c):
        if c in NEWLINE:
            return "pre_key"                # a line without "=": not an assignment
        if c == "=":
            self.value, self.value_blank = [], None
            return "pre_value"
        if c not in WHITESPACE:
            self.key_blank = None
        elif self.key_blank is None:
            self.key_blank = len(self.key)
        self.key.append(c)
        return None

    def in_pre_value(self, c):
        if c in NEWLINE:
            return self.push()
        opened = {"'": "single", '"': "double", "\\": "value_escape"}.get(c)
        if opened or c in WHITESPACE:
            return opened
        self.value.append(c)
        return "value"

    def in_value(self, c):
        if c in NEWLINE:
            if self.value_blank is not None:
                del self.value[self.value_blank:]
            return self.push()
        if c == "\\":
            self.value_blank = None
            return "value_escape"
        if c not in WHITESPACE:
            self.value_blank = None
        elif self.value_blank is None:
            self.value_blank = len(self.value)
        self.value.append(c)
        return None

    def in_value_escape(self, c):
        if c not in NEWLINE:                # an escaped newline joins the lines
            self.value.append(c)
        return "value"

    def in_single(self, c):
        if c == "'":
            return "pre_value"
        self.value.append(c)
        return None

    def in_double(self, c):
        if c == '"':
            return "pre_value"
        if c == "\\":
            return "double_escape"
        self.value.append(c)
        return None

    def in_double_escape(self, c):
        if c in SHELL_NEED_ESCAPE:
            self.value.append(c)
        elif c != "\n":
            self.value.extend(("\\", c))
        return "double"

    def in_comment(self, c):
        if c == "\\":
            return "comment_escape"
        return "pre_key" if c in NEWLINE else None

    def in_comment_escape(self, c):            # systemd 254 on: a comment never runs on
        return "pre_key" if c in NEWLINE else "comment"
