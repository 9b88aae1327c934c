"""The JSON API: the turn page for bots and tests.

GET /api/turn/<token> and POST /api/turn/<token> with {"seq": n, "action": {...}};
POST /api/turn/<token>/undo with {"seq": n}: take back the seat's last action (409 with the
reason when it may not);
POST /api/turn/<token>/messages with {"text": "..."} (table talk, from any link of the seat).
Errors: 400 malformed, 422 illegal, 409 stale seq, 403 bad token, 410 spent or expired.
"""
from __future__ import annotations

from flask import Blueprint, jsonify, request

from ..play import links, moves, rematch, resigning, talk
from ..play.keys import keys
from ..log import ending, store, undo as undoing
from ..games import IllegalAction
from ..games.codes import codes_of
from . import pagecache
from .common import (check_link, check_link_to_act, check_newest, check_readable, check_signed,
                     parse_seq)
from ..inputs import parse_json
from ..present.seat import turn_payload

bp = Blueprint("api", __name__, url_prefix="/api")


def error(status: int, message: str):
    return jsonify({"error": message}), status


@bp.errorhandler(links.LinkError)
def link_error(exc: links.LinkError):
    return error(exc.status, exc.message)


def with_codes(game, payload: dict) -> dict:
    """`"codes"`: the reply code of each action, in the same order (what a mail reply says)."""
    payload["codes"] = codes_of(store.rules_of(game), payload["view"], payload["actions"])
    return payload


@bp.get("/turn/<token>")
def turn(token):
    access = check_link(token)
    game = store.get_game(access.game_id)
    seats = store.seats_of(game)
    return pagecache.answer(
        pagecache.seat_validator(game, access.link, seats),
        lambda: jsonify(with_codes(game, turn_payload(game, access.seat, seats=seats))))


@bp.post("/turn/<token>")
def act(token):
    found = check_signed(token)
    try:
        body = parse_json(request.get_data()) if request.is_json else None
    except ValueError as exc:
        return error(400, f"the body must be a JSON object {{\"seq\": n, \"action\": {{...}}}}: {exc}")
    if not isinstance(body, dict):
        return error(400, "the body must be a JSON object {\"seq\": n, \"action\": {...}}")
    try:
        seq = parse_seq(body.get("seq"))
    except ValueError as exc:
        return error(400, str(exc))
    action = body.get("action")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return error(400, "\"action\" must be a JSON object with a \"type\"")
    try:
        access = check_link_to_act(token, seq, found)
        applied = moves.act(access.game_id, access.seat, action, seq, link_id=access.link.id)
    except store.StaleSeq as exc:
        return error(409, str(exc))
    except IllegalAction as exc:
        return error(422, f"illegal action: {exc}")
    return jsonify(with_codes(applied.game, turn_payload(applied.game, access.seat,
                                                         applied.state)))


@bp.post("/turn/<token>/undo")
def undo(token):
    """Take back the seat's last action while it may (pbem/log/undo.py): 200 with the turn as
    it was before that action; 409 with the reason (or a stale seq); 403/410 for a foreign or
    spent link."""
    check_signed(token)
    try:
        body = parse_json(request.get_data()) if request.is_json else None
    except ValueError:
        body = None
    if not isinstance(body, dict) or set(body) != {"seq"}:
        return error(400, "the body must be a JSON object {\"seq\": n}")
    try:
        seq = parse_seq(body["seq"])
    except ValueError as exc:
        return error(400, str(exc))
    access = check_link(token)
    try:
        applied = moves.undo(access.game_id, access.seat, seq, link_id=access.link.id)
    except (store.StaleSeq, undoing.UndoRefused) as exc:
        return error(409, str(exc))
    return jsonify(turn_payload(applied.game, access.seat, applied.state))


@bp.post("/turn/<token>/rematch")
def ask_rematch(token):
    """A finished game's rematch, asked from any link its seat was sent: 201 with the new
    game's id when this request made it, 200 with the one made before, 409 while it runs."""
    check_signed(token)
    access = check_readable(token)
    try:
        new, made = rematch.ask(access.game_id, access.seat)
    except rematch.RematchRefused as exc:
        return error(409, str(exc))
    return jsonify({"game": new.id, "made": made}), 201 if made else 200


@bp.post("/turn/<token>/resign")
def resign(token):
    """Resign, through a link that still speaks for the seat (its newest, or the one that
    asked it to agree to abandon the game): 200 with the game's `ending` and `status`, 409
    when it may not (the game is over, the seat resigned already, it is the computer's)."""
    check_signed(token)
    access = keys().check_ending(token)
    if request.get_data():
        return error(400, "the body must be empty")
    return _ended(resigning.resign(access.game_id, access.seat))


@bp.post("/turn/<token>/abandon")
def abandon(token):
    """Propose or agree to abandon the game (`{"agree": true}`) or decline (`{"agree":
    false}`): 200 with the game's `ending` and `status`; 409 when it may not."""
    check_signed(token)
    access = keys().check_ending(token)
    try:
        body = parse_json(request.get_data()) if request.is_json else None
    except ValueError:
        body = None
    if not isinstance(body, dict) or set(body) != {"agree"} or \
            not isinstance(body["agree"], bool):
        return error(400, "the body must be a JSON object {\"agree\": true or false}")
    return _ended(resigning.abandon(access.game_id, access.seat, body["agree"]))


def _ended(game) -> tuple:
    return jsonify({"game": game.id, "status": game.status, "seq": game.seq,
                    "ending": ending.of(game.ending)}), 200


@bp.post("/turn/<token>/messages")
def post_message(token):
    """Table talk: from any link the seat was sent (live, spent or its replay)."""
    access = check_newest(token)     # an older link only reads
    try:
        body = parse_json(request.get_data()) if request.is_json else None
    except ValueError:
        body = None
    if not isinstance(body, dict) or set(body) != {"text"}:
        return error(400, "the body must be a JSON object {\"text\": \"...\"}")
    try:
        talk.post(access.game_id, access.seat, body["text"])
    except talk.TalkError as exc:
        return error(exc.status, str(exc))
    return jsonify({"messages": talk.listing(store.get_game(access.game_id))}), 201
