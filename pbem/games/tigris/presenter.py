"""Tigris & Euphrates drawn and tapped: the 16 x 11 board as SVG, the seat's pieces as buttons.

Taps (each a `data-tap` token on the page):
  place or move a leader   leader:<name>, sq:<row>-<col>
  withdraw a leader        leader:<name>, supply
  place a tile             hand:<colour>, sq:<row>-<col>
  place a catastrophe      catastrophe, sq:<row>-<col>
  swap tiles               swap, swap:<colour>:<count> ... (colours in rulebook order)
  build a monument         monument:<first>/<second>, sq:<top-left square>
Committing tiles, choosing a war, declining a monument, taking treasures, passing and the
standing answer for support are buttons (no taps): their labels (`label`) say what the button
does, as an instruction.
"""
from __future__ import annotations

import functools

from markupsafe import Markup, escape

from pbem.present import N_, Presenter, gettext as _, ngettext

from .board import (COLORS, COLS, COLUMN_LETTERS as LETTERS, DYNASTIES, LEADER_COLORS, LEADERS,
                    ROWS, from_rc, label)
from .decisions import DECISIONS
from .vocabulary import as_now
from .words import (colour as colour_name, kind as kind_name, leader as leader_name,
                    monument as monument_name, war_prompt as war_name)

# the geometry and the words are the engine's (board.py, words.py); the drawing's own:
CELL = 40                 # one square in SVG user units
MARGIN = 22               # room for the column letters and row numbers
LEADER_ORDER = tuple(LEADERS.values())      # king, priest, farmer, trader

# Fills for the page (SVG) and for mail clients (table cells)
FILL = {"red": "#cf3d2e", "blue": "#2f6fc4", "green": "#2f8a3e", "black": "#33302c",
        "land": "#efe6cf", "river": "#a9d3ee", "down": "#8c7a5e", "catastrophe": "#4b3a30"}


def sq(at) -> str:
    return f"sq:{at[0]}-{at[1]}"


# a tile's two taps, made once: a turn offers ~400 of them
SQUARE_TAPS = tuple(tuple(sq((r, c)) for c in range(COLS)) for r in range(ROWS))
TILE_TAPS = {c: f"hand:{c}" for c in COLORS}
LEADER_TAPS = {name: f"leader:{name}" for name in LEADERS.values()}


def square_label(at) -> str:
    """"B5" for the square at [row, column]."""
    return label(from_rc(at))


def tiles_of(color: str, n: int) -> str:
    """"2 temples": tiles of one colour, by the kind the rulebook names."""
    if color == "red":
        return ngettext("%(num)s temple", "%(num)s temples", n)
    if color == "blue":
        return ngettext("%(num)s farm", "%(num)s farms", n)
    if color == "green":
        return ngettext("%(num)s market", "%(num)s markets", n)
    return ngettext("%(num)s settlement", "%(num)s settlements", n)


def dynasty_name(name: str) -> str:
    return {"bow": _("bow"), "bull": _("bull"), "pot": _("pot"), "lion": _("lion")}[name]


def standing_label(answer: str) -> str:
    """The standing answer for support, as an instruction (a button)."""
    if answer == "never":
        return _("From now on, never commit tiles in conflicts on other players' turns")
    return _("From now on, ask me in conflicts on other players' turns")


def standing_now(answer: str) -> str:
    """The standing answer for support in force (the seat's holdings)."""
    if answer == "never":
        return _("never commit tiles, whatever you hold")
    return _("ask me")


def commit_label(n: int, conflict: dict) -> str:
    """"Commit 2 temples": the tiles of the conflict's colour (red in a revolt)."""
    color = DECISIONS[conflict["kind"]].tile_colour(conflict) if conflict else "red"
    if n == 0:
        return {"red": _("Commit no temples"), "blue": _("Commit no farms"),
                "green": _("Commit no markets"), "black": _("Commit no settlements")}[color]
    if color == "red":
        return ngettext("Commit %(num)s temple", "Commit %(num)s temples", n)
    if color == "blue":
        return ngettext("Commit %(num)s farm", "Commit %(num)s farms", n)
    if color == "green":
        return ngettext("Commit %(num)s market", "Commit %(num)s markets", n)
    return ngettext("Commit %(num)s settlement", "Commit %(num)s settlements", n)


