"""Assyria drawn and tapped: the hex map as SVG, the farming columns, Assur and the tracks.

Taps (the `data-tap` tokens that choose each action):
  start, hut, build, extend   the hex                       ["hex:1,0"]
  feed                        the unfed hut, then the food   ["hex:1,0", "food:grape-2"]
  draft                       the drafted card               ["draft:joker"]
  column                      the farming column             ["col:2"]
  well                        the free well site             ["well:17"]
  dignitary                   the dignitary's row in Assur   ["dig:highest"]
  offering                    the space the disc moves to    ["offer:3"]
  buy_food                    the card in the leftover column ["buy:date-3"]
  buy_plow                    the plow pile                  ["plow"]
  end_wells, end_actions      buttons                        []
Feeding starts with the hut because the map is at the top of the page: tapping a hungry hut
then highlights only the cards that can feed it. Buttons and the confirm bar say what the
action does as an instruction (`label`): "End your actions", "Build a ziggurat on ...".
"""
from __future__ import annotations

import copy
import functools
import math

from markupsafe import Markup, escape

from pbem.games.base import current_language
from pbem.present import N_, Presenter, gettext as _, ngettext

from . import effects
from . import engine as R
from .game import card_name, dignitary_name, food_name, piece_name, region_name

SIZE = 24                                  # hex radius (centre to corner) in SVG units
ROOT3 = math.sqrt(3)
SEAT_COLOURS = {"red": "#c8322b", "green": "#2f8f3a", "yellow": "#e8c21c", "blue": "#2a62b8"}
SEAT_INK = {"red": "#fff", "green": "#fff", "yellow": "#222", "blue": "#fff"}
REGION_FILL = {"river1": "#8fc3e6", "river2": "#8fc3e6", "inside": "#cfe2a0", "outside": "#ecd9a6"}
FOOD_FILL = {"grape": "#7b3f8c", "palm": "#2e7d4f", "salt": "#e6e6e6", "barley": "#d9a521",
             "date": "#8b5a2b", "joker": "#f3efe2", "plow": "#b9a27a"}
FOOD_INK = {"grape": "#fff", "palm": "#fff", "salt": "#222", "barley": "#222", "date": "#fff",
            "joker": "#222", "plow": "#222"}
FOOD_LETTER = {"grape": "G", "palm": "P", "salt": "S", "barley": "B", "date": "D"}
OFFERING_TRACK, DIGNITARY_PRICE = R.OFFERING_TRACK, R.DIGNITARY_PRICE    # the engine's
INFLUENCE, MAX_CAMELS = R.INFLUENCE, R.MAX_CAMELS


def hex_token(at) -> str:
    return f"hex:{at[0]},{at[1]}"


def where(view: dict, at) -> str:
    """"1,0 (barley, outside)": the hex, its food and its region, as the log lines say it."""
    cell = next((c for c in view["board"] if c["hex"] == list(at)), None)
    name = f"{at[0]},{at[1]}"
    if cell is None:
        return name
    return "{hex} ({food}, {region})".format(hex=name, food=food_name(cell["food"]),
                                             region=region_name(cell["region"]))


@functools.lru_cache(maxsize=None)
def centre(q: int, r: int) -> tuple[float, float]:
    """Flat-topped hexes, odd columns half a hex lower (the map file's col/row)."""
    row = r + (q - (q & 1)) // 2
    x = SIZE + 1.5 * SIZE * q
    y = ROOT3 / 2 * SIZE + ROOT3 * SIZE * (row + 0.5 * (q & 1))
    return x, y


@functools.lru_cache(maxsize=None)
def corners(x: float, y: float, size: float) -> str:
    angles = [math.pi / 3 * i for i in range(6)]
    return " ".join(f"{x + size * math.cos(a):.1f},{y + size * math.sin(a):.1f}" for a in angles)


_GROUNDS: list[tuple[list, list, tuple]] = []      # the maps drawn so far (one a player count)


def ground_of(board: list[dict], well_sites: list[list]) -> tuple:
    """`ground` of a view's map: a map drawn before is found by comparing the lists whole,
    which runs in C (a key made of their ~120 hexes cost more than drawing them)."""
    for seen_board, seen_sites, drawn in _GROUNDS:
        if seen_board == board and seen_sites == well_sites:
            return drawn
    drawn = ground(board, well_sites)
    _GROUNDS[:] = _GROUNDS[-7:] + [(copy.deepcopy(board), copy.deepcopy(well_sites), drawn)]
    return drawn


