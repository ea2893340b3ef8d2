"""The referee: a command from a seat (or the table) becomes events, or a RuleError."""

from shared.games.alakablast.commands import TABLE_COMMANDS, command_type
from shared.games.alakablast.deal import dealt_event
from shared.games.alakablast.duel import showdown
from shared.games.alakablast.evolve import evolve
from shared.games.alakablast.knowledge import (
    claim_holds,
    clue_about,
    fully_known,
    is_claimable,
    knows_nothing,
    tell,
)
from shared.games.alakablast.table import (
    answer_dimensions,
    choosing_seats,
    duel_clues,
    next_seat,
)
from shared.games.base import RuleError
from shared.games.common import check_seat


def _illegal(message):
    return RuleError("illegal_move", message)


def _not_your_turn(message):
    return RuleError("not_your_turn", message)


def _check_turn(state, seat):
    if state["phase"] != "turn" or seat != state["turn"]:
        raise _not_your_turn("it is not your turn to ask or to duel")


def _check_other_seat(state, seat, other, role):
    if not 0 <= other < state["players"]:
        raise _illegal(f"there is no seat {other}")
    if other == seat:
        raise _illegal(f"the {role} must be someone else")


def _open_card(hand, position, whose):
    """The open card at `position` of a hand that still has something to learn about it."""
    if not 0 <= position < len(hand):
        raise _illegal(f"{whose} hand has no card {position}")
    card = hand[position]
    if not card["open"]:
        raise _illegal(f"card {position} is a hidden card; clues are about open cards")
    if fully_known(card["told"]):
        raise _illegal(f"everything about card {position} is known already; no clue can add to it")
    return card


def _start(state):
    if state["phase"] != "waiting":
        raise _illegal("the game has already started")
    return [dealt_event(state), {"type": "turn_began", "turn": 0}]


def _ask(state, seat, command):
    _check_turn(state, seat)
    card = _open_card(state["hands"][seat], command["card"], "your")
    _check_other_seat(state, seat, command["informant"], "informant")
    claim = command.get("claim")
    if claim:
        if not is_claimable(claim):
            raise _illegal("a claim names water, fire or plant, or a power from 1 to 6")
        if not knows_nothing(card["told"]):
            raise _illegal("a claim may only be made about a card you have been told nothing of")
    return [
        {
            "type": "asked",
            "seat": seat,
            "card": command["card"],
            "informant": command["informant"],
            "claim": claim or None,
        }
    ]


def _clue_event(state, seat, target, position, dimension):
    spell = state["hands"][target][position]["spell"]
    clue = clue_about(spell, dimension)
    _, positions = tell(state["hands"][target], clue)
    return {
        "type": "informed",
        "seat": seat,
        "target": target,
        "card": position,
        "clue": clue,
        "cards": positions,
    }


def _inform(state, seat, command):
    question = state["question"]
    if state["phase"] != "answer" or seat != question["informant"]:
        raise _not_your_turn("only the informant asked may answer")
    asker, position, claim = question["asker"], question["card"], question["claim"]
    spell = state["hands"][asker][position]["spell"]
    dimension = command["dimension"]
    if dimension not in answer_dimensions(state):
        # Only the informant, who sees the card, ever reads this refusal.
        if claim and claim_holds(spell, claim) and dimension in claim:
            raise _illegal(f"the claim is correct, so the clue must not be about the {dimension}")
        raise _illegal(f"the asker already knows the {dimension} of that card")
    return [
        _clue_event(state, seat, asker, position, dimension),
        {"type": "turn_began", "turn": next_seat(state, asker)},
    ]


def _duel(state, seat, command):
    _check_turn(state, seat)
    rival = command["rival"]
    _check_other_seat(state, seat, rival, "rival")
    declared = {"type": "duel_declared", "seat": seat, "rival": rival, "kind": command["kind"]}
    clues = duel_clues(state, rival)
    if not clues:
        if "card" in command:
            raise _illegal("the rival knows all their open cards: leave out card and dimension")
        return [declared]
    if "card" not in command:
        raise _illegal("a duel starts with a clue to the rival: give card and dimension")
    position, dimension = command["card"], command["dimension"]
    _open_card(state["hands"][rival], position, "the rival's")
    if (position, dimension) not in clues:
        raise _illegal(f"the rival already knows the {dimension} of card {position}")
    return [declared, _clue_event(state, seat, rival, position, dimension)]


def _choose(state, seat, command):
    if state["phase"] != "duel" or seat not in choosing_seats(state):
        raise _not_your_turn("only a duelist who has not chosen yet may choose a card")
    hand = state["hands"][seat]
    position = command["card"]
    if not 0 <= position < len(hand):
        raise _illegal(f"your hand has no card {position}")
    chosen = {
        "type": "card_chosen",
        "seat": seat,
        "card": position,
        "spell": hand[position]["spell"],
    }
    if len(choosing_seats(state)) == 2:
        return [chosen]
    # evolve gives the referee its own copy, which the showdown folds its events into.
    return [chosen, *showdown(evolve(state, chosen))]


REFEREE = {"ask": _ask, "inform": _inform, "duel": _duel, "choose": _choose}


def decide(state, seat, command):
    """The events a command causes; RuleError when it is refused. Never mutates `state`.

    Seat None is the table: its only command is {"type": "start"} (shuffle and deal).
    """
    check_seat(seat, state["players"])
    kind = command_type(command)
    if seat is None:
        if kind not in TABLE_COMMANDS:
            raise _not_your_turn("the table only starts the game")
        return _start(state)
    if kind in TABLE_COMMANDS:
        raise _not_your_turn("only the table starts the game")
    return REFEREE[kind](state, seat, command)
