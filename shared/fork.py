"""Forking a finished game: a new game that starts from its table at some version.

The fork keeps the position (hands, table cards, scores: everything the rules' state
holds) and takes a fresh seed for what is still to be shuffled: the draw pile is
shuffled again with the fork's seed, and every later shuffle or seeded choice of the
rules draws on that seed too, since each game names its random streams after
`state["seed"]`. The original's log is public once it has finished, so a fork reveals
nothing new: its players can read every hand of the position from the original, but not
the order of the pile they will draw from. Pure, like the rules.
"""

import random

from shared.games.common import clone


def resumed(position, seed):
    """The rules' state a fork starts from: `position` (the original's state at the
    fork's version) with the fork's seed, no fixed deck, and the draw pile shuffled
    again with that seed."""
    state = clone(position)
    state["seed"] = seed
    if "deck" in state:
        state["deck"] = None  # a fixed deck was the original's; the fork deals by its seed
    if "custom_deck" in state:
        state["custom_deck"] = False
    random.Random(f"{seed}/fork").shuffle(state["draw_pile"])
    return state


def can_fork(position):
    """Whether the game was in play at that position (dealt and not over)."""
    return position is not None and isinstance(position.get("draw_pile"), list)
