"""Questions about the table: who may be attacked, what a draw may take, whether the
game is over and the score. Pure reads of a state; nothing here changes it."""

from itertools import combinations

from .facts import row_value, sort_key, sorted_cards


def published(state):
    """True when the game plays the published rules instead of the rulebook's."""
    return state["options"]["published"]


def clockwise_after(state, seat):
    """The other seats in clockwise order, starting with the one after `seat`."""
    players = state["players"]
    return [(seat + step) % players for step in range(1, players)]


def may_attack(state, row, target_row):
    """True when `row` may abluxx `target_row`: as many cards, and a value equal or lower
    (rulebook) or strictly lower (published)."""
    if target_row is None or len(target_row) != len(row):
        return False
    if published(state):
        return row_value(target_row) < row_value(row)
    return row_value(target_row) <= row_value(row)


def attack_targets(state, seat, row):
    """The opponents whose top row `row`, played by `seat`, may attack; clockwise."""
    return [
        target
        for target in clockwise_after(state, seat)
        if may_attack(state, row, state["top_rows"][target])
    ]


def supply(state, source):
    """How many cards a draw from `source` ("pile", "display_first" or "any") could reach."""
    if source == "pile":
        return len(state["draw_pile"])
    return len(state["display"]) + len(state["draw_pile"])


def display_bounds(state):
    """(fewest, most) display cards the pending draw may take.

    "pile": none. "display_first" (rulebook, end of turn): the display first, so as many
    as it holds up to the count. "any" (published): any mix, as long as the draw pile
    can give the rest.
    """
    draw, display, pile = state["draw"], state["display"], len(state["draw_pile"])
    most = min(draw["count"], len(display))
    if draw["source"] == "pile":
        return 0, 0
    if draw["source"] == "display_first":
        return most, most
    reachable = min(draw["count"], len(display) + pile)
    return max(0, reachable - pile), most


def draw_choices(state):
    """Every distinct set of display cards the pending draw may take: fewest first, then
    lowest cards first. Each is a list in hand order."""
    fewest, most = display_bounds(state)
    display = sorted_cards(state["display"])
    choices = []
    for size in range(fewest, most + 1):
        picks = sorted(set(combinations(display, size)), key=lambda c: [sort_key(x) for x in c])
        choices += [list(pick) for pick in picks]
    return choices


def end_reason(state):
    """Why the game ends now, or None while it goes on.

    Rulebook: the draw pile is empty and a player has no cards in hand ("hand_empty").
    Published: a player has no cards in hand ("hand_empty"), or display and draw pile
    are both empty ("supply_empty").
    """
    hand_empty = any(not hand for hand in state["hands"])
    if published(state):
        if hand_empty:
            return "hand_empty"
        if not state["display"] and not state["draw_pile"]:
            return "supply_empty"
        return None
    if hand_empty and not state["draw_pile"]:
        return "hand_empty"
    return None


def front(state, seat):
    """The cards lying in front of `seat`: the covered rows and the top row."""
    return state["covered"][seat] + (state["top_rows"][seat] or [])


def scores(state):
    """Points per seat: +1 for every card in front and in the scoring pile, -1 for every
    card in hand."""
    return [
        len(front(state, seat)) + len(state["scoring_piles"][seat]) - len(state["hands"][seat])
        for seat in range(state["players"])
    ]


def winners(points):
    """The seats with the most points; a tie shares the victory."""
    best = max(points)
    return [seat for seat, score in enumerate(points) if score == best]
