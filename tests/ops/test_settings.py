"""The settings file: parsed as systemd parses an EnvironmentFile, read when PBEM_CONFIG names
it, with the environment winning; database passwords with any character."""
from __future__ import annotations

import pytest

from pbem import config
from pbem.config import SettingsError, from_environment, parse_environment_file
from pbem.db.database import open_database, postgresql_parameters

# What systemd makes of each line (systemd.exec(5), "EnvironmentFile=", and env-file.c).
SYSTEMD_CASES = [
    ("A=plain", {"A": "plain"}),
    ("# a comment line\n; another\nA=1", {"A": "1"}),
    ("  A = spaced out  ", {"A": "spaced out"}),
    ("PBEM_MAIL_SENDER=pbem club <pbem@example.org>", {"PBEM_MAIL_SENDER": "pbem club <pbem@example.org>"}),
    ("A=value # not a comment", {"A": "value # not a comment"}),
    ("A='single $quoted \\n'", {"A": "single $quoted \\n"}),
    ('A="double \\"q\\" \\$x \\\\ \\n"', {"A": 'double "q" $x \\ \\n'}),
    ('A="two "words', {"A": "two words"}),
    ("A=line\\\ncontinued", {"A": "linecontinued"}),
    ("A=back\\slash", {"A": "backslash"}),
    ("A=", {"A": ""}),
    ("not an assignment\nB=2", {"B": "2"}),
    ("A=1\nA=2", {"A": "2"}),
    ("A=p/w@d:#%?&x", {"A": "p/w@d:#%?&x"}),
    ("# comment ending in a backslash \\\nB=3", {"B": "3"}),
    ("A=crlf\r\nB=2\r\n", {"A": "crlf", "B": "2"}),
]


@pytest.mark.parametrize("text, expected", SYSTEMD_CASES)
def test_the_settings_file_parses_as_systemd_parses_it(text, expected):
    assert parse_environment_file(text) == expected


def test_the_example_settings_file_parses_whole():
    from tests.install.conftest import ROOT
    parsed = parse_environment_file((ROOT / "deploy/pbem.env.example").read_text())
    assert parsed["PBEM_MAIL_SENDER"].startswith("pbem") and " " in parsed["PBEM_MAIL_SENDER"]
    assert all(key.startswith("PBEM_") for key in parsed)


def test_pbem_config_names_the_file_and_the_environment_wins(tmp_path):
    path = tmp_path / "pbem.env"
    path.write_text("# settings\nPBEM_BASE_URL=https://file.example.org\n"
                    "PBEM_MAIL_PORT=587\nPBEM_MAIL_SENDER=\"The club <club@example.org>\"\n")
    settings = from_environment({"PBEM_CONFIG": str(path), "PBEM_MAIL_PORT": "2525"})
    assert settings["BASE_URL"] == "https://file.example.org"
    assert settings["MAIL_SENDER"] == "The club <club@example.org>"
    assert settings["MAIL_PORT"] == 2525


def test_without_pbem_config_the_default_file_is_read_when_it_exists(tmp_path, monkeypatch):
    path = tmp_path / "pbem.env"
    monkeypatch.setattr(config, "DEFAULT_FILE", str(path))
    assert from_environment({})["BASE_URL"] == config.DEFAULTS["BASE_URL"]
    path.write_text("PBEM_BASE_URL=https://default.example.org\n")
    assert from_environment({})["BASE_URL"] == "https://default.example.org"


def test_a_missing_or_unreadable_file_is_said_plainly(tmp_path):
    with pytest.raises(SettingsError, match="cannot read the settings file .*missing.env"):
        from_environment({"PBEM_CONFIG": str(tmp_path / "missing.env")})