def ground(board: list[dict], well_sites: list[list]) -> tuple[tuple[dict, ...],
                                                                tuple[dict, ...], float, float]:
    """The map as every page of it draws it: each hex (q, r, food, region) placed, with its
    token and corners; each well site's centre; the drawing's width and height."""
    places = []
    for cell in board:
        (q, r), food, region = cell["hex"], cell["food"], cell["region"]
        x, y = centre(q, r)
        places.append({"token": hex_token((q, r)), "q": q, "r": r, "x": x, "y": y,
                       "points": corners(x, y, SIZE - 1.2), "food": food, "region": region})
    sites = []
    for i, site in enumerate(well_sites):
        points = [centre(*h) for h in site]
        sites.append({"i": i, "token": f"well:{i}",
                      "x": sum(p[0] for p in points) / 3, "y": sum(p[1] for p in points) / 3})
    width = max(p["x"] for p in places) + SIZE
    height = max(p["y"] for p in places) + ROOT3 / 2 * SIZE
    return tuple(places), tuple(sites), round(width + 2, 1), round(height + 2, 1)


def card_parts(kind: str) -> tuple[str, int]:
    """("grape", 2) for "grape-2"; ("joker", 1); ("plow", 1); ("played", 0)."""
    if "-" in kind:
        food, n = kind.split("-")
        return food, int(n)
    return kind, 1


# The names of the game's things, English keys to the words the page shows; translated once per
# language (a page shows hundreds of them)
WORDS = {
    "food": {"grape": N_("grape"), "palm": N_("palm"), "salt": N_("salt"),
             "barley": N_("barley"), "date": N_("date"), "joker": N_("joker"),
             "plow": N_("plow"), "played": N_("leftover symbols")},
    "region": {"river1": N_("upper river"), "river2": N_("lower river"),
               "inside": N_("between the rivers"), "outside": N_("outside the rivers")},
    "colour": {"red": N_("red"), "green": N_("green"), "yellow": N_("yellow"),
               "blue": N_("blue")},
    "dignitary": {"highest": N_("Highest dignitary"), "middle": N_("Middle dignitary"),
                  "lower": N_("Lower dignitary")},
    "phase": {"start": N_("start hexes"), "draft": N_("initial draft"),
              "harvest": N_("farming: harvest"), "huts": N_("expansion: new huts"),
              "feed": N_("expansion: supply"), "wells": N_("expansion: wells"),
              "actions": N_("actions"), "over": N_("game over")},
    "hut": N_("hut"), "ziggurat": N_("ziggurat"),
}
_words: dict[str, dict] = {}
_cards: dict[tuple, Markup] = {}


def words() -> dict:
    """WORDS in the language being spoken."""
    language = current_language()
    if language not in _words:
        _words[language] = {group: ({key: _(text) for key, text in names.items()}
                                    if isinstance(names, dict) else _(names))
                            for group, names in WORDS.items()}
    return _words[language]


def card_markup(kind: str, tap: str | None = None, small: bool = False) -> Markup:
    """A food card: its food's colour, one icon per symbol, its name; `tap` its data-tap.
    The same few cards appear all over a page: each is built once per language."""
    key = (current_language(), kind, tap, small)
    if key not in _cards:
        food, n = card_parts(kind)
        name = escape(words()["food"].get(food, food))
        icon = (f'<svg viewBox="-10 -10 20 20" aria-hidden="true"><use href="#f-{food}" '
                f'x="-10" y="-10" width="20" height="20"/></svg>')
        tapped = f' data-tap="{escape(tap)}"' if tap else ""
        _cards[key] = Markup(
            f'<span class="fcard fc-{food}{" small" if small else ""}"{tapped} '
            f'title="{name}{f" ×{n}" if n > 1 else ""}">\n<span class="icons">{icon * n}</span>'
            + ("" if small else f'<span class="name">{name}</span>') + "</span>")
    return _cards[key]


def hex_title(h: dict) -> str:
    """"3,4: barley, between the rivers – hut (red)": what a hex's tooltip says."""
    w = words()
    title = f"{h['q']},{h['r']}: {w['food'].get(h['food'], h['food'])}, " \
            f"{w['region'].get(h['region'], h['region'])}"
    if h["hut"]:
        title += f" – {w['hut']} ({w['colour'].get(h['hut']['colour'])})"
    if h["zig"]:
        title += f" – {w['ziggurat']} ({w['colour'].get(h['zig']['colour'])}, {h['zig']['level']})"
    return title


