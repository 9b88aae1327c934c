"""The `Rules` protocol for Assyria: legal actions, checked actions, views and log lines."""
from __future__ import annotations


from pbem.games.base import IllegalAction, _, check_options, copy_json, ngettext

from . import engine as R
from . import codes as reply_codes
from .determinize import determinize
from .board import board, coords, key

PHASE_ACTIONS = {
    "start": {"start"}, "draft": {"draft"}, "harvest": {"column"}, "huts": {"hut"},
    "feed": {"feed"}, "wells": {"well", "end_wells"},
    "actions": {"build", "extend", "dignitary", "offering", "buy_food", "buy_plow", "end_actions"},
}


# How many keys each type's legal actions have. Once its CHECKS find nothing wrong, an action
# is one of the legal actions exactly when it has no other keys: `apply` asks that instead of
# listing them all (tests/games/assyria/test_recorded_behaviour.py holds it to the old answers).
ACTION_KEYS = {"start": 2, "draft": 2, "column": 2, "hut": 2, "feed": 3, "well": 2,
               "end_wells": 1, "build": 2, "extend": 2, "dignitary": 2, "offering": 2,
               "buy_food": 2, "buy_plow": 1, "end_actions": 1}

# Actions after which an expansion's supply may end in famine (the seat's own, or the next
# seat's expansion begun by them). Building a ziggurat replaces a hut and the flood clears the
# rivers: those are not famine, and neither follows these actions.
FAMINE_MAY_FOLLOW = ("column", "hut", "feed", "well", "end_wells")


def phase_name(phase: str) -> str:
    return PHASE_NAMES[phase]()


# Only the name asked for is looked up (a refused action words one on every refusal).
PHASE_NAMES = {
    "start": lambda: _("choosing start hexes"), "draft": lambda: _("the initial food draft"),
    "harvest": lambda: _("harvest"), "huts": lambda: _("expansion: new huts"),
    "feed": lambda: _("expansion: supply"), "wells": lambda: _("expansion: wells"),
    "actions": lambda: _("actions"), "over": lambda: _("game over"),
}


