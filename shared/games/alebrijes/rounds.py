"""The round's frame: the deal, who starts a later round, the round's end, the winners."""

import random

from .cards import CARDS, hand_size, minus_points, sorted_cards


def dealt_event(state, round_, starting_seat):
    """The "dealt" event of a round: full hands and the draw pile, top first.

    Round 1 follows the fixed deck when there is one: seat 0's whole hand first, then
    seat 1's, and so on; the rest is the draw pile. Otherwise the 80 cards are shuffled
    by a generator seeded from the game's seed and the round number only.
    """
    if round_ == 1 and state["deck"] is not None:
        deck = list(state["deck"])
    else:
        deck = list(CARDS)
        random.Random(f"{state['seed']}/round/{round_}").shuffle(deck)
    players, size = state["players"], hand_size(state["players"])
    return {
        "type": "dealt",
        "round": round_,
        "starting_seat": starting_seat,
        "hands": [deck[seat * size : (seat + 1) * size] for seat in range(players)],
        "hand_sizes": [size] * players,
        "draw_pile": deck[players * size :],
        "draw_pile_size": len(deck) - players * size,
    }


def next_starting_seat(totals, round_winner):
    """Who starts a later round: the most minus points (lowest total).

    On a tie, the tied player who comes first clockwise after the last round's winner
    (the winner themselves last).
    """
    players = len(totals)
    lowest = min(totals)
    for step in range(1, players + 1):
        seat = (round_winner + step) % players
        if totals[seat] == lowest:
            return seat
    raise AssertionError("some seat has the lowest total")


def round_ended_event(state, winner):
    """The "round_ended" event: hands revealed and scored (negative: -7 is 7 minus points)."""
    scores = [-minus_points(hand) for hand in state["hands"]]
    rounds_won = list(state["rounds_won"])
    rounds_won[winner] += 1
    return {
        "type": "round_ended",
        "round": state["round"],
        "winner": winner,
        "hands": [sorted_cards(hand) for hand in state["hands"]],
        "scores": scores,
        "totals": [total + score for total, score in zip(state["totals"], scores, strict=True)],
        "rounds_won": rounds_won,
        "game_over": state["round"] >= state["options"]["rounds"],
    }


def winners(totals, rounds_won):
    """Fewest minus points win; a tie goes to most rounds won, then the victory is shared."""
    best = max(totals)
    tied = [seat for seat, total in enumerate(totals) if total == best]
    most = max(rounds_won[seat] for seat in tied)
    return [seat for seat in tied if rounds_won[seat] == most]


def standings(state):
    """The game's result from its scores so far (see result())."""
    return {
        "winners": winners(state["totals"], state["rounds_won"]),
        "scores": list(state["totals"]),
        "rounds_won": list(state["rounds_won"]),
        "round_scores": [list(scores) for scores in state["round_scores"]],
    }


def next_deal(state):
    """The deal that follows a finished round, or None after the last round."""
    if state["phase"] == "over":
        return None
    starting = next_starting_seat(state["totals"], state["round_winner"])
    return dealt_event(state, state["round"] + 1, starting)
