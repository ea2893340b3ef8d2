"""Tiny, a test game: the smallest game with real hidden information, registered only by
the tests (tests/games/registry.py) to prove what a game outside the project touches.

Two players, five cards 1..5. Each seat is dealt one card, face down; the other three
are the pile. Seat 0 then seat 1 either keeps its card or swaps it: the card is
discarded face up and the top of the pile drawn, face down. Then both cards are shown
and the higher wins (the lower, with the option `low_wins`). Fulfils the contract of
shared/games/base.py, purely.
"""

import random

from shared.games import common
from shared.games.base import RuleError

NAME = "tiny"
PLAYERS = range(2, 3)
OPTIONS = {"low_wins": False}
CARDS = ["1", "2", "3", "4", "5"]
COMMANDS = ("keep", "swap")
TABLE_COMMANDS = ("start",)


def configure(players, options):
    """The options completed with their defaults; bad_options for anything else."""
    common.check_players(players, PLAYERS, "tiny")
    options = common.check_options(options, OPTIONS)
    if not isinstance(options["low_wins"], bool):
        raise RuleError("bad_options", "low_wins is true or false")
    return options


def check_deck(deck):
    """Refuse a fixed deck that is not the five cards."""
    common.check_deck(deck, CARDS, "a tiny deck is the cards 1 to 5, each once")


def initial(config):
    """The table before the deal."""
    common.check_seed(config)
    players, options, deck = common.read_config(config, configure, check_deck)
    return {
        "players": players,
        "options": options,
        "seed": config["seed"],
        "deck": deck,
        "phase": "waiting",
        "hands": [None] * players,
        "pile": [],
        "discards": [],
        "turn": None,
        "result": None,
    }


def decide(state, seat, command):
    """The events of `command` sent by `seat` (None: the table, which deals)."""
    common.check_seat(seat, state["players"])
    if seat is None:
        common.command_type(command, TABLE_COMMANDS)
        if state["phase"] != "waiting":
            raise RuleError("illegal_move", "the cards are dealt already")
        deck = list(state["deck"] or CARDS)
        if state["deck"] is None:
            random.Random(f"{state['seed']}/shuffle").shuffle(deck)
        hands, pile = deck[: state["players"]], deck[state["players"] :]
        return [{"type": "dealt", "hands": hands, "pile": pile}]
    kind = common.command_type(command, COMMANDS)
    common.check_fields(command, kind, ())
    if seat not in to_act(state):
        raise RuleError("not_your_turn", f"it is seat {state['turn']}'s turn")
    if kind == "keep":
        events = [{"type": "kept", "seat": seat}]
    else:
        card = state["pile"][0]
        events = [
            {"type": "swapped", "seat": seat, "discarded": state["hands"][seat], "card": card}
        ]
    if seat == state["players"] - 1:
        hands = list(state["hands"])
        if kind == "swap":
            hands[seat] = events[0]["card"]
        winner = _winner(hands, state["options"]["low_wins"])
        events.append({"type": "shown", "hands": hands, "winner": winner})
    return events


def _winner(hands, low_wins):
    pick = min if low_wins else max
    return pick(range(len(hands)), key=lambda seat: int(hands[seat]))


def evolve(state, event):
    """The state after `event`; `state` is left as it was."""
    state = common.clone(state)
    kind = event["type"]
    if kind == "dealt":
        state.update(phase="play", hands=list(event["hands"]), pile=list(event["pile"]), turn=0)
    elif kind in ("kept", "swapped"):
        if kind == "swapped":
            state["discards"].append(event["discarded"])
            state["hands"][event["seat"]] = event["card"]
            state["pile"].pop(0)
        state["turn"] = event["seat"] + 1
    elif kind == "shown":
        scores = [int(card) for card in event["hands"]]
        state.update(phase="over", turn=None)
        state["result"] = {"winners": [event["winner"]], "scores": scores}
    else:
        raise ValueError(f"tiny has no event type {kind!r}")
    return state


def to_act(state):
    """The seat whose turn it is, while the game is on."""
    return [state["turn"]] if state["phase"] == "play" else []


def legal(state, seat):
    """Keep or swap, for the seat whose turn it is."""
    common.check_seat(seat, state["players"])
    if seat is None or seat not in to_act(state):
        return []
    return [{"type": "keep"}, {"type": "swap"}]


def timeout(state, seat):
    """Out of time: the seat keeps its card."""
    return {"type": "keep"}


def view(state, seat):
    """What `seat` (None: a spectator) sees: its own card only, until the cards are shown."""
    common.check_seat(seat, state["players"])
    over = state["phase"] == "over"
    mine = None if seat is None else state["hands"][seat]
    return {
        "game": NAME,
        "seat": seat,
        "phase": state["phase"],
        "turn": state["turn"],
        "hand": mine,
        "hands": list(state["hands"]) if over else None,
        "pile_size": len(state["pile"]),
        "discards": list(state["discards"]),
        "result": common.clone(state["result"]),
    }


def redact(event, seat):
    """`event` as `seat` may see it: another seat's card and the pile are hidden."""
    kind = event["type"]
    if kind == "dealt":
        return {
            "type": "dealt",
            "hands": [card if other == seat else None for other, card in enumerate(event["hands"])],
            "pile": None,
            "pile_size": len(event["pile"]),
        }
    if kind == "swapped" and seat != event["seat"]:
        return {**event, "card": None}
    return dict(event)


def result(state):
    """None until the cards are shown; then {"winners", "scores"}."""
    return common.clone(state["result"])
