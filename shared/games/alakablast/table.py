"""Questions about the table that both the referee (decide) and legal() ask."""

from shared.games.alakablast import knowledge
from shared.games.alakablast.knowledge import dimensions_that_add, fully_known


def next_seat(state, seat):
    """The seat clockwise after `seat`."""
    return (seat + 1) % state["players"]


def others_clockwise(state, seat):
    """Every other seat, starting with the next one clockwise."""
    players = state["players"]
    return [(seat + step) % players for step in range(1, players)]


def askable_cards(hand):
    """Positions of the open cards whose owner does not yet know everything about them."""
    return [i for i, card in enumerate(hand) if card["open"] and not fully_known(card["told"])]


def duel_clues(state, rival):
    """The (card, dimension) clues an attacker may give `rival`; [] when the clue is skipped."""
    hand = state["hands"][rival]
    return [
        (position, dimension)
        for position in askable_cards(hand)
        for dimension in dimensions_that_add(hand[position]["told"], hand[position]["spell"])
    ]


def answer_dimensions(state):
    """The dimensions the informant may answer in (a correct claim forbids its own)."""
    question = state["question"]
    card = state["hands"][question["asker"]][question["card"]]
    return knowledge.answer_dimensions(card["told"], card["spell"], question["claim"])


def duel_role(duel, seat):
    """ "attacker", "rival" or None: the part `seat` plays in the duel."""
    if seat == duel["attacker"]:
        return "attacker"
    if seat == duel["rival"]:
        return "rival"
    return None


def choosing_seats(state):
    """The duelists who have not yet chosen their card, in seat order."""
    duel = state["duel"]
    waiting = [duel[role] for role in ("attacker", "rival") if duel["chosen"][role] is None]
    return sorted(waiting)
