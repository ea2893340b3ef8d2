"""A STAND-IN bot module for Alebrijes, for the tests of the generic bot code only.

It fulfils the per-game interface of shared/bots/games/<game>.py (greedy, reflex, sample)
in the plainest way, so the search, the levels, the worker and the tournament are tested
whether or not the real per-game modules are there. Tests install it in place of
`shared.bots.games.alebrijes` with `installed_standin` (the real module, when it exists,
is tested on its own parameter). It is never used outside tests.
"""

import sys
from contextlib import contextmanager

from shared.games.alebrijes import CARDS

GAME = "alebrijes"
MODULE = "shared.bots.games.alebrijes"


def greedy(view, feed, rng):
    """Shed as many cards as possible, lowest number first; exchange and lay aside
    nothing; pass when nothing can be played."""
    legal = view["legal"]
    plays = [c for c in legal if c["type"] == "play" and c["ollin"] in ("none", "draw")]
    if plays:
        return max(plays, key=lambda c: (len(c["cards"]), -int(c["cards"][0][1])))
    quiet = [c for c in legal if c.get("cards") == [] or c.get("exchange") == []]
    return quiet[0] if quiet else legal[0]


def reflex(view, feed, rng):
    """Alebrijes has no out-of-turn commands."""
    return None


def sample(view, feed, rng):
    """A rules state the seat cannot tell from the real one: the cards it has not seen
    this round (others' hands and laid-aside cards, the draw pile) dealt at random."""
    seen, seat = view["state"], view["seat"]
    unseen = list(CARDS)
    for card in [*seen["hand"], *seen["laid_aside"], *_played_this_round(feed)]:
        unseen.remove(card)
    rng.shuffle(unseen)

    def deal(count):
        dealt = unseen[:count]
        del unseen[:count]
        return dealt

    players = seen["players"]
    hands = [
        list(seen["hand"]) if s == seat else deal(seen["hand_sizes"][s]) for s in range(players)
    ]
    laid_aside = [
        list(seen["laid_aside"]) if s == seat else deal(seen["laid_aside_counts"][s])
        for s in range(players)
    ]
    return {
        "players": players,
        "seed": f"sampled-{rng.random()}",  # later rounds are dealt from a made-up seed
        "deck": None,
        "options": dict(seen["options"]),
        "phase": seen["phase"],
        "round": seen["round"],
        "starting_seat": seen["starting_seat"],
        "turn": seen["turn"],
        "leader": seen["starting_seat"] if seen["leader"] is None else seen["leader"],
        "hands": hands,
        "draw_pile": deal(seen["draw_pile_size"]),
        "laid_aside": laid_aside,
        "played": list(_played_this_round(feed)),
        "table": seen["table"],
        "passed": list(seen["passed"]),
        "round_winner": seen["round_winner"],
        "round_scores": [list(s) for s in seen["round_scores"]],
        "totals": list(seen["totals"]),
        "rounds_won": list(seen["rounds_won"]),
    }


def _played_this_round(feed):
    played = []
    for event in feed:
        if event["type"] == "dealt":
            played = []
        elif event["type"] == "played":
            played += event["cards"]
    return played


@contextmanager
def installed_standin():
    """`shared.bots.games.alebrijes` is this stand-in while the block runs."""
    saved = sys.modules.get(MODULE)
    sys.modules[MODULE] = sys.modules[__name__]
    try:
        yield sys.modules[__name__]
    finally:
        if saved is None:
            sys.modules.pop(MODULE, None)
        else:
            sys.modules[MODULE] = saved
