"""decide: a command in, the events it causes out (or a RuleError saying why not)."""

from ..base import RuleError
from ..common import check_seat
from .cards import remove_cards, sorted_cards
from .combinations import beating_error, combination, ollin_effects
from .commands import parse_command
from .events import evolve, evolve_in_place
from .rounds import dealt_event, next_deal, round_ended_event


def _illegal(message):
    return RuleError("illegal_move", message)


def to_act(state):
    """The seats that must act now: the one whose turn it is, none between games."""
    return [state["turn"]] if state["phase"] in ("exchange", "play") else []


def decide(state, seat, command):
    """The events `command` from `seat` causes; raises RuleError when it is refused.

    Seat None is the table itself, whose only command is {"type": "start"}.
    """
    check_seat(seat, state["players"])
    command = parse_command(command)
    if seat is None:
        if command["type"] != "start":
            raise RuleError("bad_command", "the table itself only sends start")
        if state["phase"] != "waiting":
            raise _illegal("the game has already started")
        return [dealt_event(state, 1, 0)]
    if command["type"] == "start":
        raise RuleError("bad_command", "start is the table's own command")
    if state["phase"] == "waiting":
        raise _illegal("the game has not started")
    if state["phase"] == "over":
        raise _illegal("the game is over")
    if seat not in to_act(state):
        raise RuleError("not_your_turn", "it is not your turn")
    if command["type"] == "exchange":
        return _exchange(state, seat, command["cards"])
    if command["type"] == "pass":
        return _pass(state, seat, command["exchange"])
    return _play(state, seat, command)


def _check_exchange(state, seat, cards):
    """Up to 2 cards from the hand, and no more than the draw pile can replace."""
    if len(cards) > 2:
        raise _illegal("exchange at most 2 cards")
    if len(cards) > len(state["draw_pile"]):
        if not state["draw_pile"]:
            raise _illegal("the draw pile is empty: no cards can be exchanged")
        raise _illegal(f"the draw pile holds only {len(state['draw_pile'])} card(s)")
    if remove_cards(state["hands"][seat], cards) is None:
        raise _illegal("you can only exchange cards from your hand")


def _exchange_event(kind, state, seat, cards):
    """An "exchanged" or "passed" event: cards laid aside and as many drawn from the top."""
    return {
        "type": kind,
        "seat": seat,
        "count": len(cards),
        "laid_aside": sorted_cards(cards),
        "drawn": state["draw_pile"][: len(cards)],
    }


def _exchange(state, seat, cards):
    """The round-start exchange of the seat whose turn it is."""
    if state["phase"] != "exchange":
        raise _illegal("exchanges happen at the start of a round; during play, pass to exchange")
    _check_exchange(state, seat, cards)
    return [_exchange_event("exchanged", state, seat, cards)]


def _pass(state, seat, cards):
    """A pass with its optional exchange; it may end the trick."""
    if state["phase"] != "play":
        raise _illegal("first exchange: play has not begun")
    if state["table"] is None:
        raise _illegal("the leader must play; only a player facing a combination may pass")
    _check_exchange(state, seat, cards)
    passed = _exchange_event("passed", state, seat, cards)
    return [passed, *_trick_end(evolve(state, passed), seat)]


def _play(state, seat, command):
    """A single card or a set, its Ollin effect, then the end of the trick or of the round."""
    if state["phase"] != "play":
        raise _illegal("exchange first: play has not begun")
    cards, ollin, lay_aside = sorted_cards(command["cards"]), command["ollin"], command["lay_aside"]
    play = combination(cards, command["colour"])
    hand_after = remove_cards(state["hands"][seat], cards)
    if hand_after is None:
        raise _illegal("you do not hold these cards")
    error = beating_error(state["table"], play)
    if error:
        raise _illegal(error)
    _check_ollin(cards, hand_after, ollin, lay_aside)
    played = {"type": "played", "seat": seat, "cards": cards, **play, "ollin": ollin}
    events, state = [played], evolve(state, played)
    if state["hands"][seat] and ollin != "none":
        effect = _ollin_event(state, seat, ollin, lay_aside)
        # `state` is already this decide's own copy: fold the effect into it
        events, state = events + [effect], evolve_in_place(state, effect)
    if not state["hands"][seat]:  # the round ends the moment a hand is empty
        return events + _round_end(state, seat)
    return events + _trick_end(state, seat)


def _check_ollin(cards, hand_after, ollin, lay_aside):
    """The chosen Ollin effect must be open to this play, and lay_aside come with it."""
    if ollin not in ollin_effects(cards, hand_after):
        if not hand_after:
            raise _illegal("this play empties your hand: the round ends before any Ollin effect")
        if len(cards) > 2:
            raise _illegal("three or more cards have no Ollin effect")
        raise _illegal(f"Ollin effect {ollin} is not open to this play")
    if ollin == "lay_aside" and lay_aside is None:
        raise _illegal("name the card to lay aside")
    if ollin != "lay_aside" and lay_aside is not None:
        raise _illegal('lay_aside goes only with ollin "lay_aside"')
    if lay_aside is not None and lay_aside not in hand_after:
        raise _illegal("lay aside a card you still hold after the play")


def _ollin_event(state, seat, ollin, lay_aside):
    """The Ollin effect: all others draw one card in turn order while the pile lasts,
    or the player lays aside one of their cards."""
    if ollin == "lay_aside":
        return {"type": "laid_aside", "seat": seat, "card": lay_aside}
    players = state["players"]
    others = [(seat + step) % players for step in range(1, players)]
    # zip stops where the draw pile runs out: the remaining players draw nothing
    draws = [
        {"seat": other, "card": card}
        for other, card in zip(others, state["draw_pile"], strict=False)
    ]
    return {"type": "ollin_draws", "seat": seat, "draws": draws}


def _trick_end(state, seat):
    """A "table_cleared" event when the trick is over after `seat` acted, else nothing.

    Normally the trick is over when all but one player have passed: that player leads
    anew. In the one-turn variant it is over when everyone has acted once: whoever
    played last leads the next lap (the leader always plays, so someone did).
    """
    if state["options"]["one_turn"]:
        if (seat + 1) % state["players"] != state["leader"]:
            return []
        return [{"type": "table_cleared", "leader": state["table"]["seat"], "reason": "lap_over"}]
    active = [other for other, passed in enumerate(state["passed"]) if not passed]
    if len(active) != 1:
        return []
    return [{"type": "table_cleared", "leader": active[0], "reason": "all_passed"}]


def _round_end(state, winner):
    """Score the round, then deal the next one; after the last round the game is over
    (the service adds its own game_ended event with result())."""
    ended = round_ended_event(state, winner)
    deal = next_deal(evolve(state, ended))
    return [ended] if deal is None else [ended, deal]
