"""Alakablast bot knowledge: greedy always sends a legal command and plays by the
rulebook's strategy; a sampled state is one the seat cannot tell from the true one, its own
open cards drawn from what it was told, a rival's secret duel card never read."""

import random
from collections import Counter

import pytest

import shared.games.alakablast as game
from shared.bots.games import alakablast as bot
from shared.bots.games.alakablast import beliefs, evaluation, play, sampling
from tests.alakablast_tables import after, started
from tests.bot_positions import positions, seat_feed, seat_view


def random_policy(view, rng):
    return rng.choice(view["legal"])


def greedy_policy(view, rng):
    return bot.greedy(view, [], rng)


def every_position(players, policy, games):
    for seed in range(games):
        yield from positions("alakablast", players, seed, policy)


def _view(state, seat):
    """The minimal view a search builds."""
    return {
        "game": "alakablast",
        "seat": seat,
        "to_act": game.to_act(state),
        "legal": game.legal(state, seat),
        "state": game.view(state, seat),
        "options": {},
    }


@pytest.mark.parametrize("players", [2, 3, 5])
def test_greedy_sends_only_legal_commands_and_no_reflex(players):
    checked = 0
    for policy in (random_policy, greedy_policy):
        for tbl, log in every_position(players, policy, games=3):
            for seat in table_seats(tbl):
                view = seat_view(tbl, len(log), seat)
                feed = seat_feed(tbl, log, seat)
                assert bot.reflex(view, feed, random.Random(seat)) is None
                if seat in view["to_act"]:
                    for fed in (feed, []):
                        assert bot.greedy(view, fed, random.Random(checked)) in view["legal"]
                        checked += 1
    assert checked > 300


def table_seats(tbl):
    return range(len(tbl["seats"]))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_sample_is_a_state_the_seat_cannot_tell_from_the_true_one(players):
    checked = varied = 0
    for policy in (random_policy, greedy_policy):
        for index, (tbl, log) in enumerate(every_position(players, policy, games=3)):
            if index % 2:
                continue
            for seat in table_seats(tbl):
                view = seat_view(tbl, len(log), seat)
                feed = seat_feed(tbl, log, seat)
                worlds = []
                for fed in (feed, []):
                    for k in range(2):
                        state = bot.sample(view, fed, random.Random(k))
                        assert game.view(state, seat) == view["state"]
                        assert game.legal(state, seat) == view["legal"]
                        assert game.to_act(state) == view["to_act"]
                        worlds.append(repr([state["hands"], state["draw_pile"]]))
                        checked += 1
                varied += len(set(worlds)) > 1
    assert checked > 400 and varied > checked // 8


def test_own_open_cards_are_sampled_from_what_the_seat_was_told():
    # Seat 0's open cards are F3, W3 and S7. Told "power 3" marks the first two only.
    state = started(2, [(["W1", "W2"], ["F3", "W3", "S7"]), (["P1", "P2"], ["P3", "P4", "P5"])])
    state = after(state, (0, {"type": "ask", "card": 2, "informant": 1}))
    state = after(state, (1, {"type": "inform", "dimension": "power"}))
    view = _view(state, 0)
    assert [c["told"]["power"] for c in view["state"]["hands"][0][2:]] == [3, 3, None]
    seen = set()
    for k in range(60):
        sampled = bot.sample(view, [], random.Random(k))
        spells = [card["spell"] for card in sampled["hands"][0]]
        assert spells[:2] == ["W1", "W2"]
        assert spells[2][1:] == spells[3][1:] == "3"
        seen.add(tuple(spells[2:]))
    assert len(seen) > 5  # the seat does not know which 3s, nor its third card