class Assyria:
    name = "assyria"
    title = "Assyria"
    version = 1
    min_players = 2
    max_players = 4
    options: dict = {}

    # ------------------------------------------------------------ setup and turn
    def setup(self, players: int, seed: int, options: dict | None = None) -> dict:
        check_options(self, options)
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise IllegalAction(f"Assyria is for 2 to 4 players, not {players!r}")
        return R.setup_state(players, seed)

    def to_act(self, state) -> list[int]:
        return [] if state["active"] is None else [state["active"]]

    def forced(self, state, seat: int, actions: list[dict]) -> bool:
        """A single option is always public here: cards lie face up, only the decks' order
        is hidden, and no decision's options depend on it."""
        return True

    def codes(self, view: dict, actions: list[dict]) -> list[str]:
        """Optional member: one reply code per action, in the players' words (codes.py)."""
        return reply_codes.codes(view, actions)

    def legal_actions(self, state, seat: int) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        phase, qr = state["phase"], board(state["players"]).qr
        if phase == "start":
            return [{"type": "start", "hex": list(qr[h])} for h in R.start_hexes(state)]
        if phase == "draft":
            return [{"type": "draft", "card": k} for k in sorted({R.kind(c) for c in state["draft"]})]
        if phase == "harvest":
            return [{"type": "column", "column": c} for c in R.free_columns(state)]
        if phase == "huts":
            return [{"type": "hut", "hex": list(qr[h])} for h in R.hut_hexes(state, seat)]
        if phase == "feed":
            return R.feed_actions(state, seat)
        if phase == "wells":
            return [{"type": "well", "site": i} for i in R.well_sites(state, seat)] + \
                [{"type": "end_wells"}]
        return R.action_choices(state, seat)

    # ------------------------------------------------------------ apply
    def apply(self, state, seat: int, action: dict) -> dict:
        self._check(state, seat, action)
        new = R.copy_state(state)
        self._do(new, seat, action)
        return new

    def _check(self, state, seat, action) -> None:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction(_("an action must be an object with a \"type\""))
        if state["active"] is None:
            raise IllegalAction(_("the game is over"))
        if seat != state["active"]:
            raise IllegalAction(_("it is not seat {seat}'s turn to act").format(seat=seat))
        kind = action["type"]
        if kind not in PHASE_ACTIONS[state["phase"]]:
            raise IllegalAction(_("cannot {kind!r} now: the game is in {phase}").format(
                kind=kind, phase=phase_name(state["phase"])))
        problem = CHECKS[kind](state, seat, action)
        if problem:
            raise IllegalAction(problem)
        if len(action) != ACTION_KEYS[kind]:
            raise IllegalAction(_("{action} is not a legal action now").format(action=action))

    @staticmethod
    def _do(state, seat, action) -> None:
        EFFECTS[action["type"]](state, seat, action)

    # ------------------------------------------------------------ view, result, log
    def view(self, state, seat: int | None) -> dict:
        over = state["final"] is not None
        bd = board(state["players"])
        out = {
            "seat": seat, "to_act": self.to_act(state), "over": over,
            "prompt": self.prompt(state, seat),
            "players": state["players"], "colours": list(R.COLOURS[:state["players"]]),
            "reign": state["reign"], "turn": state["turn"], "phase": state["phase"],
            "active": state["active"], "order": list(state["order"]),
            "board": [{"hex": [q, r], "food": food, "region": region}
                      for (q, r), food, region in bd.cells],
            # by hex, not by the dict's order: a snapshot read back from the store (its keys
            # sorted) shows the same list as the live state
            "huts": [{"hex": coords(h), "seat": state["huts"][h]}
                     for h in sorted(state["huts"], key=coords)],
            "ziggurats": [{"hex": coords(h), "seat": state["ziggurats"][h][0],
                           "level": state["ziggurats"][h][1]}
                          for h in sorted(state["ziggurats"], key=coords)],
            "well_sites": [list(map(list, site)) for site in bd.site_qr],
            "wells": list(state["wells"]), "wells_in_stock": R.wells_in_stock(state),
            "dignitaries": copy_json(state["dignitaries"]),
            "expansion": list(state["expansion"]), "bonus": state["bonus"],
            "expansion_deck": len(state["expansion_deck"]),
            "expansion_discards": list(state["expansion_discards"]),
            "food_deck": len(state["food_deck"]), "discards": len(state["discards"]),
            "discard_pile": sorted(R.kind(c) for c in state["discards"]),  # all played openly
            "columns": [[R.kind(c) for c in col] for col in state["columns"]],
            "column_of": list(state["column_of"]), "leftover": state["leftover"],
            "draft": sorted(R.kind(c) for c in state["draft"]),
            "plow_pile": state["plow_pile"],
            "to_place": state["to_place"], "fed": [coords(h) for h in state["fed"]],
            "played": dict(state["played"]), "raised": [coords(h) for h in state["raised"]],
            "seats": [self._seat_view(state, s) for s in range(state["players"])],
            "assur": copy_json(state["assur"]),
            "final": copy_json(state["final"]),
        }
        if over:
            out["seed"] = state["seed"]
        return out

    @staticmethod
    def _seat_view(state, s: int) -> dict:
        return {
            "colour": R.COLOURS[s], "hand": sorted(R.kind(c) for c in state["hands"][s]),
            "plow": state["plows"][s], "camels": state["camels"][s], "score": state["score"][s],
            "offering": state["offering"][s], "offered": state["offered"][s],
            "bought_food": state["bought_food"][s],
            "huts_in_stock": R.huts_in_stock(state, s),
            "ziggurat_pieces_in_stock": [R.pieces_in_stock(state, s, lv) for lv in (1, 2, 3)],
        }

    def prompt(self, state, seat) -> str | None:
        if seat is None or seat not in self.to_act(state):
            return None
        phase = state["phase"]
        if phase == "huts":
            return _("Expansion: place a hut ({n} left to place)").format(n=state["to_place"])
        if phase == "feed":
            return _("Supply: feed a hut ({n} more can be fed)").format(n=R.feedable(state, seat))
        if phase == "actions":
            return _("Actions: spend your camels ({n} left) or end").format(
                n=state["camels"][seat])
        return {
            "start": _("Choose your start hex for a ziggurat base"),
            "draft": _("Initial draft: keep one food card"),
            "harvest": _("Harvest: take a column of food cards"),
            "wells": _("Wells: build a well or stop"),
        }[phase]

    def result(self, state) -> dict | None:
        if state["final"] is None:
            return None
        return {"ranking": R.ranking(state),
                "scores": {str(s): v for s, v in enumerate(state["score"])},
                "final_points": {str(s): p for s, p in enumerate(state["final"])}}

    def describe(self, state, seat: int, action: dict) -> str:
        return self._action_line(state, seat, action) + self._famine_line(state, seat, action)

    def _famine_line(self, state, seat: int, action: dict) -> str:
        """The huts that famine sent back to stock in what this action set off: the seat's own
        last feeding, or another seat's expansion that it began (the board is public)."""
        if not isinstance(action, dict) or action.get("type") not in FAMINE_MAY_FOLLOW:
            return ""
        try:
            after = self.apply(state, seat, action)
        except IllegalAction:
            return ""
        lost: dict[int, list[str]] = {}
        for h in board(state["players"]).order:     # the board's order, never the dict's
            owner = state["huts"].get(h)
            if owner is not None and after["huts"].get(h) != owner:  # only famine, here
                lost.setdefault(owner, []).append(h)
        lines = [ngettext("Famine: {p}'s unfed hut on {hexes} went back to stock.",
                          "Famine: {p}'s {n} unfed huts on {hexes} went back to stock.",
                          len(hexes)).format(p=f"{{p{owner}}}", n=len(hexes),
                                             hexes=", ".join(hexes))
                 for owner, hexes in sorted(lost.items())]
        return "".join(" " + line for line in lines)

    def _action_line(self, state, seat: int, action: dict) -> str:
        p = f"{{p{seat}}}"
        kind = action.get("type") if isinstance(action, dict) else None
        bd = board(state["players"])
        at = key(*action["hex"]) if kind and "hex" in action else None
        where = _("{hex} ({food}, {region})").format(
            hex=at, food=food_name(bd.food(at)), region=region_name(bd.region(at))) \
            if at in bd.hexes else ""
        if kind == "start":
            return _("{p} put a ziggurat base on the start hex {where}.").format(p=p, where=where)
        if kind == "draft":
            return _("{p} kept a {card} card in the initial draft.").format(
                p=p, card=card_name(action["card"]))
        if kind == "column":
            cards = ", ".join(card_name(R.kind(c)) for c in state["columns"][action["column"]])
            return _("{p} took farming column {n} ({cards}).").format(
                p=p, n=action["column"] + 1, cards=cards)
        if kind == "hut":
            return _("{p} placed a hut on {where}.").format(p=p, where=where)
        if kind == "feed":
            card = _("a leftover symbol") if action["card"] == R.PLAYED else \
                _("a {card} card").format(card=card_name(action["card"]))
            return _("{p} fed the hut on {where} with {card}.").format(p=p, where=where, card=card)
        if kind == "well":
            hexes = ", ".join(bd.well_sites[action["site"]])
            return _("{p} built a well between {hexes} and scored {n} points.").format(
                p=p, hexes=hexes, n=R.WELL_POINTS[state["reign"]])
        if kind == "end_wells":
            return _("{p} built no more wells.").format(p=p)
        if kind == "build":
            return _("{p} built a ziggurat on {where} for {camels} camels.").format(
                p=p, where=where, camels=R.ZIGGURAT_PRICE[1])
        if kind == "extend":
            level = state["ziggurats"][at][1] + 1
            return _("{p} extended the ziggurat on {where} with a {piece} for {camels} camels."
                     ).format(p=p, where=where, piece=piece_name(level),
                              camels=R.ZIGGURAT_PRICE[level])
        if kind == "dignitary":
            d = action["dignitary"]
            return _("{p} placed a hut with the {dignitary} for {camels} camels.").format(
                p=p, dignitary=dignitary_name(d), camels=R.DIGNITARY_PRICE[d])
        if kind == "offering":
            n = action["camels"]
            return ngettext("{p} offered {n} camel to the gods.",
                            "{p} offered {n} camels to the gods.", n).format(p=p, n=n)
        if kind == "buy_food":
            return _("{p} bought a {card} card from the leftover column.").format(
                p=p, card=card_name(action["card"]))
        if kind == "buy_plow":
            return _("{p} bought a plow for {camels} camels.").format(p=p, camels=R.PLOW_PRICE)
        if kind == "end_actions":
            return self._after_turn(state).format(p=p)
        return _("{p} acted.").format(p=p)

    @staticmethod
    def _after_turn(state) -> str:
        """What the last player's end of actions sets off: a new turn, a flood or the end."""
        if state["queue"]:
            return _("{p} ended their actions.")
        if state["turn"] < R.TURNS_PER_REIGN[state["reign"]]:
            return _("{p} ended their actions; the turn is over and a new expansion card "
                     "is drawn.")
        if state["reign"] < R.REIGNS:
            return _("{p} ended their actions; the flood ends reign {reign}.").replace(
                "{reign}", "I" * state["reign"])
        return _("{p} ended their actions; the third flood ends the game.")

    # ------------------------------------------------------------ undo within a turn
    def undoable(self, state, seat: int, before=None) -> bool:
        """May `seat` take back the step from `before` into `state` (pbem/log/undo.py)? Yes
        while the same phase of the same turn is still its own and nothing was drawn: a hut
        placed, a camel fed, a well built, a ziggurat built or extended, a dignitary or an
        offering, a plough bought. Undo stops when a card is drawn from the food or the
        expansion deck (or the discards are reshuffled), when the phase or the turn moves on,
        and when another seat is to act."""
        if before is None or state["active"] is None:
            return False
        return (state["active"] == before["active"] == seat
                and all(state[key] == before[key] for key in ("phase", "turn", "reign", "shuffles"))
                and len(state["food_deck"]) == len(before["food_deck"])
                and len(state["expansion_deck"]) == len(before["expansion_deck"]))

    def determinize(self, view: dict, seat: int | None, rng) -> dict:
        """A full state whose `view(state, seat)` is `view`, from the view alone: only the
        order of the food and expansion decks and the reshuffle seed are drawn from `rng`
        (see determinize.py for what is inferred)."""
        if view.get("seat") != seat:
            raise ValueError(f"that view is seat {view.get('seat')!r}'s, not seat {seat!r}'s")
        return determinize(view, rng)

    # ------------------------------------------------------------ storage
    def dump(self, state) -> dict:
        return copy_json(state)

    def load(self, data: dict) -> dict:
        return copy_json(data)

    # ------------------------------------------------------------ pace (pbem's, not the rulebook's)
    def turn_of(self, state) -> list:
        """The turn being played: the active seat's stretch of one phase of one turn of a
        reign (an expansion's huts, supply and wells are one turn of that seat)."""
        stage = "expansion" if state["phase"] in ("huts", "feed", "wells") else state["phase"]
        return [state["reign"], state["turn"], stage, state["active"]]

    def default_action(self, state, seat: int) -> dict:
        """The move played for `seat` when its deadline passes: no more wells are built and
        the actions are ended at once; where the rules force a choice (a start hex, the food
        draft, a harvest column, new huts, supplying the huts) the first legal one by a fixed
        order is taken: hexes in the board's order, cards and columns by their number.

        A default plays the whole decision: a missed turn is one decision, so the server plays
        these defaults for every question `seat` is asked until its turn ends (`turn_of`): all
        of an expansion's huts and supplies, no wells, and the actions ended at once."""
        phase = state["phase"]
        if phase == "wells":
            return {"type": "end_wells"}
        if phase == "actions":
            return {"type": "end_actions"}
        return self.legal_actions(state, seat)[0]


