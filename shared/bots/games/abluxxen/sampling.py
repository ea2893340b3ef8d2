"""Abluxxen sampling: a full rules state the seat cannot tell from the true one.

`sample` deals the cards the seat has not seen (the others' hands, the draw pile, and
without a feed the covered rows, scoring piles and discard pile) at random; the feed
tells which cards lie under each top row, in each pile, and which cards others took
into their hands (rows taken back or kept, display cards drawn) and still hold.
"""

from collections import Counter

from shared.games.abluxxen.facts import CARDS, sorted_cards


class _Seen:
    """What the feed showed of the cards: under the top rows, in the piles, in hands."""

    def __init__(self, players):
        self.top = [None] * players
        self.covered = [[] for _ in range(players)]
        self.scoring = [[] for _ in range(players)]
        self.discard = []
        self.held = [Counter() for _ in range(players)]  # cards known to be in a hand

    def follow(self, event):
        kind = event.get("type")
        if kind == "played":
            seat, row = event["seat"], event["cards"]
            if self.top[seat]:
                self.covered[seat] += self.top[seat]
            self.top[seat] = list(row)
            self.held[seat] -= Counter(row)  # the known copies it may have played
        elif kind in ("taken_back", "given_up", "discarded"):
            seat, row = event["seat"], self.top[event["seat"]] or []
            self.top[seat] = None
            if kind == "taken_back":
                self.held[seat] += Counter(row)
            elif kind == "given_up":
                self.scoring[event["to"]] += row
            else:
                self.discard += row
        elif kind == "kept":
            row = self.top[event["target"]] or []
            self.top[event["target"]] = None
            self.held[event["seat"]] += Counter(row)
        elif kind == "drew":
            self.held[event["seat"]] += Counter(event["display"])


def seen_in_feed(feed, players):
    """The feed's cards (see _Seen), or None without a feed."""
    if not feed:
        return None
    seen = _Seen(players)
    for event in feed:
        seen.follow(event)
    return seen


def _held(seen, known, seat):
    """The cards known to be in `seat`'s hand: all of them once the game is over (the
    view shows every hand), else those the feed showed it take (`known`, None: none)."""
    if seen["hands"] is not None:
        return Counter(seen["hands"][seat])
    return Counter() if known is None else known.held[seat]


def _deal_unseen(view, known, rng):
    """A full state matching the seat's view, or None when `known` (a _Seen, or None)
    does not fit it."""
    seen, seat = view["state"], view["seat"]
    seats = seen["seats"]
    players = len(seats)
    hand = list(seen["hand"])
    pool = Counter(CARDS)
    pool.subtract(Counter(hand) + Counter(seen["display"]))
    for entry in seats:
        pool.subtract(Counter(entry["top_row"] or []))
    if known is not None:
        if [entry["top_row"] for entry in seats] != known.top:
            return None
        for entry in seats:
            other = entry["seat"]
            if len(known.covered[other]) != entry["covered_count"]:
                return None
            if len(known.scoring[other]) != entry["scoring_pile_count"]:
                return None
            pool.subtract(Counter(known.covered[other]) + Counter(known.scoring[other]))
        if len(known.discard) != seen["discard_pile_count"]:
            return None
        pool.subtract(Counter(known.discard))
    held = [_held(seen, known, entry["seat"]) for entry in seats]
    for entry in seats:
        other = entry["seat"]
        if other != seat:
            if sum(held[other].values()) > entry["hand_count"]:
                return None
            pool.subtract(held[other])
    if min(pool.values()) < 0:
        return None
    unseen = sorted(pool.elements())
    rng.shuffle(unseen)

    def deal(count):
        nonlocal unseen
        cards, unseen = unseen[:count], unseen[count:]
        return cards

    hands, covered, scoring = [], [], []
    for entry in seats:
        other = entry["seat"]
        if other == seat:
            hands.append(hand)
        else:
            cards = list(held[other].elements())
            hands.append(sorted_cards(cards + deal(entry["hand_count"] - len(cards))))
        if known is None:
            covered.append(deal(entry["covered_count"]))
            scoring.append(deal(entry["scoring_pile_count"]))
        else:
            covered.append(list(known.covered[other]))
            scoring.append(list(known.scoring[other]))
    discard = deal(seen["discard_pile_count"]) if known is None else list(known.discard)
    pile = deal(seen["draw_pile_count"])
    if unseen:
        return None
    attack, draw = seen["attack"], seen["draw"]
    return {
        "players": players,
        "seed": f"sample/{rng.getrandbits(64):016x}",
        "deck": None,
        "options": {"published": seen["published"]},
        "shuffles": 1,
        "phase": seen["phase"],
        "turn": seen["turn"],
        "hands": hands,
        "top_rows": [None if e["top_row"] is None else list(e["top_row"]) for e in seats],
        "covered": covered,
        "scoring_piles": scoring,
        "display": list(seen["display"]),
        "draw_pile": pile,
        "discard_pile": discard,
        "attack": None
        if attack is None
        else {**attack, "row": list(attack["row"]), "targets": list(attack["targets"])},
        "draw": None if draw is None else dict(draw),
        "result": None
        if seen["result"] is None
        else {
            "winners": list(seen["result"]["winners"]),
            "scores": list(seen["result"]["scores"]),
            "reason": seen["result"]["reason"],
        },
    }


def sample(view, feed, rng):
    """A full Abluxxen state this seat cannot tell from the true one.

    The cards the seat has not seen are dealt at random: into the others' hands (beside
    the cards the feed showed them take and not play since), the draw pile, and, without
    a feed, under the top rows and into the scoring and discard piles.
    """
    players = len(view["state"]["seats"])
    state = _deal_unseen(view, seen_in_feed(feed, players), rng)
    if state is None:  # a feed that does not fit the view: trust the view alone
        state = _deal_unseen(view, None, rng)
    if state is None:
        raise ValueError("the view's card counts do not add up to the deck")
    return state