@functools.lru_cache(maxsize=4096)
def drawn_hex(place: tuple, title: str, said: str, hungry: str, hut: str | None,
              zig: tuple | None) -> str:
    """One hex of the map as a tap target (`place`: its token, q, r, x, y, corners, food and
    region; `hut`: its colour; `zig`: colour and level): most hexes are the same from one
    move to the next, so the drawings are kept per process."""
    token, q, r, x, y, points, food, region = place
    out = []
    out.append(f'<g class="hex{hungry}" data-tap="{token}" role="img" '
               f'aria-label="{escape(title)}"{said}>\n'
               f'<title>{escape(title)}</title>\n'
               f'<polygon class="cell" points="{points}" '
               f'fill="{REGION_FILL[region]}" stroke="#6b5a3a" stroke-width="1"/>')
    if zig:
        level = zig[1]
        out.append(
            f'<use href="#f-{food}" x="{x - 20}" y="{y - 15}" width="11" height="11"/>'
            f'\n<g transform="translate({x},{y + 2})" fill="{SEAT_COLOURS[zig[0]]}"'
            f' stroke="#222" stroke-width="1.2">\n<rect x="-13" y="3" width="26" height="9"'
            f' rx="1"/>'
            + ('<rect x="-9" y="-5" width="18" height="8" rx="1"/>' if level >= 2 else "")
            + ('<rect x="-5" y="-12" width="10" height="7" rx="1"/>' if level >= 3 else "")
            + f'\n<text y="10.5" font-size="8" font-weight="700" text-anchor="middle" '
            f'fill="{SEAT_INK[zig[0]]}" stroke="none">{level}</text>\n</g>')
    else:
        out.append(f'<use href="#f-{food}" x="{x - 8}" y="{y - 17}" width="16" '
                   f'height="16"/>')
        if hut:
            out.append(f'<use class="hut{hungry}" href="#hut" x="{x - 8}" y="{y + 1}" '
                       f'width="16" height="16" fill="{SEAT_COLOURS[hut]}" '
                       f'stroke="#222" stroke-width="1.2"/>')
    out.append(f'<text class="asy-xy" x="{x}" y="{y + 18.6}">{q},{r}</text>\n'
               f'</g>')
    return "\n".join(out)