# ---------------------------------------------------------------- names in the players' language
def food_name(food: str) -> str:
    return {"grape": _("grape"), "palm": _("palm"), "salt": _("salt"), "barley": _("barley"),
            "date": _("date"), "joker": _("joker"), "plow": _("plow")}.get(food, food)


def region_name(region: str) -> str:
    return {"river1": _("upper river"), "river2": _("lower river"),
            "inside": _("between the rivers"), "outside": _("outside")}.get(region, region)


def card_name(card: str) -> str:
    """"grape-2" -> "grape ×2"; "joker"; "plow"."""
    if "-" not in card:
        return food_name(card)
    food, symbols = card.split("-")
    return _("{food} ×{n}").format(food=food_name(food), n=symbols)


def piece_name(level: int) -> str:
    return {1: _("ziggurat base"), 2: _("middle piece"), 3: _("top piece")}[level]


def piece_left(level: int) -> str:
    return {1: _("ziggurat base piece"), 2: _("middle ziggurat piece"),
            3: _("top ziggurat piece")}[level]


def dignitary_name(dignitary: str) -> str:
    return {"highest": _("highest dignitary"), "middle": _("middle dignitary"),
            "lower": _("lower dignitary")}[dignitary]


# ---------------------------------------------------------------- checks with clear messages
def _hex(state, action) -> str | None:
    at = action.get("hex")
    if not (isinstance(at, list) and len(at) == 2 and type(at[0]) is int and type(at[1]) is int):
        return None
    h = key(*at)
    return h if h in board(state["players"]).hexes else None


