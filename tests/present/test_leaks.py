"""No page, email, replay or JSON answer for one seat reveals another seat's hidden holdings.

Whole random games of each engine are played through `store.append`. At checkpoints, every
answer a seat (or a spectator) can get is fetched twice: once from the real game, once with
the OTHER seats' secrets scrambled (their hands or tiles, victory points the rules keep
hidden, the order of the bags and decks, the seed), keeping everything public as it was. A
seat's answer must be the same byte for byte: whatever it shows cannot depend on what it may
not see. The check is sensitive: the same scramble does change what the other seats see
(asserted below), so a page showing another seat's holdings in any form would differ.
The log's lines are stored when written, so they are checked at the source: each line comes
out the same from `describe` whatever the secrets were.
"""
from __future__ import annotations

import copy
import random
import re
from contextlib import contextmanager

import pytest

from pbem.play import moves as playing
from pbem.play import links
from pbem.mail import compose
from pbem.play import announce
from pbem.log import store
from pbem.db.database import write_transaction
from pbem.games.base import speaking
from pbem.db.models import Game, Outbox, Seat, db
from pbem.present import replay as replay_states_module
from pbem.web import replay as replay_module

PLAYERS = [{"name": n, "email": f"{n.lower()}@example.org", "language": lang}
           for n, lang in (("Ann", "en"), ("Bob", "hu"), ("Cy", "en"))]
# links are credentials, not game facts: one signed a second later differs (its time is in it)
TOKEN = re.compile(r"/(turn|replay|me|optout)/[A-Za-z0-9_.\-]+")


# -- scrambling what `seat` may not see --------------------------------------------------------------

def _redeal(rng, pools: list[list], sizes: list[int]) -> list[list]:
    """Shuffle the pooled items and deal them back in the same sizes."""
    items = [x for pool in pools for x in pool]
    rng.shuffle(items)
    out, at = [], 0
    for size in sizes:
        out.append(items[at:at + size])
        at += size
    return out


def scramble_duel(s, others, rng):
    pools = [s["hands"][t] for t in others] + [s["deck"]]
    dealt = _redeal(rng, pools, [len(p) for p in pools])
    for t, cards in zip(others, dealt):
        s["hands"][t] = sorted(cards)
    s["deck"] = dealt[-1]


def scramble_tigris(s, others, rng):
    def tiles(counts):
        return [c for c, n in sorted(counts.items()) for _ in range(n)]
    pools = [tiles(s["hands"][t]) for t in others] + [s["bag"]]
    dealt = _redeal(rng, pools, [len(p) for p in pools])
    for t, hand in zip(others, dealt):
        s["hands"][t] = {c: hand.count(c) for c in ("red", "blue", "green", "black")}
        if not s["options"].get("open_scoring"):
            s["points"][t] = {c: v + rng.randint(1, 4) for c, v in s["points"][t].items()}
            s["treasures_taken"][t] += rng.randint(1, 2)
    s["bag"] = dealt[-1]
    values = list(s["out"].values())
    rng.shuffle(values)
    s["out"] = dict(zip(s["out"], values))
    s["seed"] += 1


def scramble_tigris_cards(s, others, rng):
    hidden_piles = not s["options"].get("open_piles")
    # face-down connecting cards: only the player whose turn it is knows them
    gaps = [g for g in s["gaps"] if g and g.get("face_down") and "card" in g
            and s["active"] in others]
    # (the discard pile is public by face: each of its cards lay face up before it went)
    pools = [s["hands"][t] for t in others] + [s["deck"], s["removed"]]
    pools.append([g["card"] for g in gaps])
    if hidden_piles:
        pools += [s["piles"][t][:-1] for t in others]     # the top card is public
    dealt = _redeal(rng, pools, [len(p) for p in pools])
    for gap, card in zip(gaps, dealt[len(others) + 2]):
        gap["card"] = card
    for t, cards in zip(others, dealt):
        s["hands"][t] = cards
    n = len(others)
    s["deck"], s["removed"] = dealt[n], dealt[n + 1]
    if hidden_piles:
        for t, cards in zip(others, dealt[n + 3:]):
            s["piles"][t] = cards + s["piles"][t][-1:]
    s["seed"] += 1


