"""What the turn page and the JSON API share: reading a link, shaping a seat's answer."""
from __future__ import annotations


from ..play import links
from ..log import store
from ..inputs import MAX_INT, ascii_int
from ..play.keys import keys


def check_link(token: str) -> links.Access:
    return keys().check(token)


def check_signed(token: str) -> links.Link:
    """That `token` is a link this server signed and issued (live or not), else LinkError 403:
    checked before a request's body is read, so a stranger's body is never parsed. Its row,
    for `check_link_to_act` (read once a request)."""
    found = keys().find(token)
    if found is None:
        raise links.LinkError(403, "tampered", "This link is not valid: it may have been cut "
                                               "short or altered. Open it again from the email.")
    return found


def check_readable(token: str) -> links.Access:
    """Any link the seat was sent, within its maximum age: for read-only pages only."""
    return keys().check_readable(token)


def check_newest(token: str) -> links.Access:
    """The seat's newest link, live or spent by its move, unexpired and not revoked: what may
    still write in the seat's name without acting (table talk, "I am back"); an older or
    forwarded mail's link only reads."""
    return keys().check_newest(token)


def check_link_to_act(token: str, seq: int, found: links.Link | None = None) -> links.Access:
    """The live link for a submission (`found`: its row as check_signed read it); a link spent
    by the very move this submission repeats answers "already played" (409) rather than
    "spent" (410)."""
    try:
        return keys().check(token, found)
    except links.LinkError as exc:
        if exc.status == 410 and exc.reason in ("played", "turn_over"):
            game = store.find_game(exc.game_id)
            if game is not None and seq < game.seq:
                raise store.StaleSeq(f"already played: the game is at move {game.seq}, "
                                     f"this action was made at move {seq}") from None
        raise


def parse_seq(raw) -> int:
    """The move number a submission was chosen at: a JSON integer or ASCII digits in a form."""
    if isinstance(raw, bool):
        raise ValueError("seq must be an integer")
    if isinstance(raw, int) and 0 <= raw <= MAX_INT:
        return raw
    if isinstance(raw, str):
        try:
            return ascii_int(raw)
        except ValueError:
            pass
    raise ValueError("seq must be an integer (the move number the action was chosen at)")
