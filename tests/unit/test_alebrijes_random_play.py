"""Alebrijes: many seeded games of random legal commands, checked at every step.

Every card stays accounted for, every legal command is accepted and nothing else is,
inputs are never changed, state and events survive JSON, no seat sees what it should
not, and every game ends with the scores the rules give (recomputed here from the
hands revealed at each round's end).
"""

import random
import re
from collections import Counter

import orjson
import pytest

from shared.games import alebrijes
from shared.games.base import RuleError

GAMES_PER_CONFIGURATION = 20
MAX_STEPS = 3000  # a finished game takes a few hundred; a bug must not hang the test
CARD = re.compile(r"[BGPOJ][1-5]\*?")
CONFIGURATIONS = [(players, one_turn) for players in range(2, 7) for one_turn in (False, True)]


def new_game(players, seed, one_turn=False, rounds=3):
    config = {
        "players": players,
        "seed": seed,
        "deck": None,
        "options": alebrijes.configure(players, {"one_turn": one_turn, "rounds": rounds}),
    }
    state = alebrijes.initial(config)
    events = alebrijes.decide(state, None, {"type": "start"})
    return fold(state, events), events


def fold(state, events):
    for event in events:
        state = alebrijes.evolve(state, event)
    return state


def random_game(players, seed, one_turn=False, check=None):
    """Play a game of uniformly random legal commands; return the final state and its log.

    `check(state, seat, commands, rng)` runs before every command.
    """
    rng = random.Random(seed)
    state, log = new_game(players, seed, one_turn)
    for _ in range(MAX_STEPS):
        if alebrijes.result(state) is not None:
            return state, log
        (seat,) = alebrijes.to_act(state)
        commands = alebrijes.legal(state, seat)
        if check:
            check(state, seat, commands, rng)
        events = alebrijes.decide(state, seat, rng.choice(commands))
        state = fold(state, events)
        log += events
    raise AssertionError(f"game {seed} did not end in {MAX_STEPS} steps")


# --- what is checked at every step


def assert_every_card_accounted_for(state):
    places = state["draw_pile"] + state["played"]
    for seat in range(state["players"]):
        places += state["hands"][seat] + state["laid_aside"][seat]
    assert Counter(places) == Counter(alebrijes.CARDS)


def assert_json_round_trip(value):
    assert orjson.loads(orjson.dumps(value)) == value


def cards_in(value):
    return CARD.findall(orjson.dumps(value).decode())


def knowable_cards(event, seat):
    """The cards `seat` may see in `event`: public ones and its own."""
    kind, own = event["type"], event.get("seat") == seat and seat is not None
    if kind == "dealt":
        return list(event["hands"][seat]) if seat is not None else []
    if kind in ("exchanged", "passed"):
        return event["laid_aside"] + event["drawn"] if own else []
    if kind == "laid_aside":
        return [event["card"]] if own else []
    if kind == "ollin_draws":
        return [draw["card"] for draw in event["draws"] if draw["seat"] == seat]
    if kind == "played":
        return event["cards"]
    if kind == "round_ended":
        return [card for hand in event["hands"] for card in hand]
    return []


def assert_hidden_information(state, events):
    for seat in [None, *range(state["players"])]:
        for event in events:
            seen = alebrijes.redact(event, seat)
            assert seen["type"] == event["type"]
            assert Counter(cards_in(seen)) == Counter(knowable_cards(event, seat))
        view = alebrijes.view(state, seat)
        own = [] if seat is None else state["hands"][seat] + state["laid_aside"][seat]
        table = [] if state["table"] is None else state["table"]["cards"]
        assert Counter(cards_in(view)) == Counter(own + table)
        assert state["seed"] not in orjson.dumps(view).decode()


def checked_step(state, seat, commands, rng):
    """Decide a random legal command and a few more, checking everything on the way."""
    assert alebrijes.to_act(state) == [seat] and commands
    other = rng.choice([s for s in range(state["players"]) if s != seat])
    assert alebrijes.legal(state, other) == []
    assert alebrijes.timeout(state, seat) in commands
    before = orjson.dumps(state)
    for command in rng.sample(commands, min(3, len(commands))):
        events = alebrijes.decide(state, seat, command)  # raises if a legal command is refused
        assert_json_round_trip(events)
        after = fold(state, events)
        assert orjson.dumps(state) == before, "decide or evolve changed the state"
        assert_json_round_trip(after)
        assert_every_card_accounted_for(after)
        assert_hidden_information(after, events)


# --- scores recomputed independently from the revealed hands


def expected_minus_points(hand):
    return sum(
        max([int(card[1]) for card in hand if card[0] == colour], default=0) for colour in "BGPOJ"
    )


