"""Euphrat & Tigris, the card game: the table drawn from a seat's view, and the taps per action.

Taps: a card = the colour in your hand (`hand:red`), then the end of a column (`col:3`) or an
empty gap between two treasures* (`gap:2`); a leader = the leader (`leader:red`, in your supply
or on the table), then a card (`slot:3-1`, `gap:2`); the catastrophe = `catastrophe`, then a
card; a standing answer = its switch (`standing:score:always`). Everything else (pass, score
or not, ships, commitments, the order of conflicts, the trader's exchange) is a button.
Buttons and the confirm bar say what the action does, as an instruction (`label`).
"""
from __future__ import annotations

from markupsafe import Markup, escape

from pbem.present import Presenter, gettext as _, ngettext

from . import effects
from .cards import COLOURS, COLUMN_LIMIT, DYNASTIES
from .engine import STANDING
from .views import colour_name, leader_name, ship_name, where

PITCH = 44                 # one column (or row) of the table, in SVG units
CARD = 40                  # a card's side; the rest is the space between cards
PAD = 6
PILE_STRIP = 58            # the victory piles under the table
FILL = {"black": "#2b2b2b", "green": "#2e7d32", "red": "#c62828", "blue": "#1565c0",
        "treasure": "#d4a017", None: "#7b5a43"}
STANDING_ORDER = ("score", "reward", "commit", "exchange")


def place_token(pos: dict) -> str:
    """The token of a card on the table: `slot:<column>-<row>` or `gap:<gap>`."""
    if "gap" in pos:
        return f"gap:{pos['gap']}"
    return f"slot:{pos['column']}-{pos['row']}"


def slot_of(view: dict, pos: dict) -> dict | None:
    """The shown slot at a position (`{"gap": g}` or `{"column": c, "row": r}`), or None."""
    if "gap" in pos:
        return view["gaps"][pos["gap"]]
    column = view["columns"][pos["column"]]
    return column[pos["row"]] if pos["row"] < len(column) else None


def leader_at(view: dict, seat, colour: str) -> dict | None:
    """Where the seat's leader of that colour stands on the table, or None (in supply)."""
    wanted = [seat, colour]
    for c, column in enumerate(view["columns"]):
        for r, slot in enumerate(column):
            leader = slot.get("leader")
            if leader and list(leader) == wanted:
                return {"column": c, "row": r}
    for g, slot in enumerate(view["gaps"]):
        if slot is not None:
            leader = slot.get("leader")
            if leader and list(leader) == wanted:
                return {"gap": g}
    return None


def standing_decision(kind: str) -> str:
    """The same words as the standing answers' switches."""
    return {"score": _("A point in a kingdom of my leader"),
            "reward": _("A card for a won conflict"),
            "commit": _("Cards in a conflict I did not start"),
            "exchange": _("The trader's exchange of a treasure")}[kind]


def standing_answer(kind: str, answer: str) -> str:
    if answer == "ask":
        return _("ask me")
    if kind == "commit":
        return _("all I hold") if answer == "all" else _("none")
    return _("always") if answer == "always" else _("never")


def face_word(face: str | None) -> str:
    """What a card's face is ("temple"), or "face-down card"."""
    words = {"black": _("population"), "green": _("trade"), "red": _("temple"),
             "blue": _("agriculture"), "treasure": _("treasure")}
    return words.get(face) or _("face-down card")


def dynasty(seat: int) -> str:
    return DYNASTIES[seat % len(DYNASTIES)]


class Words:
    """The game's things in the page's language, for its templates (`{% set n =
    presenter.words %}`, then `n.face(...)`): plain calls, where a Jinja macro a word made the
    macros a fifth of the time of drawing a page."""

    face = staticmethod(face_word)
    standing_decision = staticmethod(standing_decision)
    standing_answer = staticmethod(standing_answer)

    @staticmethod
    def colour(colour: str) -> str:
        return {"black": _("black"), "green": _("green"), "red": _("red"),
                "blue": _("blue")}.get(colour) or _("treasure")

    @staticmethod
    def ship(ship: str) -> str:
        return {"blue-black": _("blue-black ship"),
                "blue-green": _("blue-green ship")}.get(ship) or _("blue-red ship")

    @staticmethod
    def leader(colour: str) -> str:
        return {"black": _("king"), "green": _("trader"), "red": _("priest")}.get(colour) \
            or _("farmer")

    @staticmethod
    def dynasty(name: str) -> str:
        return {"bow": _("bow"), "lion": _("lion"), "bull": _("bull")}.get(name) or _("vase")

    @staticmethod
    def player(names, seat) -> str:
        if names and seat is not None and seat < len(names):
            return names[seat]
        return _("Player %(n)s") % {"n": (seat or 0) + 1}