def _need_hex(state, action) -> str | None:
    if _hex(state, action):
        return None
    return _("the action needs \"hex\": [q, r] of a hex on the board")


def _check_start(state, seat, action):
    return _need_hex(state, action) or (
        None if _hex(state, action) in R.start_hexes(state) else "that is not a free start hex")


def _check_draft(state, seat, action):
    card = action.get("card")
    if not any(R.kind(c) == card for c in state["draft"]):
        return _("there is no {card!r} card among the drafted cards").format(card=card)


def _check_column(state, seat, action):
    column = action.get("column")
    if type(column) is not int or column not in R.free_columns(state):
        return _("column {column!r} is not a free farming column").format(column=column)


def _check_hut(state, seat, action):
    problem = _need_hex(state, action)
    if problem:
        return problem
    h = _hex(state, action)
    if not R.is_empty(state, h):
        return _("hex {h} is not empty").format(h=h)
    if not R.can_place_hut(state, seat, h):
        return _("hex {h} is not next to one of your huts or ziggurats").format(h=h)


def _check_feed(state, seat, action):
    problem = _need_hex(state, action)
    if problem:
        return problem
    h, source = _hex(state, action), action.get("card")
    if state["huts"].get(h) != seat or h in state["fed"]:
        return _("there is no unfed hut of yours on {h}").format(h=h)
    if source not in R.feeding_sources(state, seat):
        return _("you have no {source!r} to feed with").format(source=source)
    if not R.can_feed(state, seat, source, h):
        return _("a {source} cannot feed the {food} hut on {h}").format(
            source=card_name(source), food=food_name(board(state["players"]).food(h)), h=h)
    return None if len(action) == ACTION_KEYS["feed"] and R.may_feed(state, seat, source, h) else \
        "feeding is compulsory: that choice would leave a hut unfed that your cards can feed"


