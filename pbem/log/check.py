"""`pbem games check FILE`: a game record checked offline, with no database and no settings.

What it confirms, in this order (docs/players.md, "Fair play: the shuffle is committed at the
start", states the scheme):
- the record's shape and every event's fields (`importing.check_record`, the import's guards);
- the hash chain: each event's hash is sha256(previous hash + canonical JSON of the event);
- the commitment: sha256("pbem-commit-1:" + salt + ":" + str(seed)) of the seed and salt the
  creation event reveals equals the record's `commitment` (and the one given with
  `--commitment`, e.g. from the invitation mail);
- every event replayed from the seed through the rules: each move one of the legal actions
  then, each automatic move the forced one, each deadline move the seat's default, each undo
  allowed where it stands;
- the result: the record's status and result are those its log replays to.
The first problem found is the answer; this module imports nothing of the database.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..inputs import parse_json
from . import chain
from .importing import MAX_DEPTH, MAX_SIZE, check_record


@dataclass
class Verdict:
    ok: bool
    text: str           # "ok", "ok (...)", or the first problem


def check_text(text, commitment: str | None = None) -> Verdict:
    """The verdict on a record's JSON text (str or bytes); `commitment`: the one the checker
    was told (the invitation's), which the record must carry."""
    if len(text) > MAX_SIZE:
        return Verdict(False, f"the record is larger than {MAX_SIZE // (1024 * 1024)} MiB")
    try:
        record = parse_json(text, max_depth=MAX_DEPTH)
    except ValueError as exc:
        return Verdict(False, f"not a JSON record: {_one_line(exc)}")
    return check(record, commitment)


def check(record, commitment: str | None = None) -> Verdict:
    """The verdict on a parsed record (see the module's doc)."""
    try:
        checked = check_record(record)
    except (ValueError, KeyError, TypeError) as exc:
        return Verdict(False, _one_line(exc))
    if checked.salt is None:
        if commitment is not None:
            return Verdict(False, "the record has no commitment: its game was created before "
                                  "shuffle commitments")
        return Verdict(True, "ok (no commitment: the game was created before shuffle "
                             "commitments; its log and result check)")
    revealed = chain.commitment(checked.seed, checked.salt)
    if record.get("commitment") != revealed:
        return Verdict(False, "the record does not carry the commitment of the seed and salt "
                              "it reveals")
    if commitment is not None and commitment.strip().lower() != revealed:
        return Verdict(False, f"the record's commitment is {revealed}, not the one given")
    return Verdict(True, "ok")


def _one_line(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 300 else text[:299] + "…"
