"""One builder per kind of mail (template): its subject and the template's values."""
from __future__ import annotations

import datetime as dt

from flask import current_app
from flask_babel import format_decimal, format_timedelta, ngettext
from flask_babel import gettext as _
from peewee import fn

from ..db.models import Event, Game, Seat, Signup, utcnow
from ..log import store
from ..games.codes import codes_of, pattern
from ..play import clock, reply_address, talk
from ..present import presenter_for, results
from ..present.titles import game_name, title_of
from .context import (holdings_lines, last_moves, link_max_age_days, own_title, picture,
                      moves_since, since_last_turn, state_at, subject)
from .urls import absolute, game_host_url, game_url, replay_url, turn_url
from ..validate import address_key


def has_played(address: str) -> bool:
    """Whether `address` ever made a move of its own here (in any game)."""
    return (Event.select(Event.seq)
            .join(Seat, on=((Seat.game == Event.game) & (Seat.index == Event.seat)))
            .where(fn.LOWER(Seat.email) == address_key(address),
                   Event.automatic == False, Event.timeout == False)  # noqa: E712
            .exists())


def _invite(row, game, context):
    """The first mail of a game to a seat. To an address that has never played here its subject
    is fixed (nothing the host wrote: /new is open to anyone) and it names the host's address,
    so a stranger's invitation says who sent it."""
    seats = store.seats_of(game)
    mail_subject = subject(game)
    if not has_played(row.recipient):
        mail_subject = "[pbem] " + _("An invitation to play %(game)s by email",
                                     game=game_name(game.rules))
    return mail_subject, dict(seat=seats[row.seat], names=[store.seat_name(s) for s in seats],
                               host=game.host_email or "",
                               game_name=game_name(game.rules), own_title=own_title(game),
                               commitment=store.game_commitment(game), **clock_rules_of(game))


def clock_rules_of(game: Game) -> dict:
    """What the invitation and the first turn mail of a paced game say of its clock (the days
    written in the mail's language: 2, 0.5, 0,5)."""
    days = game.pace_days
    return dict(pace_days=days, on_timeout=game.on_timeout, drop_after=game.drop_after,
                quiet_hours=game.quiet_hours,
                bank={k: format_decimal(v) for k, v in game.bank.items()} if game.bank else None,
                pace_days_text=format_decimal(days) if days is not None else "")


def _host(row, game, context):
    return subject(game), dict(names=[store.seat_name(s) for s in store.seats_of(game)],
                               host_link=game_host_url(game, context))


def _turn(row, game, context):
    seats = store.seats_of(game)
    seat, names = seats[row.seat], [store.seat_name(s) for s in seats]
    seq, since = context["seq"], context["since"]
    rules, state = state_at(game, seq)
    presenter = presenter_for(game.rules)
    view = rules.view(state, seat.index)
    prompt = presenter.subject(view) or _("Your turn")
    reminder = row.kind == "reminder"
    if reminder:
        prompt = _("Reminder: %(prompt)s", prompt=prompt)
    token = context["token"]
    in_force = clock.clock_of(game, seat)
    happened, yours = moves_since(game, seat, since, seq, names)
    return subject(game), dict(
        seat=seat, names=names, prompt=prompt, view=view, rules=rules, reminder=reminder,
        deadline=in_force.deadline if in_force else None,
        held=in_force.held if in_force else None,
        away_until=in_force.away_until if in_force else None,
        overdue=bool(in_force and in_force.deadline and in_force.held is None
                     and in_force.deadline <= utcnow()),
        warn_drop=context.get("warn_drop", False),
        clock_rules=bool(context.get("clock_rules")),      # the seat's first turn mail
        **clock_rules_of(game),
        dropped=context.get("dropped", False), presenter=presenter,
        happened=happened, yours=yours,
        messages=talk.mailed_between(game, seat.index, context.get("talk"), names),
        picture=picture(presenter, view=view, names=names, seat=seat.index, game=game,
                        last_moves=last_moves(game, seat, since, seq, presenter, view)),
        holdings=holdings_lines(presenter, view=view, names=names, seat=seat.index),
        link=turn_url(token), replay_link=replay_url(token), max_age_days=link_max_age_days(),
        reply=reply_help(rules, state, seat.index, view),
        restored_to=(dt.datetime.fromisoformat(context["restored_to"])
                     if context.get("restored_to") else None))