def _check_well(state, seat, action):
    site = action.get("site")
    if type(site) is not int or not 0 <= site < len(board(state["players"]).well_sites):
        return _("{site!r} is not a well site").format(site=site)
    if not R.can_build_well(state, seat, site):
        return _("a well needs a free site between three of your huts, none next to a ziggurat, "
                 "and a well in stock")


def _check_nothing(state, seat, action):
    return None


def _check_build(state, seat, action):
    problem = _need_hex(state, action)
    if problem:
        return problem
    h = _hex(state, action)
    if state["huts"].get(h) != seat:
        return _("a ziggurat must replace one of your huts; there is none on {h}").format(h=h)
    if board(state["players"]).on_river(h):
        return _("a ziggurat cannot be built on a river hex")
    if R.touches_well(state, h):
        return _("a ziggurat cannot be built on a hex touching a well")
    if state["camels"][seat] < R.ZIGGURAT_PRICE[1]:
        return _("a ziggurat costs {camels} camels").format(camels=R.ZIGGURAT_PRICE[1])
    if not R.pieces_in_stock(state, seat, 1):
        return _("you have no ziggurat base left")


def _check_extend(state, seat, action):
    problem = _need_hex(state, action)
    if problem:
        return problem
    h = _hex(state, action)
    owner, level = state["ziggurats"].get(h, (None, 0))
    if owner != seat:
        return _("you have no ziggurat on {h}").format(h=h)
    if level == 3:
        return _("that ziggurat is finished")
    if h in state["raised"]:
        return _("a ziggurat grows at most one level a turn")
    if state["camels"][seat] < R.ZIGGURAT_PRICE[level + 1]:
        return _("the next piece costs {camels} camels").format(camels=R.ZIGGURAT_PRICE[level + 1])
    if not R.pieces_in_stock(state, seat, level + 1):
        return _("you have no {piece} left").format(piece=piece_left(level + 1))


