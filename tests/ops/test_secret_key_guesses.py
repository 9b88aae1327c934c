"""Production refuses a secret key built from runs, sequences, repeats, keyboard walks, dates or
dictionary words, by zxcvbn's estimate of the guesses it takes, and says how to make a good
one; keys drawn at random by the usual tools are never refused."""
from __future__ import annotations

import base64
import os
import secrets
import string
import subprocess
import sys

import pytest

from pbem.config import MIN_SECRET_KEY_BITS, secret_key_bits, secret_key_weakness
from pbem.ops import check

BUILT = {
    "digits repeated": "0123456789" * 4,
    "the alphabet, then digits": "abcdefghijklmnopqrstuvwxyz012345",
    "a word repeated, one more character": "passwordpasswordpasswordpassword1",
    "digits downwards, repeated": "9876543210" * 4,
    "the alphabet backwards": "zyxwvutsrqponmlkjihgfedcba543210",
    "capitals, then small letters": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef",
    "a keyboard's rows": "qwertyuiopasdfghjklzxcvbnm123456",
    "runs of letters in sequence": "aaaabbbbccccddddeeeeffffgggghhhh",
    "runs of letters at random": "zzzzzzzzzzqqqqqqqqqqxxxxxxxxxxkkkkkkkkkk",
    "a short pattern repeated": "abcd1234" * 4,
    "a word numbered": "Password1Password2Password3Password4",
    "a phrase repeated": "iloveyou" * 4,
    "leet repeated": "p@ssw0rd!" * 4,
    "words and a walk": "letmeinletmein123456789qwerty!!!",
    "words with dashes": "correct-horse-battery-staple-dragon",
    "words with spaces": "monkey dragon master shadow sunshine",
    "the site's own words": "pbem-secret-key-pbem-secret-key-1",
    "dates": "1990-01-01 2000-02-02 2010-03-03 x",
    "symbols off the keyboard": "!@#$%^&*()" * 3 + "!@",
    "spaces": " " * 40,
    "a long run before a short tail": "a" * 80 + "1234567890abcdef",
}


@pytest.mark.parametrize("key", BUILT.values(), ids=BUILT.keys())
def test_a_key_built_from_patterns_is_too_easy_to_guess(key):
    assert secret_key_bits(key) < MIN_SECRET_KEY_BITS
    assert "is too easy to guess" in secret_key_weakness(key)


@pytest.mark.parametrize("key, built_from", [("0123456789" * 4, "a repeat"),
                                             ("abcdefghijklmnopqrstuvwxyz012345", "a sequence"),
                                             ("passwordpasswordpasswordpassword1", "a repeat"),
                                             ("monkey dragon master shadow sunshine", "a word")])
def test_production_refuses_it_saying_what_it_is_built_from_and_how_to_make_one(
        tmp_path, key, built_from):
    from pbem.app import create_app
    with pytest.raises(RuntimeError) as refused:
        create_app({"ENV": "production", "SECRET_KEY": key,
                    "DATABASE_URL": f"sqlite:///{tmp_path}/x.db"})
    message = str(refused.value)
    assert f"built from {built_from}" in message and "bits" in message
    assert 'import secrets; print(secrets.token_urlsafe(' in message
    finding = check.secret_finding(key)                    # pbem check says the same
    assert finding.level == "problem" and "secrets.token_urlsafe(" in finding.text


def test_the_command_refuses_it_in_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    env.update(PBEM_DATABASE_URL=f"sqlite:///{tmp_path}/x.db",
               PBEM_SECRET_KEY="passwordpasswordpasswordpassword1")
    refused = subprocess.run([sys.executable, "-m", "pbem.ops.cli", "games", "list"], env=env,
                             capture_output=True, text=True)
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    [line] = refused.stderr.strip().splitlines()
    assert "PBEM_SECRET_KEY is too easy to guess" in line and "token_urlsafe" in line


PRINTABLE = string.ascii_letters + string.digits + string.punctuation
RANDOM_KEYS = {
    "secrets.token_urlsafe(24), 32 characters": lambda: secrets.token_urlsafe(24),
    "secrets.token_urlsafe(32)": lambda: secrets.token_urlsafe(32),
    "openssl rand -base64 32": lambda: base64.b64encode(os.urandom(32)).decode(),
    "32 random printable characters": lambda: "".join(secrets.choice(PRINTABLE)
                                                      for _ in range(32)),
}


@pytest.mark.parametrize("make", RANDOM_KEYS.values(), ids=RANDOM_KEYS.keys())
def test_keys_drawn_at_random_are_never_refused(make):
    assert not [key for key in (make() for _ in range(50)) if secret_key_weakness(key)]


def test_a_random_key_longer_than_zxcvbn_reads_is_estimated_by_its_stretches():
    """zxcvbn reads at most 72 characters: a longer key is as hard as its hardest stretch."""
    assert not [key for key in (secrets.token_hex(64) for _ in range(20))
                if secret_key_weakness(key)]
    key = secrets.token_hex(64)
    assert secret_key_bits(key) >= max(secret_key_bits(key[:72]), secret_key_bits(key[-72:]))
    assert secret_key_weakness("password" * 20) is not None