PLACING = ("place_leader", "move_leader", "withdraw_leader", "place_tile", "place_catastrophe",
           "build_monument")
# Instructions by piece, translated only when one is shown (N_ marks them for the catalogue)
PLACE_TILE = {"red": N_("Place a temple on %(square)s"), "blue": N_("Place a farm on %(square)s"),
              "green": N_("Place a market on %(square)s"),
              "black": N_("Place a settlement on %(square)s")}
PLACE_LEADER = {"king": N_("Place your king on %(square)s"),
                "priest": N_("Place your priest on %(square)s"),
                "farmer": N_("Place your farmer on %(square)s"),
                "trader": N_("Place your trader on %(square)s")}
MOVE_LEADER = {"king": N_("Move your king from %(old)s to %(new)s"),
               "priest": N_("Move your priest from %(old)s to %(new)s"),
               "farmer": N_("Move your farmer from %(old)s to %(new)s"),
               "trader": N_("Move your trader from %(old)s to %(new)s")}
WITHDRAW_LEADER = {"king": N_("Take your king back from %(old)s"),
                   "priest": N_("Take your priest back from %(old)s"),
                   "farmer": N_("Take your farmer back from %(old)s"),
                   "trader": N_("Take your trader back from %(old)s")}

PICK_TILE = {"red": N_("Place a temple…"), "blue": N_("Place a farm…"),
             "green": N_("Place a market…"), "black": N_("Place a settlement…")}
PICK_LEADER = {"king": N_("Your king…"), "priest": N_("Your priest…"),
               "farmer": N_("Your farmer…"), "trader": N_("Your trader…")}


def placing_label(action: dict, view: dict) -> str:
    """Putting a piece on the board (or taking a leader back) as an instruction."""
    kind = action["type"]
    if kind == "place_tile":
        return _(PLACE_TILE[action["colour"]], square=square_label(action["at"]))
    if kind == "place_catastrophe":
        return _("Place a catastrophe on %(square)s", square=square_label(action["at"]))
    if kind == "build_monument":
        r, c = action["at"]
        return _("Build the %(monument)s monument on %(first)s–%(last)s",
                 monument=monument_name(action["monument"]), first=square_label((r, c)),
                 last=square_label((r + 1, c + 1)))
    leader = action["leader"]
    if kind == "place_leader":
        return _(PLACE_LEADER[leader], square=square_label(action["at"]))
    old = next((ld["square"] for ld in view.get("leaders", [])
                if ld["seat"] == view.get("seat") and ld["leader"] == leader), "?")
    if kind == "withdraw_leader":
        return _(WITHDRAW_LEADER[leader], old=old)
    return _(MOVE_LEADER[leader], old=old, new=square_label(action["at"]))


@functools.lru_cache(maxsize=8)
def ground_squares(terrain: tuple, river: str, land: str) -> tuple[dict, ...]:
    """Every square as it is when empty — where it is, its name ("F7, river": what a screen
    reader says), its ground, its tap token — built once per board and language: most squares
    of every page are empty. Read only."""
    squares = tuple({"r": r, "c": c, "x": MARGIN + c * CELL, "y": MARGIN + r * CELL,
                     "label": square_label((r, c)), "title": square_label((r, c)),
                     "name": f"{square_label((r, c))}, {river if ground == '~' else land}",
                     "river": ground == "~", "framed": ground == "C",
                     "tile": None, "leader": None, "treasure": None, "catastrophe": False,
                     "unification": False, "fighting": False, "token": sq((r, c)),
                     "mine": False}
                    for r, row in enumerate(terrain) for c, ground in enumerate(row))
    for s in squares:               # an empty square's tap target, drawn once too
        s["target"] = target(s)
    return squares


def target(s: dict, own: str = "") -> str:
    """A square's tap target, named by its square ("F7, river"), with what stands on it."""
    return drawn_target(s["x"], s["y"], own, s["token"], s["title"], s["label"], s["name"])