class TigrisCardsPresenter(Presenter):
    name = "tigris_cards"

    def ending(self, result: dict) -> dict:
        """The rulebook's end (the deck, one treasure left; our ruling: a stalled table) and
        its scoring."""
        why = {"deck": _("The deck could not refill every hand to 8 cards."),
               "treasures": _("Only one real treasure card was left on the table."),
               "stalled": _("A whole round of turns went by with the table full and no card "
                            "leaving any hand."),
               "table_full": _("No card could be placed on the table any more."),
               "passing": _("Every player passed a whole turn in a row.")}.get(result.get("end"))
        return {"why": why,
                "how": _("Each player scores the colour of which their victory pile holds "
                         "fewest cards; each treasure card counts as any colour, put on the "
                         "weakest. A tie goes to the second weakest colour, then the third.")}
    board_template = "games/tigris_cards/board.html"
    holdings_template = "games/tigris_cards/holdings.html"
    public_template = "games/tigris_cards/public.html"
    email_template = "games/tigris_cards/email.html"

    fill = FILL
    colours = COLOURS
    words = Words()
    holdings_text_template = "games/tigris_cards/holdings.txt"
    standing_order = STANDING_ORDER

    # ---- taps --------------------------------------------------------------------------------
    def taps(self, action: dict, view: dict) -> list[str]:
        kind = action.get("type")
        if kind == "card":
            target = f"gap:{action['gap']}" if "gap" in action else f"col:{action['column']}"
            return [f"hand:{action['colour']}", target]
        if kind == "leader":
            return [f"leader:{action['colour']}", place_token(action)]
        if kind == "catastrophe":
            return ["catastrophe", place_token(action)]
        if kind == "standing":
            return [f"standing:{action['decision']}:{action['answer']}"]
        return []

    # ---- labels ------------------------------------------------------------------------------
    def effect(self, action: dict, view: dict) -> str:
        """What the action does, by the rulebook (the confirm bar's second line)."""
        return effects.effect(action, view)

    def label(self, action: dict, view: dict) -> str | None:
        """What the button or the confirm bar says: "Pass this action", "Score a red point"."""
        kind = action.get("type")
        decision = view.get("decision") or {}
        colour = colour_name(action.get("colour") or decision.get("colour", ""))
        if kind == "pass":
            return _("Pass this action")
        if kind == "score" and decision.get("kind") == "reward":
            return _("Put a %(colour)s card on your victory pile", colour=colour)
        if kind == "score":
            return _("Score a %(colour)s point", colour=colour)
        if kind == "no_score" and decision.get("kind") == "reward":
            return _("Put no card on your victory pile")
        if kind == "no_score":
            return _("Do not score a %(colour)s point", colour=colour)
        if kind == "ship":
            if "column" in decision:
                return _("Buy the %(ship)s ship in column %(n)s", ship=ship_name(action["ship"]),
                         n=decision["column"] + 1)
            return _("Buy the %(ship)s ship", ship=ship_name(action["ship"]))
        if kind == "no_ship":
            return _("Buy no ship")
        if kind == "commit":
            if action["count"] == 0:
                return _("Commit no %(colour)s cards", colour=colour)
            return ngettext("Commit %(num)s %(colour)s card", "Commit %(num)s %(colour)s cards",
                            action["count"], colour=colour)
        if kind == "conflict":
            return _("Settle the %(colour)s conflict next", colour=colour)
        if kind == "exchange":
            return _("Take the treasure of column %(n)s for a red card", n=action["column"] + 1)
        if kind == "no_exchange":
            return _("Do not exchange a treasure")
        if kind == "card" and "gap" in action:
            return _("Place a %(colour)s card face down between columns %(a)s and %(b)s",
                     colour=colour, a=action["gap"] + 1, b=action["gap"] + 2)
        if kind == "card":
            return _("Place a %(colour)s card in column %(n)s", colour=colour,
                     n=action["column"] + 1)
        if kind == "leader":
            return self._leader_label(action, view)
        if kind == "catastrophe":
            pos = {k: action[k] for k in ("gap", "column", "row") if k in action}
            face = (slot_of(view, pos) or {}).get("card")
            if face is None:
                return _("Play the catastrophe on %(where)s", where=where(pos))
            return _("Play the catastrophe on the %(colour)s card, %(where)s",
                     colour=colour_name(face), where=where(pos))
        if kind == "standing":
            return _("Standing answer – %(decision)s: %(answer)s",
                     decision=standing_decision(action["decision"]),
                     answer=standing_answer(action["decision"], action["answer"]))
        return None

    @staticmethod
    def _leader_label(action: dict, view: dict) -> str:
        pos = {k: action[k] for k in ("gap", "column", "row") if k in action}
        name = leader_name(action["colour"])
        old = leader_at(view, view.get("seat"), action["colour"])
        if old is None:
            return _("Place your %(leader)s on %(where)s", leader=name, where=where(pos))
        return _("Move your %(leader)s from %(old)s to %(new)s", leader=name, old=where(old),
                 new=where(pos))

    def then_label(self, token: str, view: dict) -> str | None:
        """What tapping a place does once `token` is picked, with `%s` for the place's name
        ("Place a red card at %s"): the turn script names each highlighted place with it."""
        kind, _sep, what = token.partition(":")
        place = "%s"
        if kind == "hand":
            return _("Place a %(colour)s card: %(place)s", colour=colour_name(what), place=place)
        if kind == "leader":
            old = leader_at(view, view.get("seat"), what)
            if old is None:
                return _("Place your %(leader)s on %(where)s", leader=leader_name(what),
                         where=place)
            return _("Move your %(leader)s from %(old)s to %(new)s", leader=leader_name(what),
                     old=where(old), new=place)
        if token == "catastrophe":
            return _("Play the catastrophe on %(where)s", where=place)
        return None

    def last_moves(self, actions: list[dict], view: dict) -> set[str]:
        """The places of the cards, leaders and catastrophes others played: a card put at the
        end of a column is one of its last cards (as many as were put there)."""
        marks, ends = set(), {}
        for action in actions:
            kind = action.get("type")
            if kind == "card" and "column" in action:
                ends[action["column"]] = ends.get(action["column"], 0) + 1
            elif kind in ("card", "leader", "catastrophe") and ("gap" in action or "row" in action):
                marks.add(place_token(action))
        for c, n in ends.items():
            if 0 <= c < len(view["columns"]):
                rows = len(view["columns"][c])
                marks.update(f"slot:{c}-{r}" for r in range(max(1, rows - n), rows))
        return marks

    def board_lines(self, view: dict, names=None, seat=None) -> list[str]:
        """The table in words, for the turn mail's plain text: each column top-down (its
        treasure* first, leaders on their cards), the connecting cards between columns, the
        ships, and each victory pile."""
        words = self.words

        def card(slot: dict) -> str:
            if "ship" in slot:
                text = words.ship(slot["ship"])
            else:
                text = face_word(slot.get("card"))
                if slot.get("face_down") and slot.get("card") is not None:
                    text += f" ({_('face down')})"
            if slot.get("leader"):
                owner, colour = slot["leader"]
                text += f" ({words.player(names, owner)}: {words.leader(colour)})"
            return text

        lines = []
        for c, column in enumerate(view["columns"]):
            lines.append(_("Column %(n)s", n=c + 1) + ": " + ", ".join(card(s) for s in column))
            gap = view["gaps"][c] if c < len(view["gaps"]) else None
            if gap is not None:
                lines.append(_("Between columns %(a)s and %(b)s", a=c + 1, b=c + 2) + ": "
                             + card(gap))
        for s, pile in enumerate(view["piles"]):
            lines.append(f"{words.player(names, s)}: "
                         + _("%(n)s cards in the victory pile", n=pile["size"]))
        return lines

    # ---- helpers for the templates -------------------------------------------------------------
    def dynasty(self, seat) -> str:
        return dynasty(seat) if isinstance(seat, int) else ""

    def hand_groups(self, view: dict) -> list[tuple[str, int]]:
        """The seat's hand as (face, how many), in the order of the colours."""
        hand = view.get("hand") or []
        return [(face, hand.count(face)) for face in COLOURS + ("treasure",) if face in hand]

    def table(self, view: dict, seat) -> dict:
        """Where everything on the table is drawn (SVG units)."""
        columns, gaps = view["columns"], view["gaps"]
        depth = max(len(c) + (1 if len(c) - 1 < COLUMN_LIMIT else 0) for c in columns)
        top = PAD + PITCH                       # the treasures' row; the gap row is above it
        cells, ends, leaders = [], [], []
        for c, column in enumerate(columns):
            x = PAD + c * PITCH
            for r, slot in enumerate(column):
                cell = self._cell(slot, x, top + r * PITCH, {"column": c, "row": r}, seat, leaders)
                cells.append(cell)
            if len(column) - 1 < COLUMN_LIMIT:
                ends.append({"x": x, "y": top + len(column) * PITCH, "token": f"col:{c}",
                             "column": c, "name": _("the end of column %(n)s", n=c + 1)})
        gap_cells, empty_gaps = [], []
        for g, slot in enumerate(gaps):
            x = PAD + g * PITCH + PITCH // 2
            if slot is None:
                empty_gaps.append({"x": x, "y": PAD, "token": f"gap:{g}", "gap": g,
                                   "name": _("the gap between columns %(a)s and %(b)s",
                                             a=g + 1, b=g + 2)})
            else:
                gap_cells.append(self._cell(slot, x, PAD, {"gap": g}, seat, leaders))
        self._mark_conflict(view.get("conflict"), leaders)
        width = 2 * PAD + 7 * PITCH + CARD
        board_bottom = top + depth * PITCH + 2
        piles = self._piles(view, width, board_bottom)
        return {"width": width, "height": board_bottom + PILE_STRIP + PAD,
                "cells": cells + gap_cells, "ends": ends, "empty_gaps": empty_gaps,
                "leaders": leaders, "kingdoms": self._kingdoms(gaps, top, board_bottom),
                "links": [{"x": PAD + g * PITCH + CARD, "y": top + CARD // 2 - 4}
                          for g, slot in enumerate(gaps) if slot is not None],
                "piles": piles, "card": CARD, "top": top, "pile_y": board_bottom}

    @staticmethod
    def cards(t: dict) -> Markup:
        """The cards on the table (`table(...)["cells"]`) as SVG, built here rather than in
        the template: a template loop over them was a third of drawing the table."""
        out = []
        for c in t["cells"]:
            x, y = c["x"], c["y"]
            if c["kind"] == "ship":
                out.append(
                    f'<g pointer-events="none"><rect x="{x}" y="{y}" width="{CARD}" '
                    f'height="{CARD}" rx="5" fill="{FILL["blue"]}"/>\n<path d="M{x} {y + 24} '
                    f'h{CARD} v11 a5 5 0 0 1 -5 5 h-30 a5 5 0 0 1 -5 -5 Z" '
                    f'fill="{FILL[c["other"]]}"/>\n<use href="#tc-i-ship" x="{x + 8}" '
                    f'y="{y + 4}" width="24" height="24"/><title>{escape(Words.ship(c["ship"]))}'
                    f'</title></g>')
                continue
            star = c["star"]
            out.append(
                f'<rect class="tc-c" data-tap="{c["token"]}" role="img" '
                f'aria-label="{escape(c["name"])}" x="{x}" y="{y}" width="{CARD}" '
                f'height="{CARD}" rx="5" fill="{FILL[c["face"]]}" '
                f'stroke="{"#8a5a00" if star else "#00000055"}" '
                f'stroke-width="{2.5 if star else 1}"><title>{escape(c["title"])}</title></rect>')
            out.append(f'<use href="#tc-i-back" x="{x + 8}" y="{y + 8}" width="24" height="24" '
                       f'pointer-events="none"/>' if c["kind"] == "back" else
                       f'<use href="#tc-i-{c["face"]}" x="{x + 9}" y="{y + 9}" width="22" '
                       f'height="22" pointer-events="none"/>')
            if c["face_down"] and c["kind"] == "card":
                out.append(f'<rect x="{x + 2}" y="{y + 2}" width="{CARD - 4}" height="{CARD - 4}" '
                           f'rx="4" fill="none" stroke="#d7c2a8" stroke-width="2" '
                           f'stroke-dasharray="4 3" pointer-events="none"/><path d="M{x} {y + 5} '
                           f'a5 5 0 0 1 5 -5 h11 l-16 16 Z" fill="#7b5a43" pointer-events="none"/>')
            if star and c["face"] != "treasure":
                out.append(f'<use href="#tc-i-star" x="{x + 26}" y="{y + 1}" width="13" '
                           f'height="13" pointer-events="none"/>')
        return Markup("\n".join(out))

    @staticmethod
    def places(t: dict) -> Markup:
        """The empty places a card may go: the gaps between columns, the columns' ends."""
        box = (f'width="{CARD}" height="{CARD}" rx="5" fill="#efe6d2" stroke="#b9a88a" '
               f'stroke-width="1.2" stroke-dasharray="3 3"')
        out = [f'<rect class="tc-empty" data-tap="{g["token"]}" role="img" '
               f'aria-label="{escape(g["name"])}" x="{g["x"]}" y="{g["y"]}" {box}><title>'
               f'{escape(_("Between columns %(a)s and %(b)s", a=g["gap"] + 1, b=g["gap"] + 2))}'
               f'</title></rect>' for g in t["empty_gaps"]]
        for e in t["ends"]:
            x, y = e["x"], e["y"]
            out.append(f'<rect class="tc-empty" data-tap="{e["token"]}" role="img" '
                       f'aria-label="{escape(e["name"])}" x="{x}" y="{y}" {box}><title>'
                       f'{escape(_("Column %(n)s", n=e["column"] + 1))}</title></rect>\n'
                       f'<path d="M{x + 20} {y + 14} v12 M{x + 14} {y + 20} h12" stroke="#b9a88a" '
                       f'stroke-width="2" pointer-events="none"/>')
        return Markup("".join(out))

    @staticmethod
    def rings(t: dict, marks) -> Markup:
        """The cards the others played since the seat's last turn."""
        return Markup("".join(
            f'<rect class="tc-last" x="{c["x"] - 2}" y="{c["y"] - 2}" width="{CARD + 4}" '
            f'height="{CARD + 4}" rx="7"/>' for c in t["cells"] if c["token"] in marks))

    @staticmethod
    def piles(t: dict, view: dict, seat, names: list) -> Markup:
        """Each player's victory pile: its size, its top card, whose it is (the seat's own
        framed, the active player's lit)."""
        out = []
        for p in t["piles"]:
            x, y, w, top, mine = p["x"], p["y"], p["w"], p["top"], seat == p["seat"]
            lit = "#fff8e6" if view.get("active") == p["seat"] and not view.get("over") \
                else "#f8f3e7"
            name = Words.player(names, p["seat"])
            short = name if len(name) <= 14 else name[:8] + "…"    # Jinja's truncate(9)
            title = _("%(n)s cards in the victory pile", n=p["size"])
            icon = (f'<use href="#tc-i-{top}" x="{x + w - 27}" y="{y + 12}" width="18" '
                    f'height="18"/>') if top else ""
            out.append(
                f'<g pointer-events="none"><rect x="{x}" y="{y}" width="{w}" height="42" rx="6" '
                f'fill="{lit}" stroke="{"#1b5e8c" if mine else "#cbbd9f"}" '
                f'stroke-width="{2 if mine else 1}"/>\n<circle cx="{x + 12}" cy="{y + 13}" r="9" '
                f'fill="#555"/><use href="#tc-d-{p["dynasty"]}" x="{x + 5}" y="{y + 6}" '
                f'width="14" height="14"/>\n<rect x="{x + w - 30}" y="{y + 5}" width="24" '
                f'height="32" rx="3" fill="{FILL[top] if top else "#efe6d2"}" stroke="#00000055" '
                f'stroke-dasharray="{"" if top else "2 2"}"/>\n{icon}<text x="{x + w - 34}" '
                f'y="{y + 26}" font-size="14" font-weight="700" text-anchor="end" '
                f'fill="#1d2330">{p["size"]}</text>\n<text x="{x + 5}" y="{y + 37}" '
                f'font-size="10" fill="#1d2330">{escape(short)}</text>\n<title>{escape(name)}: '
                f'{escape(title)}</title></g>')
        return Markup("\n".join(out))

    def leaders(self, t: dict, view: dict, names: list) -> Markup:
        """The leaders on the table (`table(...)["leaders"]`), a conflict's two ringed. The
        seat's own are tapped on their whole card: a card with a leader is never a place to
        play on."""
        out, half = [], CARD // 2
        for ld in t["leaders"]:
            x, y, token = ld["x"], ld["y"], ld["token"]
            if ld.get("conflict"):
                dashes = "5 3" if ld["conflict"] == "defender" else ""
                out.append(f'<circle cx="{x}" cy="{y}" r="19" fill="none" stroke="#d50000" '
                           f'stroke-width="3" stroke-dasharray="{dashes}" pointer-events="none"/>')
            hit = ""
            if token:
                then = escape(self.then_label(token, view) or "")
                hit = (f'<rect class="tc-hit" data-tap="{escape(token)}" data-then="{then}" '
                       f'role="img" aria-label="{escape(ld["name"])}" x="{x - half}" '
                       f'y="{y - half}" width="{CARD}" height="{CARD}" rx="5" '
                       f'fill="transparent"/>')
            title = escape(f'{Words.player(names, ld["seat"])}: {Words.leader(ld["colour"])}')
            quiet = "" if token else ' pointer-events="none"'     # only your own are tapped
            out.append(f'<g class="tc-leader"{quiet}>'
                       f'<circle cx="{x}" cy="{y}" r="14" fill="{FILL[ld["colour"]]}" '
                       f'stroke="#fff" stroke-width="2.5"/>\n<use href="#tc-d-{ld["dynasty"]}" '
                       f'x="{x - 10}" y="{y - 10}" width="20" height="20" pointer-events="none"/>\n'
                       f'{hit}<title>{title}</title></g>')
        return Markup("\n".join(out))

    def _cell(self, slot: dict, x: int, y: int, at: dict, seat, leaders: list) -> dict:
        cell = {"x": x, "y": y, "token": place_token(at),
                "star": bool(slot.get("treasure_star")),
                "face_down": bool(slot.get("face_down"))}
        if "ship" in slot:
            cell.update(kind="ship", ship=slot["ship"],
                        other=slot["ship"].split("-")[1], token=None)
        else:
            face = slot.get("card")
            words = [face_word(face)]          # its title: worded here, not by a macro a card
            if cell["star"]:
                words.append(f" ({_('treasure*')})")
            if cell["face_down"]:
                words.append(f" – {_('face down')}")
            cell.update(kind="card" if face is not None else "back", face=face,
                        title="".join(words), name=f"{where(at)}: {''.join(words)}")
        if "leader" in slot:
            owner, colour = slot["leader"]
            leaders.append({"x": x + CARD // 2, "y": y + CARD // 2, "seat": owner,
                            "colour": colour, "dynasty": dynasty(owner), "at": at,
                            "token": f"leader:{colour}" if owner == seat else None,
                            "name": _("Your %(leader)s on %(where)s", leader=leader_name(colour),
                                      where=where(at))})
        return cell

    @staticmethod
    def _mark_conflict(conflict: dict | None, leaders: list) -> None:
        """Ring the two leaders of a conflict in progress (before it is resolved)."""
        if not conflict or conflict.get("winner") is not None:
            return
        for side in ("attacker", "defender"):
            at = conflict.get(f"{side}_at") or {}
            for leader in leaders:
                if leader["at"] == at and leader["seat"] == conflict[side]:
                    leader["conflict"] = side

    @staticmethod
    def _kingdoms(gaps: list, top: int, bottom: int) -> list[dict]:
        """A light band behind each kingdom: neighbouring columns joined by connecting cards."""
        bands, first = [], 0
        for c in range(len(gaps) + 1):
            if c == len(gaps) or gaps[c] is None:
                bands.append({"x": PAD + first * PITCH - 3, "y": top - 3,
                              "w": (c - first) * PITCH + CARD + 6,
                              "h": bottom - top + 1, "joined": c > first})
                first = c + 1
        return bands

    @staticmethod
    def _piles(view: dict, width: int, y: int) -> list[dict]:
        players = view["players"]
        slot = (width - 2 * PAD) / players
        return [{"seat": s, "x": round(PAD + s * slot, 1), "y": y + 6, "w": round(slot - 6, 1),
                 "size": pile["size"], "top": pile["top"], "dynasty": dynasty(s)}
                for s, pile in enumerate(view["piles"])]

    def standing_rows(self, view: dict) -> list[tuple[str, str, list[str]]]:
        """(decision, current answer, answers) for the standing-answers switches."""
        standing = view.get("standing") or {}
        return [(kind, standing.get(kind, "ask"), list(STANDING[kind]))
                for kind in STANDING_ORDER if kind in STANDING]


presenter = TigrisCardsPresenter()
