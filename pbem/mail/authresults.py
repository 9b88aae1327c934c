"""Authentication-Results (RFC 8601) read as the RFC says, for PBEM_REPLY_TRUSTED_AUTHSERV.

Only the topmost header of the trusted authserv-id counts: the receiving MTA puts its own on
top (and the deploy guide has it remove incoming ones with its id), so any header of that id
below it was written by the sender. Its results are the `method=result` tokens that open each
`;`-separated resinfo; comments and property values are never results, so neither
`spf=fail smtp.mailfrom=spf=pass@victim.example` nor `dkim=fail (dkim=pass)` passes. A reply
passes with dkim=pass whose header.d is the From domain, or spf=pass whose smtp.mailfrom is in
the From domain. One pass over at most a header's characters: linear in its length.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

RESINFO = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9_-]*)(?:\s*/\s*[0-9]+)?\s*=\s*([A-Za-z]+)(?=\s|$)")
REASON = re.compile(r"\s*reason\s*=\s*(\"(?:[^\"\\]|\\.)*\"|[^\s\"]+)", re.IGNORECASE)
PROPERTY = re.compile(r"\s*([A-Za-z0-9_-]+)\s*\.\s*([A-Za-z0-9_.-]+)\s*=\s*"
                      r"(\"(?:[^\"\\]|\\.)*\"|[^\s\"]+)")
VERSION = re.compile(r"[0-9]+")


@dataclass
class Result:
    method: str                        # dkim, spf, dmarc... (lower case)
    result: str                        # pass, fail, none... (lower case)
    properties: dict = field(default_factory=dict)   # "header.d" -> "example.org"


def segments(value: str) -> list[str] | None:
    """The header's `;`-separated parts with its comments left out (quoted strings kept
    whole); None when its quotes or parentheses do not close."""
    parts, current = [], []
    depth, quoted, escaped = 0, False, False
    for char in value:
        if escaped:
            escaped = False
            if not depth:
                current.append(char)
        elif char == "\\" and (quoted or depth):
            escaped = True
            if not depth:
                current.append(char)
        elif quoted:
            current.append(char)
            quoted = char != '"'
        elif char == "(":
            depth += 1
        elif char == ")":
            if not depth:
                return None
            depth -= 1
            if not depth:
                current.append(" ")
        elif depth:
            continue
        elif char == ";":
            parts.append("".join(current))
            current = []
        else:
            quoted = char == '"'
            current.append(char)
    if depth or quoted or escaped:
        return None
    parts.append("".join(current))
    return parts


def authserv_id(value: str) -> str:
    """The authserv-id a header names (lower case), "" when it names none."""
    parts = segments(value)
    first = parts[0] if parts is not None else value.partition(";")[0]
    words = first.split()
    return _unquoted(words[0]).lower().rstrip(".") if words else ""


def results(value: str) -> list[Result] | None:
    """The results of one header; None when it is not a well-formed Authentication-Results
    (then it vouches for nothing). A resinfo that is not `method=result [reason]
    [ptype.property=value ...]` is left out."""
    parts = segments(value)
    if parts is None:
        return None
    words = parts[0].split()
    if not words or len(words) > 2 or (len(words) == 2 and not VERSION.fullmatch(words[1])):
        return None
    if len(parts) == 2 and parts[1].strip().lower() == "none":
        return []
    found = []
    for part in parts[1:]:
        result = _resinfo(part)
        if result is not None:
            found.append(result)
    return found


def _resinfo(text: str) -> Result | None:
    opening = RESINFO.match(text)
    if opening is None:
        return None
    position = opening.end()
    reason = REASON.match(text, position)
    if reason is not None:
        position = reason.end()
    properties: dict[str, str] = {}
    while True:
        found = PROPERTY.match(text, position)
        if found is None:
            break
        name = f"{found.group(1)}.{found.group(2)}".lower()
        if name in properties:               # the same property twice: say nothing
            return None
        properties[name] = _unquoted(found.group(3))
        position = found.end()
    if text[position:].strip():
        return None
    return Result(opening.group(1).lower(), opening.group(2).lower(), properties)


def _unquoted(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return re.sub(r"\\(.)", r"\1", value[1:-1])
    return value


def vouches(headers: list[str], trusted: str, domain: str) -> bool:
    """Whether the topmost of `headers` (in the message's order) whose authserv-id is `trusted`
    says dkim=pass with header.d `domain`, or spf=pass with smtp.mailfrom in `domain`."""
    trusted, domain = trusted.strip().lower().rstrip("."), domain.strip().lower().rstrip(".")
    if not trusted or not domain:
        return False
    for header in headers:
        if authserv_id(header) != trusted:
            continue
        return any(_aligned(result, domain) for result in results(header) or [])
    return False


def _aligned(result: Result, domain: str) -> bool:
    if result.result != "pass":
        return False
    if result.method == "dkim":
        signer = result.properties.get("header.d", "")
    elif result.method == "spf":
        signer = result.properties.get("smtp.mailfrom", "").rpartition("@")[2]
    else:
        return False
    return signer.lower().rstrip(".") == domain
