"""Alien bot knowledge: greedy play and the CAPTURED! reflex (play.py), and sampling the
unseen cards from the seat's view and feed (sampling.py)."""

from shared.bots.games.alien.play import greedy, reflex
from shared.bots.games.alien.sampling import sample

# The search (ismcts) replaces greedy's choice only by a command that beat it by
# CONFIDENCE standard errors over the worlds both were played in: Alien's play-outs are
# luck-heavy (the draw pile's order, blind takes), and a smaller margin let noise
# replace greedy's choice and measured weaker (docs/bots.md).
CONFIDENCE = 2.0

__all__ = ["CONFIDENCE", "greedy", "reflex", "sample"]
