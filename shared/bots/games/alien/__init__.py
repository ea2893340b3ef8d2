"""Alien bot knowledge: greedy play and the CAPTURED! reflex (play.py), sampling the
unseen cards from the seat's view and feed (sampling.py), and how a world stands for a
seat when its next turn begins (standing.py: the search's `evaluate` and `cut`)."""

from shared.bots.games.alien.play import greedy, reflex
from shared.bots.games.alien.sampling import sample
from shared.bots.games.alien.standing import HORIZON, cut, evaluate

# The search (ismcts) replaces greedy's choice only by a command that beat it by
# CONFIDENCE standard errors over the worlds both were played in: Alien's play-outs are
# luck-heavy (the draw pile's order, blind takes), and a smaller margin let noise
# replace greedy's choice and measured weaker (docs/bots.md).
CONFIDENCE = 2.0
# ...and by MIN_GAIN at least: read by `evaluate` after one round, a candidate's gain
# under 0.05 of a win was as often a loss in whole games played from the true deal
# (docs/bots.md), the larger ones were real.
MIN_GAIN = 0.05

__all__ = ["CONFIDENCE", "HORIZON", "MIN_GAIN", "cut", "evaluate", "greedy", "reflex", "sample"]