def _check_dignitary(state, seat, action):
    d = action.get("dignitary")
    if d not in R.DIGNITARIES:
        return _("{d!r} is not a dignitary (highest, middle, lower)").format(d=d)
    if None not in state["dignitaries"][d]:
        return _("the {dignitary} has no free slot").format(dignitary=dignitary_name(d))
    if not R.huts_in_stock(state, seat):
        return _("you have no hut in stock")
    if state["camels"][seat] < R.DIGNITARY_PRICE[d]:
        return _("the {dignitary} costs {camels} camels").format(
            dignitary=dignitary_name(d), camels=R.DIGNITARY_PRICE[d])


def _check_offering(state, seat, action):
    camels = action.get("camels")
    if type(camels) is not int or camels not in R.offering_choices(state, seat):
        return _("an offering is 1 to 3 camels a turn, within your camels and the track")


def _check_buy_food(state, seat, action):
    if state["bought_food"][seat]:
        return _("you may buy only one food card a turn")
    if action.get("card") not in R.food_for_sale(state, seat):
        return _("no {card!r} card you can pay for is in the leftover column").format(
            card=action.get("card"))


def _check_buy_plow(state, seat, action):
    if state["plows"][seat]:
        return _("nobody may hold two plows")
    if not R.can_buy_plow(state, seat):
        return _("no plow is on the board or you lack {camels} camels").format(camels=R.PLOW_PRICE)


def _at(action) -> str:
    return key(*action["hex"])


def _draft_card(state, seat, action):
    R.take_draft(state, seat, next(c for c in state["draft"] if R.kind(c) == action["card"]))


EFFECTS = {
    "start": lambda state, seat, a: R.place_start(state, seat, _at(a)),
    "draft": _draft_card,
    "column": lambda state, seat, a: R.take_column(state, seat, a["column"]),
    "hut": lambda state, seat, a: R.place_hut(state, seat, _at(a)),
    "feed": lambda state, seat, a: R.feed(state, seat, a["card"], _at(a)),
    "well": lambda state, seat, a: R.build_well(state, seat, a["site"]),
    "end_wells": lambda state, seat, a: R.income_and_prestige(state, seat),
    "build": lambda state, seat, a: R.build_ziggurat(state, seat, _at(a)),
    "extend": lambda state, seat, a: R.extend_ziggurat(state, seat, _at(a)),
    "dignitary": lambda state, seat, a: R.place_dignitary(state, seat, a["dignitary"]),
    "offering": lambda state, seat, a: R.make_offering(state, seat, a["camels"]),
    "buy_food": lambda state, seat, a: R.buy_food(state, seat, a["card"]),
    "buy_plow": lambda state, seat, a: R.buy_plow(state, seat),
    "end_actions": lambda state, seat, a: R.end_actions(state, seat),
}

CHECKS = {
    "start": _check_start, "draft": _check_draft, "column": _check_column, "hut": _check_hut,
    "feed": _check_feed, "well": _check_well, "end_wells": _check_nothing,
    "build": _check_build, "extend": _check_extend, "dignitary": _check_dignitary,
    "offering": _check_offering, "buy_food": _check_buy_food, "buy_plow": _check_buy_plow,
    "end_actions": _check_nothing,
}