@functools.lru_cache(maxsize=8192)
def drawn_target(x: int, y: int, own: str, token: str, title: str, label: str, name: str
                 ) -> str:
    """A square's target, kept per process: an empty square's is built once with the ground,
    and from one move to the next most occupied squares' are the same (~60 mid-game)."""
    title = f"<title>{escape(title)}</title>" if title != label else ""
    return (f'<use href="#tg-target" x="{x}" y="{y}"{own} data-tap="{token}" '
            f'role="img" aria-label="{escape(name)}">{title}</use>')


@functools.lru_cache(maxsize=4)
def river_path(river: tuple) -> str:
    return "".join(f"M{MARGIN + (i % COLS) * CELL} {MARGIN + (i // COLS) * CELL}"
                   f"h{CELL}v{CELL}h-{CELL}z" for i, on in enumerate(river) if on)


@functools.lru_cache(maxsize=4)
def framed_squares(terrain: tuple) -> Markup:
    """The frames of the squares whose treasure is taken first: the same on every page."""
    return Markup("".join(f'<use href="#tg-frame" x="{MARGIN + c * CELL}" y="{MARGIN + r * CELL}"/>'
                          for r, row in enumerate(terrain) for c, ground in enumerate(row)
                          if ground == "C"))


@functools.lru_cache(maxsize=8192)
def drawn_pieces(x: int, y: int, tile: tuple | None, catastrophe: bool, framed: bool | None,
                 unification: bool, leader: tuple | None, fighting: bool, mine: bool) -> str:
    """What stands on one square: `tile` its colour and whether face down, `framed` None for
    no treasure, `leader` its name, colour and dynasty. Most squares are the same from one
    move to the next, so the drawings are kept per process."""
    out = []
    half = CELL / 2
    if tile:
        colour, face_down = tile
        out.append(f'<use class="tg-down" href="#tg-t-down" x="{x}" y="{y}"/>' if face_down else
                   f'<use class="tg-tile" href="#tg-t-{colour}" x="{x}" y="{y}"/>')
    if catastrophe:
        out.append(f'<use class="tg-catastrophe" href="#tg-t-catastrophe" x="{x}" y="{y}"/>')
    if framed is not None:
        out.append(f'<use class="tg-treasure{" tg-framed" if framed else ""}" '
                   f'href="#tg-t-treasure{"-framed" if framed else ""}" x="{x}" y="{y}"/>')
    if unification:
        out.append(f'<g class="tg-unification"><circle cx="{x + half}" cy="{y + half}" '
                   f'r="12" fill="#fff" stroke="#222" stroke-width="2"/><path d="M{x + 13} '
                   f'{y + 20} H{x + 27} M{x + 20} {y + 13} V{y + 27}" stroke="#222" '
                   f'stroke-width="3"/></g>')
    if leader:
        name, colour, dynasty = leader
        if fighting:
            out.append(f'<circle cx="{x + half}" cy="{y + half}" r="18.5" fill="none" '
                       f'stroke="#e65100" stroke-width="3.5" stroke-dasharray="5 2.5"/>')
        out.append(f'<circle class="tg-leader tg-{escape(name)}" '
                   f'cx="{x + half}" cy="{y + half}" r="{14.5 if fighting else 15.5}" '
                   f'fill="{FILL[colour]}" '
                   f'stroke="{"#ffd54f" if mine else "#ffffff"}" '
                   f'stroke-width="{3 if mine else 2}"></circle>')
        out.append(f'<use href="#tg-{escape(dynasty)}" x="{x + 9}" y="{y + 9}" '
                   f'width="22" height="22"/>')
    return "\n".join(out)