def assert_scored_by_the_rules(state, log):
    players = state["players"]
    totals, rounds_won = [0] * players, [0] * players
    ends = [event for event in log if event["type"] == "round_ended"]
    deals = [event for event in log if event["type"] == "dealt"]
    assert len(ends) == len(deals) == state["options"]["rounds"]
    assert deals[0]["starting_seat"] == 0
    for number, (end, next_deal) in enumerate(zip(ends, deals[1:] + [None], strict=True), start=1):
        assert end["round"] == number and end["hands"][end["winner"]] == []
        assert all(hand for seat, hand in enumerate(end["hands"]) if seat != end["winner"])
        scores = [-expected_minus_points(hand) for hand in end["hands"]]
        assert end["scores"] == scores
        totals = [total + score for total, score in zip(totals, scores, strict=True)]
        rounds_won[end["winner"]] += 1
        assert end["totals"] == totals and end["rounds_won"] == rounds_won
        if next_deal is not None:
            tied = [s for s in range(players) if totals[s] == min(totals)]
            after_winner = sorted(tied, key=lambda s: (s - end["winner"] - 1) % players)
            assert next_deal["starting_seat"] == after_winner[0]
    best = max(totals)
    most = max(rounds_won[s] for s in range(players) if totals[s] == best)
    result = alebrijes.result(state)
    assert result["scores"] == totals and result["rounds_won"] == rounds_won
    assert result["winners"] == [
        s for s in range(players) if totals[s] == best and rounds_won[s] == most
    ]
    assert result["round_scores"] == [end["scores"] for end in ends]


@pytest.mark.parametrize("players, one_turn", CONFIGURATIONS)
def test_random_games_keep_the_rules_at_every_step_and_score_by_the_rules(players, one_turn):
    for game in range(GAMES_PER_CONFIGURATION):
        # every step is fully checked in a few games; the rest only play and score
        check = checked_step if game < 3 else None
        state, log = random_game(players, f"random/{players}/{one_turn}/{game}", one_turn, check)
        assert_every_card_accounted_for(state)
        assert_scored_by_the_rules(state, log)


# --- decide accepts exactly what legal lists


def canonical(command):
    """A command with defaults filled in and its cards in a fixed order."""
    kind = command["type"]
    if kind == "exchange":
        return (kind, tuple(sorted(command["cards"])))
    if kind == "pass":
        return (kind, tuple(sorted(command.get("exchange") or [])))
    return (
        kind,
        tuple(sorted(command["cards"])),
        command.get("colour"),
        command.get("ollin") or "none",
        command.get("lay_aside"),
    )


def candidates(state, seat, commands, rng):
    """Commands near the legal ones: random hand cards, other Ollin effects and colours."""
    hand = state["hands"][seat]
    for _ in range(12):
        base = dict(rng.choice(commands))
        if base["type"] == "play":
            cards = list(base["cards"])
            if rng.random() < 0.3 and len(hand) > len(cards):
                cards.append(rng.choice(hand))
            if rng.random() < 0.3:
                cards = rng.sample(hand, rng.randint(1, min(4, len(hand))))
            base["cards"] = cards
            base["ollin"] = rng.choice(["none", "others_draw", "lay_aside"])
            if rng.random() < 0.5:
                base["lay_aside"] = rng.choice(hand)
            else:
                base.pop("lay_aside", None)
            if rng.random() < 0.3:
                base["colour"] = rng.choice("BGPO")
        else:
            field = "cards" if base["type"] == "exchange" else "exchange"
            base[field] = rng.sample(hand, rng.randint(0, min(3, len(hand))))
        yield base
    yield {"type": "pass", "exchange": []}
    yield {"type": "exchange", "cards": []}


@pytest.mark.parametrize("players, one_turn", [(2, False), (3, True), (4, False), (6, True)])
def test_decide_accepts_exactly_the_commands_legal_lists(players, one_turn):
    def check(state, seat, commands, rng):
        allowed = {canonical(command) for command in commands}
        assert len(allowed) == len(commands), "legal lists a command twice"
        for command in candidates(state, seat, commands, rng):
            try:
                alebrijes.decide(state, seat, command)
                accepted = True
            except RuleError as error:
                assert error.code == "illegal_move", (command, error.message)
                accepted = False
            assert accepted == (canonical(command) in allowed), command

    for game in range(3):
        random_game(players, f"fuzz/{players}/{game}", one_turn, check)


# --- determinism, replay, purity


def test_the_same_seed_and_commands_give_the_same_events_byte_for_byte():
    _, first = random_game(4, "same")
    _, second = random_game(4, "same")
    assert orjson.dumps(first) == orjson.dumps(second)
    _, other = random_game(4, "other")
    assert orjson.dumps(first) != orjson.dumps(other)


def test_replaying_the_stored_events_rebuilds_the_same_state():
    state, log = random_game(5, "replay", one_turn=True)
    stored = orjson.loads(orjson.dumps(log))
    config = {
        "players": 5,
        "seed": "replay",
        "deck": None,
        "options": alebrijes.configure(5, {"one_turn": True}),
    }
    assert fold(alebrijes.initial(config), stored) == state


def test_decide_and_evolve_never_change_their_inputs():
    state, _ = new_game(3, "pure")
    rng = random.Random(1)
    for _ in range(200):
        if alebrijes.result(state) is not None:
            break
        (seat,) = alebrijes.to_act(state)
        command = rng.choice(alebrijes.legal(state, seat))
        state_before, command_before = orjson.dumps(state), orjson.dumps(command)
        events = alebrijes.decide(state, seat, command)
        assert orjson.dumps(state) == state_before
        assert orjson.dumps(command) == command_before
        for event in events:
            event_before = orjson.dumps(event)
            new_state = alebrijes.evolve(state, event)
            assert orjson.dumps(state) == state_before and orjson.dumps(event) == event_before
            state, state_before = new_state, orjson.dumps(new_state)
