"""`pbem check` on the files an operator installed from deploy/: the gunicorn
config, the settings file and the nginx site, each compared with what this release ships, so
that an upgrade that left an old copy behind names what the old copy lacks."""
from __future__ import annotations

import ast
import re
from pathlib import Path

from .. import package

# Where the guide (deploy/README.md) installs them; `pbem check --gunicorn-conf/--nginx-site`
# (or PBEM_GUNICORN_CONF / PBEM_NGINX_SITE) name other places.
GUNICORN_CONF = "/etc/pbem/gunicorn.conf.py"
NGINX_SITE = "/etc/nginx/sites-available/pbem"
SETTING = re.compile(r"^\s*(PBEM_[A-Z0-9_]+)\s*=", re.M)

# What must be in an installed file, what its absence costs, in words.
GUNICORN_MUSTS = {
    "logger_class": ("pbem.logs.GunicornLogger",
                     "turn links are written whole into the journal (no token redaction)"),
}
NGINX_MUSTS = {
    "limit_req ": "no request limits (limit_req): anyone may send pages and mail as fast as "
                  "they like",
    "Strict-Transport-Security": "no HSTS header: a browser may be sent to plain http",
    "access_log off": "the access log is on: every turn link (a credential) is written there",
}


def shipped(name: str) -> Path:
    return package.folder("deploy") / name


def assigned_names(path: Path) -> dict[str, str]:
    """The settings a gunicorn config file assigns at its top level, with their source text,
    and the server hooks it defines (gunicorn settings too: post_worker_init)."""
    tree = ast.parse(path.read_text(), str(path))
    found = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = ""
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = ast.get_source_segment(path.read_text(), node.value) or ""
    return found


def gunicorn_findings(installed: Path, finding) -> list:
    if not installed.is_file():
        return [finding("note", f"no gunicorn config at {installed} (pbem check "
                                "--gunicorn-conf PATH names the one pbem-web uses)")]
    try:
        have = assigned_names(installed)
    except (SyntaxError, ValueError) as exc:
        return [finding("problem", f"{installed} is not valid Python: {exc}")]
    found = []
    for name, (value, cost) in GUNICORN_MUSTS.items():
        if value not in have.get(name, ""):
            found.append(finding("problem", f"{installed} lacks {name} = \"{value}\": {cost}. "
                                            "Install this release's deploy/gunicorn.conf.py"))
    missing = sorted(set(assigned_names(shipped("gunicorn.conf.py"))) - set(have)
                     - set(GUNICORN_MUSTS))
    if missing:
        found.append(finding("note", f"{installed} lacks settings this release's "
                                     f"deploy/gunicorn.conf.py has: {', '.join(missing)}"))
    return found or [finding("ok", f"{installed} has what this release's gunicorn config has")]


def settings_file_findings(path: Path | None, text: str, behind_proxy: bool, finding) -> list:
    if path is None:
        return []
    have = set(SETTING.findall(text))
    found = []
    if behind_proxy and "PBEM_PROXIES" not in have:
        found.append(finding("problem", f"{path} has no PBEM_PROXIES while nginx stands in front: "
                                        "every visitor counts as one address, so the daily "
                                        "sign-up limit turns away everyone (add PBEM_PROXIES=1)"))
    example = set(SETTING.findall(shipped("pbem.env.example").read_text()))
    missing = sorted(example - have - {"PBEM_DATABASE_PASSWORD", "PBEM_MAIL_USERNAME",
                                       "PBEM_MAIL_PASSWORD", "PBEM_PROXIES"})
    if missing:
        found.append(finding("note", f"{path} does not set (the defaults apply): "
                                     + ", ".join(missing)))
    return found


def nginx_findings(installed: Path, finding) -> list:
    if not installed.is_file():
        return [finding("note", f"no nginx site at {installed} (pbem check --nginx-site PATH "
                                "names it)")]
    text = installed.read_text()
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    active = "\n".join(lines)
    found = [finding("problem", f"{installed}: {cost}. Compare it with this release's "
                                "deploy/nginx-pbem.conf")
             for needle, cost in NGINX_MUSTS.items() if needle not in active]
    return found or [finding("ok", f"{installed} limits requests, sends HSTS and logs no links")]


def findings(environ, settings_path: Path | None, settings_text: str, finding,
             gunicorn_conf: str | None = None, nginx_site: str | None = None) -> list:
    """Every finding about the installed deploy files: where the options say, else where the
    environment or the settings file say, else where the guide puts them."""
    from ..config import parse_environment_file
    named = {**parse_environment_file(settings_text), **environ}
    gunicorn = Path(gunicorn_conf or named.get("PBEM_GUNICORN_CONF") or GUNICORN_CONF)
    nginx = Path(nginx_site or named.get("PBEM_NGINX_SITE") or NGINX_SITE)
    found = gunicorn_findings(gunicorn, finding)
    found += settings_file_findings(settings_path, settings_text, nginx.is_file(), finding)
    found += nginx_findings(nginx, finding)
    return found