class TigrisPresenter(Presenter):
    name = "tigris"

    def ending(self, result: dict) -> dict:
        """The rulebook's end (the bag, or 2 treasures left) and its scoring."""
        return {"why": result.get("end_reason"),
                "how": _("Each player scores their weakest colour of victory points; each "
                         "treasure counts as one point of any colour, put on the weakest. A tie "
                         "goes to the second weakest colour, then the third.")}
    board_template = "games/tigris/board.html"
    holdings_template = "games/tigris/holdings.html"
    public_template = "games/tigris/public.html"
    email_template = "games/tigris/email.html"
    says_outcome = True         # a tile or leader may score, start a revolt, a war, a monument
    holdings_text_template = "games/tigris/holdings.txt"

    cell, margin, cols, rows, letters = CELL, MARGIN, COLS, ROWS, LETTERS
    fill, colors, dynasties, leader_order = FILL, COLORS, DYNASTIES, LEADER_ORDER
    leader_colors = LEADER_COLORS
    colour_name = staticmethod(colour_name)
    tiles_of = staticmethod(tiles_of)
    kind_name = staticmethod(kind_name)
    leader_name = staticmethod(leader_name)
    dynasty_name = staticmethod(dynasty_name)
    monument_name = staticmethod(monument_name)
    war_name = staticmethod(war_name)
    square_label = staticmethod(square_label)
    standing_now = staticmethod(standing_now)

    def taps(self, action: dict, view: dict) -> list[str]:
        kind = action.get("type")
        if kind == "place_tile":        # most of a turn's ~400 actions: said at once
            at = action["at"]           # (rules version 1 and 2 say "color")
            colour = action["colour"] if "colour" in action else action["color"]
            return [TILE_TAPS[colour], SQUARE_TAPS[at[0]][at[1]]]
        if kind == "move_leader" or kind == "place_leader":     # the next most: ~120
            at = action["at"]
            return [LEADER_TAPS[action["leader"]], SQUARE_TAPS[at[0]][at[1]]]
        action = as_now(action)         # a game of rules version 1 or 2 says "tiles"
        if kind == "withdraw_leader":
            return [f"leader:{action['leader']}", "supply"]
        if kind == "place_catastrophe":
            return ["catastrophe", sq(action["at"])]
        if kind == "swap":
            tiles = action["tiles"]
            return ["swap"] + [f"swap:{c}:{tiles.count(c)}" for c in COLORS if c in tiles]
        if kind == "build_monument":
            return [f"monument:{action['monument']}", sq(action["at"])]
        return []

    def label(self, action: dict, view: dict) -> str | None:
        """Every action as an instruction, made without playing it: "Place a temple on G3",
        "Commit 2 temples", "Pass". What a move sets off (points, a revolt) only a simulation
        can say: the confirm bar asks for it (`describe`) once the move is chosen."""
        action = as_now(action)
        kind = action.get("type")
        if kind in PLACING:
            return placing_label(action, view)
        if kind == "pass":
            # passing ends the turn: on the first action, the second one goes too
            if view.get("actions_done", 0) == 0:
                return _("Pass: end your turn without acting")
            return _("Pass: end your turn")
        if kind == "decline_monument":
            return _("Build no monument")
        if kind == "choose_war":
            return {"king": _("Fight the war of the kings next"),
                    "priest": _("Fight the war of the priests next"),
                    "farmer": _("Fight the war of the farmers next"),
                    "trader": _("Fight the war of the traders next")}.get(action.get("leader"))
        if kind == "take_treasures":
            squares = ", ".join(square_label(at) for at in action["at"])
            return ngettext("Take the treasure in %(squares)s", "Take the treasures in %(squares)s",
                            len(action["at"]), squares=squares)
        if kind == "commit":
            return commit_label(action["count"], view.get("conflict") or {})
        if kind == "standing":
            return standing_label(action.get("answer"))
        if kind == "swap":
            tiles = action["tiles"]
            counts = ", ".join(f"{tiles.count(c)} {colour_name(c)}" for c in COLORS if c in tiles)
            return ngettext("Swap %(num)s tile: %(tiles)s", "Swap %(num)s tiles: %(tiles)s",
                            len(tiles), tiles=counts)
        return None

    def last_moves(self, actions: list[dict], view: dict) -> set[str]:
        """The squares of the tiles, leaders, catastrophes and monuments others placed."""
        marks = set()
        for action in actions:
            at = action.get("at")
            if action.get("type") in ("place_tile", "place_leader", "move_leader",
                                      "place_catastrophe") and at:
                marks.add(f"{at[0]}-{at[1]}")
            elif action.get("type") == "build_monument" and at:
                marks.update(f"{at[0] + dr}-{at[1] + dc}" for dr in (0, 1) for dc in (0, 1))
        return marks

    def pick_label(self, token: str, view: dict) -> str | None:
        """The piece a no-script player picks first: "Place a temple…", "Your king…"."""
        kind, _sep, what = token.partition(":")
        if kind == "hand":
            return _(PICK_TILE[what])
        if kind == "leader":
            return _(PICK_LEADER[what])
        if kind == "monument":
            return _("Build the %(monument)s monument…", monument=monument_name(what))
        if token == "catastrophe":
            return _("Place a catastrophe…")
        if token == "swap":
            return _("Swap tiles")
        return None

    def then_label(self, token: str, view: dict) -> str | None:
        """What tapping a place does once `token` is picked, with `%s` for the place's name
        ("Place a temple on %s"): the turn script names each highlighted place with it, so a
        screen reader says "Place a temple on F7, river"."""
        kind, _sep, what = token.partition(":")
        place = "%s"
        if kind == "hand" and what in PLACE_TILE:
            return _(PLACE_TILE[what], square=place)
        if kind == "leader" and what in PLACE_LEADER:
            old = next((ld["square"] for ld in view.get("leaders", [])
                        if ld["seat"] == view.get("seat") and ld["leader"] == what), None)
            if old is None:
                return _(PLACE_LEADER[what], square=place)
            return _(MOVE_LEADER[what], old=old, new=place)
        if token == "catastrophe":
            return _("Place a catastrophe on %(square)s", square=place)
        if kind == "monument":
            return _("Build the %(monument)s monument with its top-left square on %(square)s",
                     monument=monument_name(what), square=place)
        return None

    # -- helpers for the templates -----------------------------------------------------------

    @staticmethod
    def tokens(choices) -> set[str]:
        """Every token some legal action taps."""
        return choices.tokens if choices else set()

    def squares(self, view: dict, seat, names=None) -> list[dict]:
        """One entry per square: where it is, what is on it, and what tapping it means. An
        empty square's entry is the same on every page (`ground`); the rest are built here."""
        ground = ground_squares(tuple(view["terrain"]), _("river"), _("land"))
        kinds = {c: kind_name(c) for c in COLORS}
        leader_names = {n: leader_name(n) for n in LEADER_ORDER}
        dynasty_names = {d: dynasty_name(d) for d in DYNASTIES}
        names = list(names or [])
        words = {"catastrophe": _("catastrophe tile"), "treasure": _("treasure"),
                 "framed": _("framed treasure (taken first)"),
                 "unification": _("unification tile"), "down": _("face-down tile")}
        tiles = {tuple(t["at"]): t for t in view["tiles"]}
        leaders = {tuple(ld["at"]): ld for ld in view["leaders"]}
        catastrophes = {tuple(at) for at in view["catastrophes"]}
        treasures = {tuple(t["at"]): t for t in view["treasures"]}
        unification = tuple(view["unification"]) if view.get("unification") else None
        conflict = view.get("conflict") or {}
        fighting = {tuple(at) for at in conflict.get("squares", [])}
        taken = set(tiles) | set(leaders) | catastrophes | set(treasures)
        if unification:
            taken.add(unification)
        out = list(ground)
        for at in taken:
            base = ground[at[0] * COLS + at[1]]
            leader = leaders.get(at)
            tile = tiles.get(at)
            mine = leader is not None and seat is not None and leader["seat"] == seat
            titles = []
            if tile:
                titles.append(words["down"] if tile["face_down"] else kinds[tile["color"]])
            if at in catastrophes:
                titles.append(words["catastrophe"])
            if at in treasures:
                titles.append(words["framed"] if treasures[at]["corner"] else words["treasure"])
            if at == unification:
                titles.append(words["unification"])
            if leader:
                owner = names[leader["seat"]] if leader["seat"] < len(names) else leader["seat"]
                titles.append(f"{owner}: {leader_names[leader['leader']]} "
                              f"({dynasty_names[leader['dynasty']]})")
            out[at[0] * COLS + at[1]] = {
                **base, "title": f"{base['label']}: {', '.join(titles)}",
                "name": f"{base['name']}: {', '.join(titles)}",
                "tile": tile, "leader": leader, "treasure": treasures.get(at),
                "catastrophe": at in catastrophes, "unification": at == unification,
                "fighting": at in fighting,
                "token": f"leader:{leader['leader']}" if mine else base["token"], "mine": mine,
                "target": None}
        return out

    @staticmethod
    def who(names: list, seat):
        """A seat's name where the page has the names, else its number."""
        return names[seat] if names and seat is not None and seat < len(names) else seat

    @staticmethod
    def dynasty_badge(dynasty: str) -> Markup:
        """A dynasty's symbol, named by its title."""
        return Markup(f'<span class="tg-dyn" title="{escape(dynasty_name(dynasty))}"><svg '
                      f'viewBox="0 0 20 20" aria-hidden="true"><use href="#tg-{escape(dynasty)}"/>'
                      f'</svg></span>')

    @staticmethod
    def frames(view: dict) -> Markup:
        return framed_squares(tuple(view["terrain"]))

    @staticmethod
    def river_path(squares: list[dict]) -> str:
        """The river's squares as one SVG path."""
        return river_path(tuple(squares[i]["river"] for i in range(len(squares))))

    def targets(self, squares: list[dict], view: dict | None = None) -> Markup:
        """The tap target of every square, built here rather than in the template: 176 of
        them are the board's largest part, and a template loop costs ten times as much. Each
        is named by its square ("F7, river"); the seat's own leader also says what picking it
        does next (`data-then`)."""
        out = []
        for s in squares:
            if s["target"] is not None:         # an empty square's, built with the ground
                out.append(s["target"])
                continue
            own = ""
            if s["mine"]:
                then = self.then_label(s["token"], view or {}) or ""
                own = f' class="tg-own" data-then="{escape(then)}"'
            out.append(target(s, own))
        return Markup("\n".join(out))

    @staticmethod
    @functools.cache
    def coordinates() -> Markup:
        """The column letters and row numbers around the board: the same on every page."""
        letters = "".join(f'<text x="{MARGIN + c * CELL + CELL // 2}" y="{MARGIN - 6}">'
                          f'{LETTERS[c]}</text>' for c in range(COLS))
        numbers = "".join(f'<text x="{MARGIN - 4}" y="{MARGIN + r * CELL + CELL // 2 + 5}">'
                          f'{r + 1}</text>' for r in range(ROWS))
        return Markup(f'<g class="tg-coords">{letters}</g>\n'
                      f'<g class="tg-coords tg-rows">{numbers}</g>')

    @staticmethod
    def pieces(squares: list[dict]) -> Markup:
        """What stands on the board — tiles, catastrophes, treasures, the unification tile and
        leaders — built here like the targets: a template loop over them was half the time of
        drawing a board in mid-game."""
        out = []
        for s in squares:
            tile, treasure, leader = s["tile"], s["treasure"], s["leader"]
            if not (tile or s["catastrophe"] or treasure or s["unification"] or leader):
                continue
            out.append(drawn_pieces(
                s["x"], s["y"], tile and (tile["color"], tile["face_down"]), s["catastrophe"],
                None if treasure is None else bool(treasure["corner"]), s["unification"],
                leader and (leader["leader"], leader["color"], leader["dynasty"]),
                s["fighting"], s["mine"]))
        return Markup("\n".join(out))

    def board_lines(self, view: dict, names=None, seat=None) -> list[str]:
        """The board in words, row by row, for the turn mail's plain text: each row's river
        squares, then what stands on it ("Row 3 – river: D3, E3; C3: temple; G3: Ann: king
        (bow)"); then the monuments built."""
        squares = self.squares(view, seat, names)
        lines = []
        for r in range(ROWS):
            row = squares[r * COLS:(r + 1) * COLS]
            river = ", ".join(s["label"] for s in row if s["river"])
            things = "; ".join(s["title"] for s in row if s["title"] != s["label"])
            parts = [_("river: %(squares)s", squares=river)] if river else []
            parts.append(things or _("nothing on it"))
            lines.append(_("Row %(n)s", n=r + 1) + " – " + "; ".join(parts))
        for m in self.monuments(view):
            at = ((m["y"] - MARGIN) // CELL, (m["x"] - MARGIN) // CELL)
            lines.append(_("Monument %(monument)s on %(first)s–%(last)s", monument=m["label"],
                           first=square_label(at), last=square_label((at[0] + 1, at[1] + 1))))
        return lines

    def monuments(self, view: dict) -> list[dict]:
        """Built monuments with their place on the board (top-left square)."""
        out = []
        for name, at in (view.get("monuments") or {}).items():
            if at is None:
                continue
            first, second = name.split("/")
            out.append({"name": name, "first": first, "second": second,
                        "x": MARGIN + at[1] * CELL, "y": MARGIN + at[0] * CELL,
                        "label": monument_name(name)})
        return out

    def free_monuments(self, view: dict) -> list[str]:
        return [name for name, at in (view.get("monuments") or {}).items() if at is None]

    def my_leaders_on_board(self, view: dict, seat) -> list[dict]:
        return [ld for ld in view["leaders"] if seat is not None and ld["seat"] == seat]

    def player(self, view: dict, seat) -> dict | None:
        players = view.get("players") or []
        return players[seat] if seat is not None and 0 <= seat < len(players) else None

    def hand_items(self, view: dict) -> list[tuple[str, int]]:
        """The tiles behind the seat's screen as (colour, how many), colours it has none of
        left out (so a list of them needs no separator for a missing colour)."""
        hand = view.get("hand") or {}
        return [(c, hand[c]) for c in COLORS if hand.get(c)]

    def hand_words(self, view: dict) -> str:
        """"2 temples · 1 farm": the tiles behind the screen, in words."""
        return " · ".join(tiles_of(c, n) for c, n in self.hand_items(view))

    def score_line(self, points: dict) -> list[tuple[str, int]]:
        return [(c, points.get(c, 0)) for c in COLORS]

    def tile_buttons(self, view: dict) -> Markup:
        """The seat's tiles behind its screen, a button a colour it holds."""
        out = []
        for c in COLORS:
            if view["hand"].get(c):
                kind = escape(kind_name(c))
                then = escape(self.then_label(f"hand:{c}", view) or "")
                out.append(f'<button type="button" class="tg-piece tg-tile tg-{c}" '
                           f'data-tap="hand:{c}" data-then="{then}" title="{kind}"><svg '
                           f'viewBox="0 0 20 20" aria-hidden="true"><use href="#tg-{c}"/></svg>'
                           f'<span class="tg-sr">{escape(colour_name(c))} {kind}: </span>'
                           f'<span>{view["hand"][c]}</span></button>')
        return Markup("\n".join(out))

    def leader_buttons(self, view: dict, me: dict) -> Markup:
        """The seat's leaders in its supply, a button each."""
        out = []
        for name in LEADER_ORDER:
            if name in me["leaders_in_supply"]:
                title = escape(leader_name(name))
                then = escape(self.then_label(f"leader:{name}", view) or "")
                out.append(f'<button type="button" class="tg-piece tg-leader '
                           f'tg-{LEADER_COLORS[name]}" data-tap="leader:{name}" '
                           f'data-then="{then}" title="{title}"><svg viewBox="0 0 20 20" '
                           f'aria-hidden="true"><use href="#tg-{escape(me["dynasty"])}"/></svg>'
                           f'<span class="tg-sr">{title}</span></button>')
        return Markup("\n".join(out))

    @staticmethod
    def by_colour(counts: dict) -> Markup:
        """A count for each colour (points, tiles out of the game), each in its colour and
        read out by its colour's name."""
        out = []
        for c in COLORS:
            name = escape(colour_name(c))
            out.append(f'<span class="tg-pt tg-{c}" title="{name}"><span class="tg-sr">{name} '
                       f'</span>{escape(counts.get(c, 0))}</span>')
        return Markup("".join(out))


presenter = TigrisPresenter()
