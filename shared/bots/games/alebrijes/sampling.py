"""Alebrijes sampling: a full rules state the seat cannot tell from the true one.

`sample` deals the cards this seat has not seen (the others' hands and laid-aside
cards, the draw pile, and without a feed the cards played earlier in the round) at
random; the feed tells which cards were played this round.
"""

from collections import Counter

from shared.games.alebrijes.cards import CARDS


def played_this_round(feed):
    """The cards played since the last deal, from the feed; None without a feed."""
    played = []
    for event in reversed(feed):  # back to the round's deal only
        kind = event.get("type")
        if kind == "dealt":
            return played
        if kind == "played":
            played += event["cards"]
    return None  # no deal in the feed: it tells nothing


def _deal_unseen(seen, seat, played, rng):
    """A full state matching `seen` (the seat's view), or None when `played` (the cards
    played this round, None: unknown) does not fit it."""
    hand, laid = list(seen["hand"]), list(seen["laid_aside"])
    table = seen["table"]["cards"] if seen["table"] is not None else []
    players = seen["players"]
    in_sight = sum(seen["hand_sizes"]) + sum(seen["laid_aside_counts"]) + seen["draw_pile_size"]
    played_count = len(CARDS) - in_sight
    known_played = table if played is None else played
    pool = Counter(CARDS)
    pool.subtract(Counter(hand) + Counter(laid) + Counter(known_played))
    if min(pool.values()) < 0 or len(known_played) > played_count:
        return None
    if played is not None and len(played) != played_count:
        return None
    unseen = sorted(pool.elements())
    rng.shuffle(unseen)
    hands, laid_aside = [], []
    for other in range(players):
        if other == seat:
            hands.append(hand)
            laid_aside.append(laid)
            continue
        size, aside = seen["hand_sizes"][other], seen["laid_aside_counts"][other]
        hands.append(unseen[:size])
        laid_aside.append(unseen[size : size + aside])
        unseen = unseen[size + aside :]
    pile = unseen[: seen["draw_pile_size"]]
    rest = unseen[seen["draw_pile_size"] :]
    phase = seen["phase"]
    leader = seen["leader"] if phase == "play" else seen["starting_seat"]
    return {
        "players": players,
        "seed": f"sample/{rng.getrandbits(64):016x}",  # later rounds' deals are unknown too
        "deck": None,
        "options": dict(seen["options"]),
        "phase": phase,
        "round": seen["round"],
        "starting_seat": seen["starting_seat"],
        "turn": seen["turn"],
        "leader": leader,
        "hands": hands,
        "draw_pile": pile,
        "laid_aside": laid_aside,
        "played": list(known_played) + rest,
        "table": None if seen["table"] is None else dict(seen["table"], cards=list(table)),
        "passed": list(seen["passed"]),
        "round_winner": seen["round_winner"],
        "round_scores": [list(scores) for scores in seen["round_scores"]],
        "totals": list(seen["totals"]),
        "rounds_won": list(seen["rounds_won"]),
    }


def sample(view, feed, rng):
    """A full Alebrijes state this seat cannot tell from the true one.

    The others' hands and laid-aside cards and the draw pile are dealt at random from the
    cards the seat has not seen: not in its hand, not laid aside by it, not played this
    round (from the feed; without one, only the table's cards are known to be played and
    the rest of what was played is drawn at random too). The seed is drawn anew, so later
    rounds' deals are unknown as well.
    """
    seen, seat = view["state"], view["seat"]
    state = _deal_unseen(seen, seat, played_this_round(feed), rng)
    if state is None:  # a feed that does not fit the view: trust the view alone
        state = _deal_unseen(seen, seat, None, rng)
    if state is None:
        raise ValueError("the view's card counts do not add up to the deck")
    return state