LISTED_CODES = 40       # a mail lists this many reply codes; beyond, their shapes with examples


def reply_help(rules, state, seat: int, view) -> dict | None:
    """How to answer a mail with a move: the codes of `seat`'s actions now (all of them when
    they are few, else one example of each shape); None when replies are off or none is asked."""
    if not reply_address.enabled():
        return None
    actions = rules.legal_actions(state, seat)
    if not actions:
        return None
    codes = codes_of(rules, view, actions)
    if len(codes) <= LISTED_CODES:
        return {"codes": codes, "examples": [], "count": len(codes)}
    return {"codes": [], "examples": pattern(codes)[:LISTED_CODES // 2], "count": len(codes)}


def _reply(row, game, context):
    """The one answer to a reply that was not played: why, and the codes valid now."""
    seat = store.seats_of(game)[row.seat]
    rules, state = state_at(game, min(context["seq"], game.seq))
    return subject(game), dict(seat=seat, what=context["what"], line=context.get("line", ""),
                               detail=context.get("detail", ""),
                               reply=reply_help(rules, state, seat.index,
                                                rules.view(state, seat.index)))


def _played(row, game, context):
    """A played answer confirmed: the seat's moves it made, and who is asked now (the seat
    itself while its turn goes on, with its codes)."""
    seats = store.seats_of(game)
    seat, names = seats[row.seat], [store.seat_name(s) for s in seats]
    _others, yours = moves_since(game, seat, context["since"], context["seq"], names)
    rules, state = state_at(game, min(context["seq"], game.seq))
    asked = store.to_act_of(game, state, rules)
    goes_on = seat.index in asked
    return subject(game), dict(
        seat=seat, yours=yours, goes_on=goes_on,
        waiting=[names[i] for i in asked if i != seat.index],
        reply=reply_help(rules, state, seat.index, rules.view(state, seat.index))
        if goes_on and context.get("reply_token") else None)


def _over(row, game, context):
    seats = store.seats_of(game)
    seat, names = seats[row.seat], [store.seat_name(s) for s in seats]
    rules, state = state_at(game, context["seq"])
    result = store.result_of(game, state, rules)
    presenter = presenter_for(game.rules)
    view = rules.view(state, seat.index)
    return subject(game), dict(
        seat=seat, names=names, ranking=[[names[i] for i in tie]
                                         for tie in result.get("ranking", [])],
        result=result, summary=results.summary(result, names, presenter), view=view,
        presenter=presenter,
        picture=picture(presenter, view=view, names=names, seat=seat.index, game=game),
        happened=since_last_turn(game, seat, context["since"], context["seq"], names),
        messages=talk.mailed_between(game, seat.index, context.get("talk"), names),
        replay_link=absolute(f"/games/{game.id}/replay"),
        record_link=absolute(f"/games/{game.id}/record.json"))


def _host_notice(row, game, context):
    seat = store.seats_of(game)[context["seat"]]
    if context["what"] == "dropped" and game.on_timeout == "bot":
        said = _("the computer plays for %(name)s now", name=seat.name)
    elif context["what"] == "dropped":
        said = _("%(name)s now plays by default moves", name=seat.name)
    elif context["what"] == "nobody":
        said = _("nobody is playing; resume when someone is back")
    elif context["what"] == "optout":
        said = _("%(name)s, who is to move, stopped all mail", name=seat.name)
    else:
        said = _("%(name)s missed a deadline", name=seat.name)
    return f"[pbem] {title_of(game)}: {said}", dict(
        what=context["what"], name=seat.name, drop_after=game.drop_after,
        on_timeout=game.on_timeout, host_link=game_host_url(game))


def _more_time(row, game, context):
    """The host gave a seat more time: its new deadline (the one in force when rendered)."""
    seat = store.seats_of(game)[row.seat]
    in_force = clock.clock_of(game, seat)
    deadline = in_force.deadline if in_force and in_force.deadline else \
        dt.datetime.fromisoformat(context["deadline"])
    return subject(game), dict(seat=seat, deadline=deadline,
                               held=in_force.held if in_force else None)


def _given_back(row, game, context):
    return subject(game), dict(seat=store.seats_of(game)[row.seat])


def _confirm(row, game, context):
    signup = Signup.get_by_id(context["signup"])
    asked = signup.request
    return "[pbem] " + _("confirm your new game"), dict(
        link=context["link"], game_title=game_name(asked["rules"]), title=asked["title"],
        names=[p["name"] for p in asked["players"]],
        hours=current_app.config["SIGNUP_MAX_AGE"] // 3600, game_link=None)


def _home(row, game, context):
    return "[pbem] " + _("All your games"), dict(game_link=None)


def _digest(row, game, context):
    entries = []
    for entry in context["entries"]:
        game_of = Game.get_or_none(Game.id == entry["game"])
        if game_of is None:
            continue
        seats = store.seats_of(game_of)
        seat, names = seats[entry["seat"]], [store.seat_name(s) for s in seats]
        rules, state = state_at(game_of, entry["seq"])
        view = rules.view(state, seat.index)
        prompt = presenter_for(game_of.rules).subject(view) or _("Your turn")
        in_force = clock.clock_of(game_of, seat)      # the deadline in force, as in turn mails
        happened, yours = moves_since(game_of, seat, entry["since"], entry["seq"], names)
        entries.append({
            "game": game_of, "title": title_of(game_of),
            "prompt": _("Reminder: %(prompt)s", prompt=prompt) if entry.get("reminder")
            else prompt,
            "deadline": in_force.deadline if in_force else None,
            "held": in_force.held if in_force else None,
            "away_until": in_force.away_until if in_force else None,
            "overdue": bool(in_force and in_force.deadline and in_force.held is None
                            and in_force.deadline <= utcnow()),
            "happened": happened, "yours": yours,
            "messages": talk.mailed_between(game_of, seat.index, entry.get("talk"), names),
            "link": turn_url(entry["token"]), "replay_link": replay_url(entry["token"])})
    if len(entries) == 1:
        mail_subject = f"[pbem] {entries[0]['title']}: {entries[0]['prompt']}"
    else:
        mail_subject = "[pbem] " + _("%(n)s games wait for you", n=len(entries))
    return mail_subject, dict(entries=entries, game_link=None,
                              max_age_days=link_max_age_days())


def _dropped(row, game, context):
    """The drop mail, with the link that brings the player back (none in the rows queued
    before it carried one)."""
    seats = store.seats_of(game)
    token = context.get("token")
    return subject(game), dict(seat=seats[row.seat], missed=context.get("missed", 0),
                               by_host=context.get("by_host", False),
                               link=turn_url(token) if token else None)


def _abandon_asked(row, game, context):
    """Another player proposes to abandon the game: the link that answers (links.ASKED)."""
    seats = store.seats_of(game)
    return subject(game), dict(seat=seats[row.seat], by=store.seat_name(seats[context["by"]]),
                               link=absolute(f"/turn/{context['token']}/end"))


def _webhook(row, game, context):
    """A chat post (pbem/play/webhooks.py): one public sentence and the game page's address."""
    names = [store.seat_name(s) for s in store.seats_of(game)]
    title, what = title_of(game), context["what"]
    if what == "over":
        rules, state = state_at(game, context["seq"])
        rows = (results.summary(store.result_of(game, state, rules), names) or {}) \
            .get("rows", [])
        ranking = ", ".join(f"{r['rank'] or '-'}. {r['name']}"
                            + (f" ({r['score']})" if r["score"] is not None else "")
                            for r in rows)
        sentence = _("%(title)s is over: %(ranking)s.", title=title, ranking=ranking)
    elif what == "late":
        asked = dt.datetime.fromisoformat(context["asked_at"].rstrip("Z"))
        sentence = _("%(name)s missed the deadline in %(title)s (to move since %(since)s).",
                     name=names[context["seat"]], title=title,
                     since=format_timedelta(max(utcnow() - asked, dt.timedelta(0)),
                                            add_direction=False))
    else:
        who = [names[i] for i in context["to_act"] if i < len(names)]
        sentence = ngettext("%(names)s to move in %(title)s.", "%(names)s to move in %(title)s.",
                            len(who), names=", ".join(who), title=title)
    return subject(game), dict(sentence=f"{sentence} {game_url(game)}")


TEMPLATES = {"invite": _invite, "host": _host, "turn": _turn, "over": _over,
             "host_notice": _host_notice, "confirm": _confirm, "home": _home,
             "digest": _digest, "dropped": _dropped, "webhook": _webhook,
             "reply": _reply, "played": _played, "host_more_time": _more_time,
             "host_given_back": _given_back, "abandon_asked": _abandon_asked}
