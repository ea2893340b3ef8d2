"""A player's turn: PLAY (lay CLUE cards, capture by matching, use bounty hunters, take
an alien after emptying the hand) then end the turn and draw, or PASS and draw."""

from ..base import RuleError
from .chronicle import Chronicle
from .facts import (
    HAND_SIZE,
    HUNTER_TYPES,
    PROTECTED_ALIEN,
    TAKE_MIN_HAND,
    alien_of,
    aliens_on,
    captured_card,
    is_captured,
    is_clue,
    shares_alien,
)


def _illegal(message):
    return RuleError("illegal_move", message)


def act(state, seat, command):
    """The events of one turn command from `seat`, or RuleError."""
    if state["window"] is not None:
        raise RuleError("not_your_turn", "play is suspended until every player has stacked")
    if seat != state["turn"]:
        raise RuleError("not_your_turn", f"it is seat {state['turn']}'s turn")
    chronicle = Chronicle(state)
    _ACTIONS[command["type"]](chronicle, seat, command)
    return chronicle.events


def turn_commands(state, seat):
    """Every turn command `seat` may send now (it is their turn, no window is open)."""
    hand, table = state["hands"][seat], state["table"]
    others = [target for target in range(state["players"]) if target != seat]
    takeable = _takeable_aliens(state, others)
    commands = [{"type": "play", "card": c} for c in sorted(set(hand)) if can_lay(c, table)]
    commands += [{"type": "capture", "card": c} for c in sorted(hand) if can_match(c, table)]
    for hunter in (kind for kind in HUNTER_TYPES if kind in hand):
        if hunter == "H1":
            commands += [_hunt(hunter, t) for t in others if state["hands"][t]]
        else:
            commands += [_hunt(hunter, t, a) for t, a in takeable]
    if may_take(state, seat):
        commands += [{"type": "take", "target": t, "alien": a} for t, a in takeable]
    commands.append({"type": "end_turn"} if state["acted"] else {"type": "pass"})
    return commands


def _hunt(card, target, alien=None):
    command = {"type": "hunt", "card": card, "target": target}
    return command if alien is None else {**command, "alien": alien}


def can_lay(card, table):
    """A CLUE card may be laid on a table card that shows one of its aliens."""
    return is_clue(card) and shares_alien(card, table)


def can_match(card, table):
    """A CAPTURED card captures its alien when the table card shows that alien."""
    return is_captured(card) and alien_of(card) in aliens_on(table)


def may_take(state, seat):
    """The empty-hand take: hand empty now, the turn begun with 4 or more cards, not
    used yet this turn."""
    return not state["took"] and state["began_with"] >= TAKE_MIN_HAND and not state["hands"][seat]


def _takeable_aliens(state, targets):
    """(seat, alien) for every alien that may leave those prisons: all but alien 0."""
    return [
        (target, alien_of(card))
        for target in targets
        for card in sorted(state["prisons"][target])
        if alien_of(card) != PROTECTED_ALIEN
    ]


def _holding(state, seat, card):
    if card not in state["hands"][seat]:
        raise _illegal(f"you do not hold {card}")


def _check_takeable(state, seat, target, alien):
    if target == seat:
        raise _illegal("choose another player's prison")
    if alien == PROTECTED_ALIEN:
        raise _illegal("alien 0, once captured, can never be taken from a prison")
    if captured_card(alien) not in state["prisons"][target]:
        raise _illegal(f"alien {alien} is not in seat {target}'s prison")


def _play(chronicle, seat, command):
    state, card = chronicle.state, command["card"]
    _holding(state, seat, card)
    if not can_lay(card, state["table"]):
        raise _illegal(f"{card} shares no alien with the table card {state['table']}")
    chronicle.add({"type": "played", "seat": seat, "card": card})


def _capture(chronicle, seat, command):
    state, card = chronicle.state, command["card"]
    _holding(state, seat, card)
    if not can_match(card, state["table"]):
        raise _illegal(f"the table card {state['table']} does not show alien {alien_of(card)}")
    chronicle.add({"type": "captured", "seat": seat, "card": card})


def _use_hunter(chronicle, seat, command):
    state, card, target = chronicle.state, command["card"], command["target"]
    _holding(state, seat, card)
    event = {"type": "hunted", "seat": seat, "card": card, "target": target}
    if card == "H1":
        if target == seat:
            raise _illegal("choose another player's hand")
        if not state["hands"][target]:
            raise _illegal(f"seat {target} has no cards in hand")
        taken = chronicle.random_card(target, "hunt")
        chronicle.add({**event, "alien": None, "taken": taken})
        return
    _check_takeable(state, seat, target, command["alien"])
    chronicle.add({**event, "alien": command["alien"], "taken": None})


def _take(chronicle, seat, command):
    state = chronicle.state
    if state["took"]:
        raise _illegal("you already took an alien this turn")
    if state["hands"][seat]:
        raise _illegal("you may take an alien only once your hand is empty")
    if state["began_with"] < TAKE_MIN_HAND:
        raise _illegal(f"your turn began with {state['began_with']} cards; taking needs 4 or more")
    _check_takeable(state, seat, command["target"], command["alien"])
    target, alien = command["target"], command["alien"]
    chronicle.add({"type": "took_alien", "seat": seat, "target": target, "alien": alien})


def _end_turn(chronicle, seat, command):
    if not chronicle.state["acted"]:
        raise _illegal("you have played nothing this turn: pass instead")
    chronicle.add({"type": "ended_turn", "seat": seat})
    chronicle.draw_up_to_hand_size(seat)
    _next_turn(chronicle)


def _pass(chronicle, seat, command):
    if chronicle.state["acted"]:
        raise _illegal("you chose PLAY this turn: end_turn instead")
    chronicle.add({"type": "passed", "seat": seat})
    if len(chronicle.state["hands"][seat]) < HAND_SIZE:
        chronicle.draw_up_to_hand_size(seat)
    else:
        chronicle.draw(seat, 1)
    _next_turn(chronicle)


def _next_turn(chronicle):
    """The turn passes to the player on the left: the next seat clockwise."""
    state = chronicle.state
    chronicle.add({"type": "turn_began", "seat": (state["turn"] + 1) % state["players"]})


_ACTIONS = {
    "play": _play,
    "capture": _capture,
    "hunt": _use_hunter,
    "take": _take,
    "end_turn": _end_turn,
    "pass": _pass,
}