class AssyriaPresenter(Presenter):
    name = "assyria"

    def ending(self, result: dict) -> dict:
        """The rulebook's end (after the third flood) and its final scoring."""
        return {"why": _("The third flood came: the game ends after it."),
                "how": _("The points scored during the game, and at the end 1 more for each "
                         "ziggurat piece, 1 for a plow and 1 for every two camels. The highest "
                         "score wins; a tie shares the win.")}
    board_template = "games/assyria/board.html"
    holdings_template = "games/assyria/holdings.html"
    public_template = "games/assyria/public.html"
    email_template = "games/assyria/email.html"

    seat_colours = SEAT_COLOURS
    seat_ink = SEAT_INK
    food_fill = FOOD_FILL
    food_ink = FOOD_INK
    food_letter = FOOD_LETTER
    region_fill = REGION_FILL
    offering_track = OFFERING_TRACK
    dignitary_price = DIGNITARY_PRICE
    influence = INFLUENCE
    max_camels = MAX_CAMELS
    holdings_text_template = "games/assyria/holdings.txt"
    card_name = staticmethod(card_name)
    hex_token = staticmethod(hex_token)
    card_parts = staticmethod(card_parts)
    words = staticmethod(words)
    card_markup = staticmethod(card_markup)

    # ------------------------------------------------------------ taps
    def taps(self, action: dict, view: dict) -> list[str]:
        kind = action.get("type")
        if kind in ("start", "hut", "build", "extend"):
            return [hex_token(action["hex"])]
        if kind == "feed":
            return [hex_token(action["hex"]), f"food:{action['card']}"]
        if kind == "draft":
            return [f"draft:{action['card']}"]
        if kind == "column":
            return [f"col:{action['column']}"]
        if kind == "well":
            return [f"well:{action['site']}"]
        if kind == "dignitary":
            return [f"dig:{action['dignitary']}"]
        if kind == "offering":
            return [f"offer:{view['seats'][view['seat']]['offering'] + action['camels']}"]
        if kind == "buy_food":
            return [f"buy:{action['card']}"]
        if kind == "buy_plow":
            return ["plow"]
        return []

    # ------------------------------------------------------------ labels
    def effect(self, action: dict, view: dict) -> str:
        """What the action does, by the rulebook (the confirm bar's second line)."""
        return effects.effect(action, view)

    def label(self, action: dict, view: dict) -> str | None:
        """The instruction on a button or in the confirm bar; the same facts as the log line."""
        kind = action.get("type")
        if kind == "end_actions":
            return _("End your actions")
        if kind == "end_wells":
            return _("Build no more wells")
        if kind == "start":
            return _("Put a ziggurat base on the start hex %(where)s",
                     where=where(view, action["hex"]))
        if kind == "draft":
            return _("Keep a %(card)s card", card=card_name(action["card"]))
        if kind == "column":
            cards = ", ".join(card_name(k) for k in view["columns"][action["column"]])
            return _("Take farming column %(n)s (%(cards)s)", n=action["column"] + 1,
                     cards=cards)
        if kind == "hut":
            return _("Place a hut on %(where)s", where=where(view, action["hex"]))
        if kind == "feed":
            card = _("a leftover symbol") if action["card"] == R.PLAYED else \
                _("a {card} card").format(card=card_name(action["card"]))
            return _("Feed the hut on %(where)s with %(card)s", where=where(view, action["hex"]),
                     card=card)
        if kind == "well":
            hexes = ", ".join(f"{q},{r}" for q, r in view["well_sites"][action["site"]])
            return _("Build a well between %(hexes)s and score %(n)s points", hexes=hexes,
                     n=R.WELL_POINTS[view["reign"]])
        if kind == "build":
            return _("Build a ziggurat on %(where)s for %(camels)s camels",
                     where=where(view, action["hex"]), camels=R.ZIGGURAT_PRICE[1])
        if kind == "extend":
            level = next(z["level"] for z in view["ziggurats"] if z["hex"] == action["hex"]) + 1
            return _("Extend the ziggurat on %(where)s with a %(piece)s for %(camels)s camels",
                     where=where(view, action["hex"]), piece=piece_name(level),
                     camels=R.ZIGGURAT_PRICE[level])
        if kind == "dignitary":
            d = action["dignitary"]
            return _("Place a hut with the %(dignitary)s for %(camels)s camels",
                     dignitary=dignitary_name(d), camels=R.DIGNITARY_PRICE[d])
        if kind == "offering":
            return ngettext("Offer %(num)s camel to the gods", "Offer %(num)s camels to the gods",
                            action["camels"])
        if kind == "buy_food":
            return _("Buy a %(card)s card from the leftover column",
                     card=card_name(action["card"]))
        if kind == "buy_plow":
            return _("Buy a plow for %(camels)s camels", camels=R.PLOW_PRICE)
        return None

    def last_moves(self, actions: list[dict], view: dict) -> set[str]:
        """The hexes others built on (a start, a hut, a ziggurat) and the wells they dug."""
        marks = set()
        for action in actions:
            if action.get("type") in ("start", "hut", "build", "extend") and "hex" in action:
                marks.add(hex_token(action["hex"]))
            elif action.get("type") == "well" and "site" in action:
                marks.add(f"well:{action['site']}")
        return marks

    # ------------------------------------------------------------ the map's geometry
    def layout(self, view: dict) -> dict:
        """Everything the SVG map draws, hex by hex, with coordinates: what lies on the map
        (food, region, place, well sites) worked out once per map (`ground`), the huts and
        ziggurats on it here."""
        huts = {tuple(h["hex"]): h["seat"] for h in view["huts"]}
        zigs = {tuple(z["hex"]): z for z in view["ziggurats"]}
        fed = {tuple(h) for h in view["fed"]}
        feeding = view["phase"] == "feed" and view["active"] is not None
        colours = view["colours"]
        board, sites, width, height = ground_of(view["board"], view["well_sites"])
        hexes = []
        for place in board:
            at = (place["q"], place["r"])
            hut, zig = huts.get(at), zigs.get(at)
            h = {**place,
                 "hut": None if hut is None else {
                     "seat": hut, "colour": colours[hut],
                     "hungry": feeding and hut == view["active"] and at not in fed},
                 "zig": None if zig is None else {"seat": zig["seat"], "level": zig["level"],
                                                  "colour": colours[zig["seat"]]}}
            h["title"] = hex_title(h)
            hexes.append(h)
        built = set(view["wells"])
        wells = [{**site, "built": site["i"] in built} for site in sites]
        return {"hexes": hexes, "wells": wells, "width": width, "height": height, "size": SIZE}

    @staticmethod
    def named(group: str, key: str) -> str:
        """A thing of the game (`group`: food, region, colour, dignitary, phase) by its name in
        the language being spoken; the view keeps the English keys."""
        return words()[group].get(key, key)

    @staticmethod
    def roman(reign: int) -> str:
        return {1: "I", 2: "II", 3: "III"}.get(reign, str(reign))

    @staticmethod
    def disc(seat: int, view: dict, label: str = "") -> Markup:
        """A seat's disc in its colour (a call, not a macro: a page shows dozens), read out
        by its colour's name."""
        colour = view["colours"][seat]
        name = words()["colour"].get(colour, colour)
        return Markup(f'<span class="disc disc-{escape(colour)}" title="{escape(name)}" '
                      f'role="img" aria-label="{escape(name)}">{escape(label)}</span>')

    @staticmethod
    def does(choices) -> dict[str, str]:
        """The hexes that are a whole move by themselves, with that move's words."""
        if not choices:
            return {}
        alone = (choices.choice(group[0]) for token, group in choices.firsts.items()
                 if token.startswith("hex:") and len(group) == 1)
        return {choice.taps[0]: choice.label for choice in alone if len(choice.taps) == 1}

    def then_label(self, token: str, view: dict) -> str | None:
        """What tapping a card does once the hungry hut `token` is picked, `%s` for the card."""
        if not token.startswith("hex:"):
            return None
        at = [int(n) for n in token[4:].split(",")]
        return _("Feed the hut on %(where)s with %(card)s", where=where(view, at), card="%s")

    def offerings(self, view: dict, taps) -> Markup:
        """The offering track: each space's multiplier and the discs on it; a space the seat
        may move to now is tapped."""
        out = []
        for pos, mult in enumerate(self.offering_track):
            token = f"offer:{pos}"
            tapped = f' data-tap="{token}"' if token in taps else ""
            discs = "".join(self.disc(s, view) for s in range(view["players"])
                            if view["seats"][s]["offering"] == pos)
            where = escape(_("Offering track, space %(n)s:", n=pos))
            out.append(f'<div class="space"{tapped}><span class="asy-sr">{where} </span>'
                       f'<span class="mult">×{mult}</span>\n<span class="discs">{discs}</span>'
                       f'</div>')
        return Markup("\n".join(out))

    def camel_track(self, view: dict) -> Markup:
        """The camel track: each count with the discs of the seats that hold it."""
        on = {}
        for s in range(view["players"]):
            on.setdefault(view["seats"][s]["camels"], []).append(self.disc(s, view))
        return Markup("\n".join(
            f'<div class="space"><span class="mult">{pos}</span><span class="discs">'
            f'{"".join(on.get(pos, ()))}</span></div>' for pos in range(self.max_camels + 1)))

    @staticmethod
    def rings(lay: dict, marks) -> Markup:
        """The hexes and well sites the others played on since the seat's last turn."""
        return Markup("".join(
            [f'<polygon class="asy-last" points="{h["points"]}"/>'
             for h in lay["hexes"] if h["token"] in marks] +
            [f'<circle class="asy-last" cx="{w["x"]}" cy="{w["y"]}" r="9"/>'
             for w in lay["wells"] if w["token"] in marks]))

    def wells(self, lay: dict, view: dict, tapset) -> Markup:
        """Every well site: a well built, a site the seat may build on now (tapped), or a dot."""
        out = []
        for w in lay["wells"]:
            x, y = w["x"], w["y"]
            if w["built"]:
                out.append(f'<circle class="well" cx="{x}" cy="{y}" r="6" fill="#9ba3ab" '
                           f'stroke="#333" stroke-width="1.4"><title>{escape(_("well"))}</title>'
                           f'</circle>')
            elif w["token"] in tapset:
                out.append(f'<circle class="well-site" data-tap="{w["token"]}" role="img" '
                           f'aria-label="{escape(self.well_name(view, w["i"]))}" cx="{x}" '
                           f'cy="{y}" r="12" fill="#ffffff" fill-opacity=".75" stroke="#555" '
                           f'stroke-width="1.5"><title>{escape(_("Build a well here"))}</title>'
                           f'</circle>')
            else:
                out.append(f'<circle cx="{x}" cy="{y}" r="2.2" fill="#fff" fill-opacity=".55" '
                           f'stroke="none" pointer-events="none"/>')
        return Markup("\n".join(out))

    @staticmethod
    def well_name(view: dict, site: int) -> str:
        """"The well site between 1,0, 2,0 and 1,1"."""
        hexes = [f"{q},{r}" for q, r in view["well_sites"][site]]
        return _("The well site between %(hexes)s", hexes=", ".join(hexes))

    def hexes(self, lay: dict, view: dict | None = None, choices=None) -> Markup:
        """The map's hexes with their food, huts and ziggurats, each a tap target: built here,
        as a template loop over ~70 hexes was most of the time of drawing the page. Each is
        named by its hex ("3,4: barley, between the rivers"); a hex that is a move by itself
        also says that move (`data-does`), and a hungry hut what feeding it does (`data-then`)."""
        out = []
        does = self.does(choices)
        for h in lay["hexes"]:
            hut, zig = h["hut"], h["zig"]
            hungry = " hungry" if hut and hut["hungry"] else ""
            said = ""
            if h["token"] in does:
                said = f' data-does="{escape(does[h["token"]])}"'
            elif hungry and view is not None:
                said = f' data-then="{escape(self.then_label(h["token"], view) or "")}"'
            place = (h["token"], h["q"], h["r"], h["x"], h["y"], h["points"], h["food"],
                     h["region"])
            out.append(drawn_hex(place, h["title"], said, hungry, hut and hut["colour"],
                                 zig and (zig["colour"], zig["level"])))
        return Markup("\n".join(out))

    def board_lines(self, view: dict, names=None, seat=None) -> list[str]:
        """The map in words, row by row (top to bottom, each row left to right), for the turn
        mail's plain text: every hex with its food, region, hut or ziggurat; then the wells."""
        rows: dict[int, list[dict]] = {}
        for h in self.layout(view)["hexes"]:       # the map's rows: odd columns half a hex lower
            rows.setdefault(h["r"] + (h["q"] - (h["q"] & 1)) // 2, []).append(h)
        lines = [_("Row %(n)s", n=n) + " – " + "; ".join(h["title"] for h in
                                                          sorted(rows[y], key=lambda h: h["x"]))
                 for n, y in enumerate(sorted(rows), start=1)]
        wells = [", ".join(f"{q},{r}" for q, r in view["well_sites"][i]) for i in view["wells"]]
        if wells:
            lines.append(_("Wells between: %(sites)s", sites=" · ".join(wells)))
        return lines

    def start_hexes(self, view: dict, choices: list) -> set:
        return {c.taps[0] for c in choices if c.taps and c.taps[0].startswith("hex:")
                and view["phase"] == "start"}


    def assur(self, view: dict) -> list[dict]:
        """The dignitaries top-down, each with its slots (seat or None)."""
        return [{"name": d, "slots": view["dignitaries"][d], "price": DIGNITARY_PRICE[d],
                 "influence": INFLUENCE[d]} for d in ("highest", "middle", "lower")]


    def email_rows(self, view: dict) -> list[list[dict]]:
        """The map as table rows for mail clients: each hex a cell two half-rows tall, odd
        columns starting half a cell lower, so the table looks like the hex grid."""
        huts = {tuple(h["hex"]): h["seat"] for h in view["huts"]}
        zigs = {tuple(z["hex"]): z for z in view["ziggurats"]}
        grid = {}
        for cell in view["board"]:
            q, r = cell["hex"]
            grid[(q, r + (q - (q & 1)) // 2)] = {
                "token": hex_token(cell["hex"]), "name": f"{q},{r}", "food": cell["food"], "fill": REGION_FILL[cell["region"]],
                "hut": huts.get((q, r)), "zig": zigs.get((q, r))}
        columns = max(c for c, _ in grid) + 1
        half_rows = 2 * (max(r for _, r in grid) + 1)
        rows = []
        for h in range(half_rows):
            row = []
            for c in range(columns):
                start = h - (c & 1)
                if start >= 0 and start % 2 == 0:
                    row.append({"span": 2 if h + 1 < half_rows else 1,
                                "cell": grid.get((c, start // 2))})
                elif start < 0:
                    row.append({"span": 1, "cell": None})
            rows.append(row)
        return rows


presenter = AssyriaPresenter()