def scramble_assyria(s, others, rng):
    # Assyria's hands are open; the secrets are the order of the decks (and the seed)
    rng.shuffle(s["food_deck"])
    rng.shuffle(s["expansion_deck"])
    s["seed"] += 1


SCRAMBLE = {"duel": scramble_duel, "tigris": scramble_tigris,
            "tigris_cards": scramble_tigris_cards, "assyria": scramble_assyria}


def scrambled(rules, state, seat, players, rng):
    """`state` with every secret of the seats other than `seat` (all, for None) changed."""
    data = copy.deepcopy(rules.dump(state))
    others = [t for t in range(players) if t != seat]
    SCRAMBLE[rules.name](data, others, rng)
    return rules.load(data)


# -- what a seat can fetch ------------------------------------------------------------------------------

@contextmanager
def snapshot(game, rules, state):
    """The game's stored snapshot temporarily replaced by `state`."""
    original = Game.get_by_id(game.id).state
    Game.update(state=rules.dump(state)).where(Game.id == game.id).execute()
    try:
        yield
    finally:
        Game.update(state=original).where(Game.id == game.id).execute()


@contextmanager
def replay_states(change):
    """The replay viewer rebuilding its states as usual, then passing them through `change`."""
    real = replay_states_module.state_at

    def patched(game, step):
        state, event = real(game, step)
        return change(state), event
    replay_states_module.state_at = patched
    try:
        yield
    finally:
        replay_states_module.state_at = real


def fetch(client, url):
    answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return TOKEN.sub(r"/\1/TOKEN", answer.get_data(as_text=True))


def turn_mail(game, rules, state, seat):
    """The turn email `seat` would get now (rendered, then rolled back)."""
    with db.atomic() as transaction:
        seats = list(Seat.select().where(Seat.game == game).order_by(Seat.index))
        announce.turn_mail(game, seats[seat])
        row = compose.render(Outbox.select().order_by(Outbox.id.desc()).first())
        mail = "\n".join((row.subject, row.body_text, row.body_html))
        transaction.rollback()
    return TOKEN.sub(r"/\1/TOKEN", mail)


def seat_answers(client, app, game, rules, seat, token, steps):
    """Everything `seat` can see: turn page, API, replays, the turn email."""
    answers = {"turn": fetch(client, f"/turn/{token}"),
               "api": fetch(client, f"/api/turn/{token}"),
               "mail": turn_mail(game, rules, store.state_of(Game.get_by_id(game.id)), seat)}
    for step in steps:
        answers[f"replay {step}"] = fetch(client, f"/replay/{token}?step={step}")
    return answers


def spectator_answers(client, game, steps):
    answers = {"game": fetch(client, f"/games/{game.id}")}
    for step in steps:
        answers[f"replay {step}"] = fetch(client, f"/games/{game.id}/replay?step={step}")
    return answers