def test_the_pbem_command_reads_the_settings_file(tmp_path):
    import subprocess
    import sys
    path = tmp_path / "pbem.env"
    database = tmp_path / "from-file.db"
    path.write_text("PBEM_SECRET_KEY='Zq8wR2xk3Vn9LpT4sY6bHc1JmG5fD7aE0uW-_QiXoP'\n"
                    f"PBEM_DATABASE_URL=sqlite:///{database}\n")
    env = {"PATH": "/usr/bin:/bin", "PBEM_CONFIG": str(path)}
    done = subprocess.run([sys.executable, "-m", "pbem.ops.cli", "db", "upgrade"], cwd=tmp_path,
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "001_initial" in done.stdout and database.exists()


PASSWORD = "p/ss@w:rd #1%?&'\" x"


def test_a_password_with_any_character_works_as_its_own_setting(tmp_path):
    path = tmp_path / "pbem.env"
    path.write_text("PBEM_DATABASE_URL=postgresql://pbem@db.example.org:6432/pbem\n"
                    "PBEM_DATABASE_PASSWORD=\"p/ss@w:rd #1%?&'\\\" x\"\n")
    settings = from_environment({"PBEM_CONFIG": str(path)})
    from pbem.db.database import parts_of
    params = postgresql_parameters(settings["DATABASE_URL"], parts_of(settings))
    assert params == {"database": "pbem", "user": "pbem", "host": "db.example.org",
                      "port": 6432, "password": PASSWORD}


def test_a_password_percent_encoded_in_the_url_works():
    from urllib.parse import quote
    params = postgresql_parameters(f"postgresql://pbem:{quote(PASSWORD, safe='')}@h/pbem")
    assert params["password"] == PASSWORD and params["database"] == "pbem"


def test_the_database_by_parts_alone_is_postgresql():
    database = open_database("sqlite:///instance/pbem.db",
                             {"name": "pbem", "user": "pbem", "password": "a/b", "port": "5433"})
    assert database.database == "pbem"
    assert database.connect_params == {"user": "pbem", "password": "a/b", "port": 5433}


@pytest.mark.parametrize("url", ["postgresql://pbem:a/b@localhost/pbem",
                                 "postgresql://pbem:a#b@localhost/pbem",
                                 "postgresql://pbem:secret@localhost:port/pbem"])
def test_a_url_that_does_not_parse_says_so_without_the_password(url):
    with pytest.raises(SettingsError) as raised:
        open_database(url)
    assert "percent-encoded" in str(raised.value) and "PBEM_DATABASE_PASSWORD" in str(raised.value)
    assert "secret" not in str(raised.value) and "a/b" not in str(raised.value)


def test_a_bad_password_url_is_a_message_not_a_traceback(tmp_path):
    import subprocess
    import sys
    env = {"PATH": "/usr/bin:/bin", "PBEM_SECRET_KEY": "Zq8wR2xk3Vn9LpT4sY6bHc1JmG5fD7aE0uW-_QiXoP",
           "PBEM_DATABASE_URL": "postgresql://pbem:a/b@127.0.0.1/pbem"}
    done = subprocess.run([sys.executable, "-m", "pbem.ops.cli", "db", "upgrade"], cwd=tmp_path,
                          env=env, capture_output=True, text=True)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr and "percent-encoded" in done.stderr


def test_pbem_help_lists_the_commands_without_a_traceback_when_settings_are_missing(tmp_path):
    import subprocess
    import sys
    env = {"PATH": "/usr/bin:/bin", "PBEM_CONFIG": str(tmp_path / "none.env")}
    done = subprocess.run([sys.executable, "-m", "pbem.ops.cli", "--help"], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert all(name in done.stdout for name in ("check", "backup", "restore", "mail", "games"))
    done = subprocess.run([sys.executable, "-m", "pbem.ops.cli", "games", "list"], cwd=tmp_path,
                          env=env, capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "cannot read the settings file" in done.stderr


def test_every_setting_the_guide_and_the_example_write_is_one_pbem_reads():
    import re
    from tests.install.conftest import ROOT
    for name in ("deploy/README.md", "deploy/pbem.env.example"):
        text = (ROOT / name).read_text()
        written = re.findall(r"^(PBEM_[A-Z_]+)=(?!\$\{)", text, re.M)
        assert written and [w for w in written if w[5:] not in config.DEFAULTS] == [], name