def test_what_the_feed_said_of_the_own_open_cards_is_true_and_kept():
    """A clue that did not mark an open card rules that value out (the feed shows which
    cards a clue marked), and every sample respects it."""
    ruled_out = 0
    for seed in range(12):
        for tbl, log in positions("alakablast", 2, seed, random_policy, max_steps=80):
            for seat in table_seats(tbl):
                view, feed = seat_view(tbl, len(log), seat), seat_feed(tbl, log, seat)
                slots = beliefs.heard(view, feed)
                assert slots is not None
                hand = tbl["rules"]["hands"][seat]
                sampled = bot.sample(view, feed, random.Random(seed))
                for card, slot, drawn in zip(hand, slots, sampled["hands"][seat], strict=True):
                    assert (slot is None) == (not card["open"])
                    for clue in slot["not"] if slot else ():
                        assert not game.knowledge.matches(card["spell"], clue)
                        assert not game.knowledge.matches(drawn["spell"], clue)
                        ruled_out += 1
    assert ruled_out > 100


def test_a_claim_answered_in_the_other_dimension_makes_its_value_likelier():
    # Seat 0 claims its card 2 (an F3) is fire; the power answer says 3, not which element.
    state = started(2, [(["W1", "W2"], ["F3", "W4", "P5"]), (["P1", "P2"], ["P3", "F4", "W5"])])
    events = []
    for seat, command in [
        (0, {"type": "ask", "card": 2, "informant": 1, "claim": {"element": "F"}}),
        (1, {"type": "inform", "dimension": "power"}),
    ]:
        for event in game.decide(state, seat, command):
            events.append(game.redact(event, 0))
            state = game.evolve(state, event)
    view = _view(state, 0)
    assert view["state"]["hands"][0][2]["told"] == {"element": None, "power": 3, "special": False}
    feed = [game.redact(e, 0) for e in _deal(state)] + events
    slots = beliefs.heard(view, feed)
    assert slots[2]["claimed"] == [{"element": "F"}]
    pool = beliefs.unseen(view["state"], 0)
    without = beliefs.beliefs(view["state"], 0, pool)[2]
    with_claim = beliefs.beliefs(view["state"], 0, pool, slots)[2]
    assert with_claim["F3"] > without["F3"] and with_claim["P3"] < without["P3"]
    assert set(with_claim) == set(without)  # likelier, never certain: the claim may be wrong
    draws = [bot.sample(view, feed, random.Random(k))["hands"][0][2]["spell"] for k in range(400)]
    assert abs(draws.count("F3") / 400 - with_claim["F3"]) < 0.07


def _deal(state):
    """The deal event of a game dealt from the same hands (for a feed)."""
    hands = [
        {
            "hidden": [c["spell"] for c in hand if not c["open"]],
            "open": [c["spell"] for c in hand if c["open"]],
        }
        for hand in state["hands"]
    ]
    return [{"type": "dealt", "hands": hands, "discard_zone": [], "draw_pile": []}]


def test_a_rivals_chosen_duel_card_is_drawn_never_read():
    state = started(2, [(["W1", "W2"], ["F3", "W3", "S7"]), (["P1", "P2"], ["P3", "P4", "P5"])])
    state = after(
        state,
        (0, {"type": "duel", "rival": 1, "kind": "power", "card": 2, "dimension": "element"}),
        (1, {"type": "choose", "card": 0}),
    )
    view = _view(state, 0)
    # Had the rival chosen another card, seat 0 would see the same and sample the same.
    other = after(
        started(2, [(["W1", "W2"], ["F3", "W3", "S7"]), (["P1", "P2"], ["P3", "P4", "P5"])]),
        (0, {"type": "duel", "rival": 1, "kind": "power", "card": 2, "dimension": "element"}),
        (1, {"type": "choose", "card": 3}),
    )
    assert _view(other, 0) == view
    assert bot.sample(_view(other, 0), [], random.Random(7)) == bot.sample(
        view, [], random.Random(7)
    )
    # The rival's card is the one greedy would choose seeing the rival's view of the
    # sampled world, now and then any card of its hand: never the real one, read.
    picks = []
    for k in range(200):
        world = bot.sample(view, [], random.Random(k))
        world["duel"]["chosen"]["rival"], pick = None, world["duel"]["chosen"]["rival"]
        rivals = _view(world, 1)
        picks.append(pick == bot.greedy(rivals, [], random.Random(k))["card"])
        assert 0 <= pick < 5
    assert sum(picks) >= 200 * (1 - sampling.RANDOM_CHOICE) - 15
    assert not all(picks)
    # Seat 0's own choice is its own to know: nothing chosen yet stays nothing.
    assert bot.sample(view, [], random.Random(1))["duel"]["chosen"]["attacker"] is None