def check_no_leak(client, app, game, rng, sensitive: dict):
    game = Game.get_by_id(game.id)
    rules = store.rules_of(game)
    state = store.state_of(game)
    steps = sorted({game.seq, game.seq // 2})
    players = game.players
    for seat in list(range(players)) + [None]:
        change = (lambda s, seat=seat: scrambled(rules, s, seat, players, random.Random(7)))
        if seat is None:
            real = spectator_answers(client, game, steps)
            with snapshot(game, rules, change(state)), replay_states(change):
                other = spectator_answers(client, game, steps)
        else:
            with write_transaction():
                token = links.issue(app.config["SECRET_KEY"], game, seat, 3600)
            real = seat_answers(client, app, game, rules, seat, token, steps)
            with snapshot(game, rules, change(state)), replay_states(change):
                other = seat_answers(client, app, game, rules, seat, token, steps)
                # the scramble is not a no-op: another seat sees its own holdings changed
                neighbour = (seat + 1) % players
                with write_transaction():
                    token_n = links.issue(app.config["SECRET_KEY"], game, neighbour, 3600)
                seen_changed = fetch(client, f"/api/turn/{token_n}")
            with write_transaction():
                token_n = links.issue(app.config["SECRET_KEY"], game, neighbour, 3600)
            if fetch(client, f"/api/turn/{token_n}") != seen_changed:
                sensitive["changed"] += 1
            sensitive["checks"] += 1
        for what in real:
            assert real[what] == other[what], (
                f"{rules.name} at move {game.seq}: the {what} of seat {seat} changes when "
                f"the other seats' secrets change")


def play_and_check(client, app, rules_name, players, seed, checkpoints, max_moves=4000):
    rng = random.Random(seed)
    game, _ = playing.create_game(rules_name, PLAYERS[:players], seed=seed)
    rules = store.rules_of(game)
    sensitive = {"checks": 0, "changed": 0}
    moves = 0
    while moves < max_moves:
        game = Game.get_by_id(game.id)
        state = store.state_of(game)
        waiting = rules.to_act(state)
        if not waiting:
            break
        if moves in checkpoints:
            check_no_leak(client, app, game, rng, sensitive)
        seat = rng.choice(waiting)
        playing.act(game.id, seat, rng.choice(rules.legal_actions(state, seat)), game.seq)
        moves += 1
    game = Game.get_by_id(game.id)
    assert game.status == "over", f"{rules_name} did not end in {max_moves} moves"
    check_log_lines(game)
    return sensitive


def check_log_lines(game):
    """Every line of the log says the same whatever the secrets were: the other seats' and
    the acting seat's own, where the action stays legal (a line is shown to everyone)."""
    rules = store.rules_of(game)
    before, checked = None, {False: 0, True: 0}
    for event, state in store.replay(game):
        if event.seq > 0:
            for hide_own in (False, True):
                seat = None if hide_own else event.seat
                changed = scrambled(rules, before, seat, game.players, random.Random(event.seq))
                if hide_own and event.action not in rules.legal_actions(changed, event.seat):
                    continue        # the actor's own holdings made the action possible
                with speaking("en"):
                    line = rules.describe(changed, event.seat, event.action)
                assert line == event.summary, (
                    f"{rules.name} move {event.seq}: the log line depends on "
                    f"{'the actor' if hide_own else 'another seat'}'s secrets: "
                    f"{event.summary!r} became {line!r}")
                checked[hide_own] += 1
        before = state
    assert checked[False] == game.seq and checked[True] >= game.seq // 4, checked


CASES = {   # rules: (players, seed, checkpoints by move number)
    "duel": (3, 5, {0, 1, 2, 3, 4}),
    "tigris": (3, 11, {1, 40, 110}),
    "tigris_cards": (2, 3, {0, 60, 300}),
    "assyria": (3, 2, {0, 20, 150}),
}


@pytest.mark.parametrize("rules_name", sorted(CASES))
def test_no_answer_reveals_another_seats_secrets(app, client, rules_name):
    players, seed, checkpoints = CASES[rules_name]
    sensitive = play_and_check(client, app, rules_name, players, seed, checkpoints)
    assert sensitive["checks"] >= 3
    if rules_name != "assyria":     # Assyria's hands are open: only its decks are secret
        assert sensitive["changed"] >= 1, "the scramble never changed what a seat sees"


def test_the_check_catches_a_leak(app, client, monkeypatch):
    """A JSON answer carrying the next seat's hand is caught (so the check above can fail)."""
    from pbem.web import api
    real = api.turn_payload

    def leaky(game, seat, state=None, seats=None):
        payload = real(game, seat, state, seats)
        rules = store.rules_of(game)
        full = rules.load(Game.get_by_id(game.id).state) if state is None else state
        payload["view"]["next_hand"] = full["hands"][(seat + 1) % game.players]
        return payload

    monkeypatch.setattr(api, "turn_payload", leaky)
    game, _ = playing.create_game("duel", PLAYERS[:3], seed=5)
    with pytest.raises(AssertionError, match="the api of seat 0 changes"):
        check_no_leak(client, app, game, random.Random(1), {"checks": 0, "changed": 0})


def test_a_running_games_replay_shows_no_other_holdings(app, client, monkeypatch):
    """Were the replay to show every seat's holdings before the end, the check would see it."""
    game, _ = playing.create_game("duel", PLAYERS[:2], seed=5)
    real_render = replay_module.render

    def everything(game, seat, base, **kwargs):
        game.status = "over"            # pretend: a finished game shows everything
        return real_render(game, seat, base, **kwargs)
    monkeypatch.setattr(replay_module, "render", everything)
    with pytest.raises(AssertionError, match="replay"):
        check_no_leak(client, app, game, random.Random(1), {"checks": 0, "changed": 0})
