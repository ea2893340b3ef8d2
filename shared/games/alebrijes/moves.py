"""legal and timeout: the commands a seat may send now, and the one sent for it on time-out."""

from ..common import check_seat
from .cards import COLOURS, colour, is_joker, number, remove_cards, sort_key, sorted_cards
from .combinations import ollin_effects, possible_plays
from .rules import to_act


def exchanges(hand, draw_pile_size):
    """Each distinct multiset of 0 to 2 hand cards that may be exchanged, smallest first.

    No more cards than the draw pile holds: with an empty pile only the empty exchange.
    """
    distinct = sorted_cards(set(hand))
    options = [[]]
    if draw_pile_size >= 1:
        options += [[card] for card in distinct]
    if draw_pile_size >= 2:
        for i, first in enumerate(distinct):
            for second in distinct[i:]:
                if second != first or hand.count(first) >= 2:
                    options.append([first, second])
    return options


def _play_commands(hand, cards, named):
    """Every command for one play: each open Ollin effect, and for lay_aside each card."""
    command = {"type": "play", "cards": cards}
    if named is not None:
        command["colour"] = named
    hand_after = remove_cards(hand, cards)
    commands = []
    for effect in ollin_effects(cards, hand_after):
        if effect == "lay_aside":
            for card in sorted_cards(set(hand_after)):
                commands.append({**command, "ollin": effect, "lay_aside": card})
        else:
            commands.append({**command, "ollin": effect})
    return commands


def _play_order(play):
    """Sort plays by count, number, colour, then their cards (jokers-only sets last)."""
    cards, named = play
    colour_ = named or colour(cards[0])
    cards_order = [sort_key(card) for card in cards]
    return (len(cards), number(cards[0]), COLOURS.index(colour_), named is not None, cards_order)


def legal(state, seat):
    """Every command `seat` may send now, each as it can be sent; [] when not to act.

    Plays come first (by count, number, colour), then passes with each exchange.
    """
    check_seat(seat, state["players"])
    if seat not in to_act(state):
        return []
    hand, pile = state["hands"][seat], len(state["draw_pile"])
    if state["phase"] == "exchange":
        return [{"type": "exchange", "cards": cards} for cards in exchanges(hand, pile)]
    plays = sorted(possible_plays(hand, state["table"]), key=_play_order)
    commands = [command for cards, named in plays for command in _play_commands(hand, cards, named)]
    if state["table"] is not None:
        commands += [{"type": "pass", "exchange": cards} for cards in exchanges(hand, pile)]
    return commands


def timeout(state, seat):
    """The command sent for a seat that runs out of time (None when it is not to act).

    Exchange nothing; facing a combination, pass without exchange; leading, play the
    lowest single card (lowest number, then colour order, jokers naming blue), no Ollin.
    """
    if isinstance(seat, bool) or seat not in to_act(state):
        return None
    if state["phase"] == "exchange":
        return {"type": "exchange", "cards": []}
    if state["table"] is not None:
        return {"type": "pass", "exchange": []}
    lowest = min(state["hands"][seat], key=lambda card: (number(card), sort_key(card)))
    command = {"type": "play", "cards": [lowest], "ollin": "none"}
    if is_joker(lowest):
        command["colour"] = "B"
    return command