def test_greedy_duels_in_power_holding_a_shadow():
    state = started(2, [(["S7", "W6"], ["F1", "W1", "P1"]), (["P1", "P2"], ["P3", "F4", "W5"])])
    command = bot.greedy(_view(state, 0), [], random.Random(1))
    assert command["type"] == "duel" and command["kind"] == "power"
    # Its opening clue is about the element, not the power the duel turns on.
    assert command["dimension"] == "element"


def test_greedy_plays_its_strongest_card_in_a_power_duel():
    state = started(2, [(["W1", "S7"], ["F1", "W2", "P1"]), (["P1", "P2"], ["P3", "P4", "P5"])])
    state = after(
        state, (0, {"type": "duel", "rival": 1, "kind": "power", "card": 2, "dimension": "element"})
    )
    assert bot.greedy(_view(state, 0), [], random.Random(1)) == {"type": "choose", "card": 1}


def test_greedy_asks_with_weak_cards_claiming_the_likeliest_element():
    # Weak hidden cards; the rival's open cards are all water, so seat 0's own open cards
    # are likelier fire or plant than water.
    state = started(
        3,
        [
            (["P1", "F1"], ["W6", "W5"]),
            (["P2", "L0"], ["W4", "W4"]),
            (["S7", "S7"], ["W5", "W3"]),
        ],
        discard=["W1", "W1", "W2", "W2", "W2", "W3"],
    )
    command = bot.greedy(_view(state, 0), [], random.Random(1))
    assert command["type"] == "ask"
    assert command["claim"]["element"] in ("F", "P")
    assert command["informant"] in (1, 2)


def test_greedy_informs_in_the_dimension_that_tells_the_least():
    # Seat 0 asks about its card 2, a W3; its card 3 is an F3: a power clue would mark both.
    state = started(2, [(["W1", "W2"], ["W3", "F3", "L0"]), (["P1", "P2"], ["P3", "F4", "W5"])])
    state = after(state, (0, {"type": "ask", "card": 2, "informant": 1}))
    assert bot.greedy(_view(state, 1), [], random.Random(1)) == {
        "type": "inform",
        "dimension": "element",
    }


@pytest.mark.parametrize("players", [2, 3])
def test_rank_is_greedys_choice_then_one_ask_per_card_one_duel_per_rival_and_kind(players):
    checked = 0
    for tbl, log in every_position(players, greedy_policy, games=2):
        for seat in table_seats(tbl):
            view = seat_view(tbl, len(log), seat)
            if seat not in view["to_act"]:
                continue
            feed = seat_feed(tbl, log, seat)
            ranked = bot.rank(view, feed, random.Random(2))
            legal = view["legal"]
            assert ranked[0] == bot.greedy(view, feed, random.Random(2))
            assert all(c in legal for c in ranked) and len(ranked) == len(set(map(str, ranked)))
            if view["state"]["phase"] != "turn":
                assert len(ranked) == len(legal)
                continue
            checked += 1
            for kind, fields in (("ask", ("card",)), ("duel", ("rival", "kind"))):
                pairs = [tuple(c[f] for f in fields) for c in legal if c["type"] == kind]
                ranked_pairs = [tuple(c[f] for f in fields) for c in ranked if c["type"] == kind]
                assert sorted(ranked_pairs) == sorted(set(pairs))  # each once
    assert checked > 10


def test_evaluate_shares_the_victory_by_gems():
    state = started(
        3,
        [(["W1", "W2"], ["W3", "F3"]), (["P1", "P2"], ["P3", "F4"]), (["S7", "L0"], ["W5", "F5"])],
    )
    assert [round(evaluation.evaluate(state, s), 6) for s in range(3)] == [round(1 / 3, 6)] * 3
    state["gems"] = [3, 1, 0]
    values = [evaluation.evaluate(state, s) for s in range(3)]
    assert values[0] > values[1] > values[2] > 0 and abs(sum(values) - 1) < 1e-9
    state["duel"] = {"attacker": 2, "rival": 1, "stake": 2}  # cut short in a duel
    assert evaluation.evaluate(state, 2) > values[2] and evaluation.evaluate(state, 0) < values[0]
    assert evaluation.HORIZON >= 1


