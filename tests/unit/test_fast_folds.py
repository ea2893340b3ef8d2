"""Alien's, Alakablast's and Alebrijes' fast folds give what the plain deep-copy fold gave.

`evolve` copies the state with `copy_state` (which knows the state's shape) instead of a
generic deep copy, `evolve_in_place` folds into a state its caller owns (the search's
play-outs), and decide folds its look-ahead into one working copy. Over whole seeded
games (random legal commands from every seat, table timers too) this checks, event by
event, that all three give the states the generic fold gives, the same legal commands,
views and seats to act, that no input changes, that a copy shares nothing that can
change, and that the games' events are those the engines produced before the fast
folds (a digest taken with the code before them). Alebrijes' legal commands, listed
only among the plays that beat the table, are checked against a digest taken before too.
"""

import hashlib
import json
import random
from collections import Counter
from importlib import import_module

import pytest

from shared import games
from shared.games.alebrijes.cards import CARDS, remove_cards
from shared.games.common import clone

GAMES = 4  # seeded games per game and player count
MAX_COMMANDS = 600  # per game: random games end sooner; this only bounds the test
# sha256 of the events of the games of `played_games`, taken before the fast folds.
BEFORE = {
    "alien": "1a50ddfc39b55520ed480198c575b807eade5ad487f21ca85b1cf1b1280cdc70",
    "alakablast": "192e279d9fc605496cd33deceb359c2c9a9a64a8c43a0edbb80a7c8bec6d2f69",
    "alebrijes": "1b93bcc27845efb17c24ec94c52fab6b499d9260f41ae7c833933e633c8d3c45",
}
# sha256 of every seat's legal commands at every step of Alebrijes' `played_games`,
# taken before possible_plays built only the plays that beat the table.
LEGAL_BEFORE = "9035c6791cad48af9e3081ac524633e76c7376b5900ad112e21a79a7e9cc2314"
PLAYERS = {"alien": (2, 3, 5), "alakablast": (2, 3, 5), "alebrijes": (2, 4, 6)}
FOLDS = {"alien": "evolve", "alakablast": "evolve", "alebrijes": "events"}  # copy_state's module
FAST = list(FOLDS)


def commands(rules, state, rng):
    """A (seat, command) drawn uniformly from every seat's legal commands and the
    table's timers; None when there is nothing to send."""
    choices = [(seat, c) for seat in range(state["players"]) for c in rules.legal(state, seat)]
    timers = getattr(rules, "table_timers", None)
    choices += [(None, timer["command"]) for timer in (timers(state) if timers else [])]
    return rng.choice(choices) if choices else None


def played_games(name, check=None):
    """Every event of the seeded games of `name`, in order; `check(state, events)` is
    called before each command's events are folded."""
    rules = games.get(name)
    log = []
    for players in PLAYERS[name]:
        for index in range(GAMES):
            rng = random.Random(f"{name}/{players}/{index}")
            config = {"players": players, "seed": f"fold-{index}", "deck": None}
            state = rules.initial({**config, "options": rules.configure(players, {})})
            events = rules.decide(state, None, {"type": "start"})
            for _ in range(MAX_COMMANDS):
                if check:
                    check(state, events)
                log += events
                for event in events:
                    state = rules.evolve(state, event)
                move = commands(rules, state, rng)
                if rules.result(state) is not None or move is None:
                    break
                events = rules.decide(state, *move)
    return log


def digest(events):
    return hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest()


def containers(value):
    """The ids of every list and dict inside a JSON-like value."""
    if isinstance(value, dict):
        return {id(value)}.union(*(containers(item) for item in value.values()))
    if isinstance(value, list):
        return {id(value)}.union(*(containers(item) for item in value))
    return set()


def observed(rules, state):
    """What the rest of the service reads of a state: legal, views, to_act, result."""
    seats = [None, *range(state["players"])]
    return (
        [rules.legal(state, seat) for seat in seats],
        [rules.view(state, seat) for seat in seats],
        rules.to_act(state),
        rules.result(state),
    )


@pytest.mark.parametrize("name", FAST)
def test_fast_folds_give_the_states_legal_commands_and_views_the_deep_copy_gave(name):
    rules = games.get(name)
    copy_state = import_module(f"shared.games.{name}.{FOLDS[name]}").copy_state
    owned = {}  # the one state evolve_in_place folds into, game after game

    def check(state, events):
        if events and events[0]["type"] == "dealt":
            owned["state"] = copy_state(state)
        fast = owned["state"]
        assert fast == state
        copied = copy_state(state)
        assert copied == state and not containers(copied) & containers(state)
        for event in events:
            before = clone(state)
            reference = rules.evolve_in_place(clone(state), event)  # the old evolve
            state_after = rules.evolve(state, event)
            assert state == before  # evolve leaves its input alone
            assert state_after == reference
            assert rules.evolve_in_place(fast, event) is fast
            assert fast == reference
            assert observed(rules, fast) == observed(rules, reference)
            state = state_after

    played_games(name, check)


@pytest.mark.parametrize("name", FAST)
def test_decide_produces_the_events_it_produced_before_the_fast_folds(name):
    assert digest(played_games(name)) == BEFORE[name]


@pytest.mark.parametrize("name", FAST)
def test_decide_leaves_its_state_alone_while_folding_its_look_ahead(name):
    rules = games.get(name)

    def check(state, events):
        snapshot = clone(state)
        for seat in range(state["players"]):
            for command in rules.legal(state, seat):
                rules.decide(state, seat, command)
        assert state == snapshot

    played_games(name, check)


def test_alebrijes_legal_commands_are_those_listed_before_the_faster_plays():
    rules = games.get("alebrijes")
    listed = hashlib.sha256()

    def check(state, events):
        for seat in range(state["players"]):
            listed.update(json.dumps(rules.legal(state, seat)).encode())

    played_games("alebrijes", check)
    assert listed.hexdigest() == LEGAL_BEFORE


def test_alebrijes_remove_cards_takes_one_copy_per_card_from_its_first_place():
    rng = random.Random("remove_cards")
    for _ in range(2000):
        hand = rng.sample(CARDS, rng.randint(1, 12))
        pool = hand + rng.sample(CARDS, 3)  # mostly held, some perhaps not
        cards = rng.sample(pool, rng.randint(0, 4))  # 4 or more to draw from
        assert remove_cards(hand, cards) == _remove_cards_before(hand, cards)


def _remove_cards_before(hand, cards):
    """Alebrijes' remove_cards before it used list.remove, through Counters."""
    wanted, held = Counter(cards), Counter(hand)
    if any(held[card] < count for card, count in wanted.items()):
        return None
    rest = []
    for card in hand:
        if wanted[card]:
            wanted[card] -= 1
        else:
            rest.append(card)
    return rest
