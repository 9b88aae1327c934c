"""Hostile raw mails to the reply address: the shapes a stranger can send at any size (each
costs the parser of mail something that grows with its size), and the forged replies (a move
in the name of a seat that did not send it).

`shaped(name, size, to, victim)` builds one mail of about `size` bytes; `SHAPES` names them.
`forged(to, victim, code)` lists the forgeries of one reply. Used by the mail fuzzer
(`python -m tests.fuzz --mail N`), its tests and the measurements of reading one mail.
"""
from __future__ import annotations

import base64
import random


def _head(to: str, victim: str, **headers) -> str:
    fields = {"From": f"<{victim}>", "To": to, "Subject": "Re: your turn",
              "Message-ID": f"<{random.getrandbits(64):x}@evil.example>",
              "Content-Type": "text/plain; charset=utf-8", **headers}
    return "".join(f"{name}: {value}\r\n" for name, value in fields.items()
                   if value is not None)


def _mail(head: str, body: str = "pass\r\n") -> bytes:
    return (head + "\r\n" + body).encode("utf-8", "surrogateescape")


def _filled(unit: str, size: int) -> str:
    return unit * max(1, size // len(unit))


def from_encoded_words(size, to, victim):
    """A From: of many RFC 2047 encoded words (the default policy's parser keeps each)."""
    return _mail(_head(to, victim, From=_filled("=?utf-8?q?a?= ", size) + f"<{victim}>"))


def html_open_tags(size, to, victim):
    """An HTML-only body of unclosed tags (html.parser scans to the end for each)."""
    return _mail(_head(to, victim, **{"Content-Type": "text/html; charset=utf-8"}),
                 _filled("<a ", size))


def to_commas(size, to, victim):
    """A To: of commas before the reply address (the address parser is quadratic in them)."""
    return _mail(_head(to, victim, To=_filled(",", size) + to))


def content_type_parameters(size, to, victim):
    """A Content-Type with thousands of parameters."""
    return _mail(_head(to, victim, **{"Content-Type": "text/plain; "
                                      + _filled("a=b; ", size) + "charset=utf-8"}))


def part_parameters(size, to, victim):
    """A multipart mail whose one part has a Content-Type of thousands of parameters."""
    head = _head(to, victim, **{"Content-Type": 'multipart/mixed; boundary="b"'})
    return _mail(head, "--b\r\nContent-Type: text/plain; " + _filled("a=b; ", size)
                 + "charset=utf-8\r\n\r\npass\r\n--b--\r\n")


def authentication_results(size, to, victim):
    """An Authentication-Results of thousands of results."""
    return _mail(_head(to, victim, **{"Authentication-Results": "mx.pbem.test; "
                                      + _filled("dkim=fail header.d=x.example; ", size)}))


def many_headers(size, to, victim):
    """Thousands of short header lines."""
    return _mail(_head(to, victim) + _filled("X-A: b\r\n", size))


def nested_parts(size, to, victim):
    """multipart in multipart in multipart... (each boundary checked on every line)."""
    depth = max(1, size // 60)
    opening = "--0\r\n" + "".join(f"Content-Type: multipart/mixed; boundary=\"{n}\"\r\n\r\n"
                                    f"--{n}\r\n" for n in range(1, depth))
    head = _head(to, victim, **{"Content-Type": 'multipart/mixed; boundary="0"'})
    return _mail(head, opening + "Content-Type: text/plain\r\n\r\npass\r\n")


def base64_body(size, to, victim):
    """A text part of `size` bytes in base64 (decoded whole by the parser)."""
    text = ("pass\r\n" + _filled("a", size * 57 // 78 - 100)).encode()
    return _mail(_head(to, victim, **{"Content-Transfer-Encoding": "base64"}),
                 base64.encodebytes(text).decode())


def long_lines(size, to, victim):
    """One body line of `size` characters."""
    return _mail(_head(to, victim), "pass " + _filled("x", size) + "\r\n")


SHAPES = {f.__name__: f for f in (from_encoded_words, html_open_tags, to_commas,
                                  content_type_parameters, part_parameters,
                                  authentication_results, many_headers, nested_parts,
                                  base64_body, long_lines)}
FINDING_SHAPES = ("from_encoded_words", "html_open_tags", "to_commas", "content_type_parameters")


def shaped(name: str, size: int, to: str, victim: str) -> bytes:
    return SHAPES[name](size, to, victim)


# -- forged replies ---------------------------------------------------------------------------------

def forged_from(victim: str) -> list[str]:
    """From: headers that a lenient parser reads as `victim` (the attacker is elsewhere)."""
    local, _at, domain = victim.partition("@")
    encoded = base64.b64encode(victim.encode()).decode()
    return [f"=?utf-8?b?{encoded}?=",                                   # an encoded-word address
            f"<{victim}>)<mallory@evil.example>",                       # CVE-2023-27043
            f"<@evil.example:{victim}>",                                # a source route
            f"{victim}, mallory@evil.example",                          # two addresses
            f"mallory@evil.example <{victim}>>",                        # trailing junk
            f"\"{victim}\" <mallory@evil.example>, <{victim}>",
            f"{local}@{domain}@evil.example",
            f"=?utf-8?q?{local}=40{domain}?=",
            f"<{victim}> (mallory@evil.example)",
            f"mallory@evil.example (<{victim}>)"]


def forged_authentication(victim: str, authserv: str) -> list[list[str]]:
    """Authentication-Results headers (topmost first) that a lenient reader takes as a pass
    for the victim's domain: each comes from the sender, not from the MTA's own check."""
    domain = victim.rpartition("@")[2]
    own = f"{authserv}; dkim=fail header.d=evil.example; spf=fail smtp.mailfrom=evil.example"
    return [[f"{authserv}; spf=fail smtp.mailfrom=spf=pass@{domain}"],
            [f"{authserv}; spf=none smtp.helo=spf=pass@{domain}"],
            [own, f"{authserv}; dkim=pass header.d={domain}"],
            [f"{authserv}; dkim=fail (dkim=pass header.d={domain}) header.d=evil.example"],
            [f"{authserv}; dkim=pass header.d=evil.example header.b=spf=pass@{domain}"],
            [f"{authserv}; dkim=pass header.d={domain}.evil.example"],
            [f"{authserv}; spf=pass smtp.mailfrom=mallory@evil.example smtp.helo={domain}"],
            [f"{authserv}; dkim=pass header.i=@{domain} header.d=evil.example"],
            [f"mx.evil.example; dkim=pass header.d={domain}"],
            [f"{authserv}.evil.example; dkim=pass header.d={domain}"],
            [f"{authserv}; none", f"{authserv}; dkim=pass header.d={domain}"],
            [f"{authserv}; dkim=\"pass\" header.d={domain}"],
            [f"{authserv}; x-dkim=pass header.d={domain}; dkim=neutral header.d={domain}"]]


def reply(to: str, sender: str, lines, authentication=(), message_id=None, **headers) -> bytes:
    """A plain reply (`lines` on top, a quote under it) with these From and A-R headers."""
    head = "".join(f"Authentication-Results: {value}\r\n" for value in authentication)
    head += _head(to, sender, From=sender, **({"Message-ID": message_id} if message_id else {}),
                  **headers)
    return _mail(head, "\r\n".join(lines) + "\r\n\r\nOn Monday pbem wrote:\r\n> Your turn\r\n")