# The spell-by-spell edges greedy computed before it weighed sides (its code then, as
# the reference the faster path is checked against).
def _spell_against(kind, theirs):
    side = beliefs.SIDE[kind]
    mass, total = {}, 0
    for spell, weight in theirs.items():
        if weight > 0:
            mass[side[spell]] = mass.get(side[spell], 0) + weight
            total += weight
    total = total or 1
    by_side = {
        mine: sum(row[theirs] * weight for theirs, weight in mass.items()) / total
        for mine, row in play.OUTCOME[kind].items()
    }
    return {spell: by_side[side[spell]] for spell in beliefs.SPELLS}


def _spell_rival_play(state, rival, kind, pool, worth):
    hand = state["hands"][rival]
    hidden = sum(1 for card in hand if not card["open"])
    best_open, best_open_worth = None, -2.0
    for card in hand:
        if card["open"] and card["spell"] is not None:
            fit = beliefs.fitting(card["told"])
            guess = {s: n for s, n in pool.items() if n > 0 and s in fit}
            guess[card["spell"]] = guess.get(card["spell"], 0) + 1
            seems = sum(worth[s] * n for s, n in guess.items()) / sum(guess.values())
            if seems > best_open_worth:
                best_open, best_open_worth = card["spell"], seems
    if hidden == 0 or not pool:
        best = {best_open: 1.0} if best_open else {}
    else:
        ranked = sorted((s for s in pool if pool[s] > 0), key=lambda s: worth[s])
        total, best, below = sum(pool.values()), Counter(), 0
        for spell in ranked:
            chance = ((below + pool[spell]) / total) ** hidden - (below / total) ** hidden
            below += pool[spell]
            best[best_open if best_open and best_open_worth > worth[spell] else spell] += chance
    total = sum(pool.values()) or 1
    mixed = Counter({s: p * play.RIVAL_BEST for s, p in best.items()})
    share = (1 - play.RIVAL_BEST) / len(hand)
    for card in hand:
        if card["spell"] is not None:
            mixed[card["spell"]] += share
        else:
            for s, n in pool.items():
                mixed[s] += share * n / total
    return dict(mixed)


def test_greedy_weighing_sides_finds_the_edges_it_found_spell_by_spell():
    """The faster path (sides, a power's edge from the weight below and above it) gives
    every duel the edge the spell-by-spell code gave, to 1e-12, so greedy chooses as it
    did (a tie of edges now goes to the first rival in seat order, not to rounding)."""
    checked = 0
    for players in (2, 3, 4):
        for tbl, log in every_position(players, greedy_policy, games=2):
            for seat in table_seats(tbl):
                view = seat_view(tbl, len(log), seat)
                world = bot.sample(view, seat_feed(tbl, log, seat), random.Random(checked))
                for state, me in ((view["state"], seat), (game.view(world, seat), seat)):
                    pool = beliefs.unseen(state, me)
                    mine = beliefs.beliefs(state, me, pool)
                    for kind in ("element", "power"):
                        side, mass = beliefs.SIDE[kind], play.sides(kind, pool)
                        worth, old_worth = play.against(kind, mass), _spell_against(kind, pool)
                        assert all(abs(worth[side[s]] - w) < 1e-12 for s, w in old_worth.items())
                        for rival in table_seats(tbl):
                            old = _spell_rival_play(state, rival, kind, pool, old_worth)
                            new = play.rival_play(state, rival, kind, pool, worth, mass)
                            assert set(new) == {side[s] for s, p in old.items() if p > 0}
                            edge = _spell_against(kind, old)  # per spell, as before
                            want = [sum(p * edge[s] for s, p in card.items()) for card in mine]
                            got = play.edges(kind, mine, new)
                            assert all(abs(g - w) < 1e-12 for g, w in zip(got, want, strict=True))
                            checked += 1
    assert checked > 1000
