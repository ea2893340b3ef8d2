"""Alien bot knowledge: greedy play and the CAPTURED! reflex (play.py), and sampling the
unseen cards from the seat's view and feed (sampling.py)."""

from shared.bots.games.alien.play import greedy, reflex
from shared.bots.games.alien.sampling import sample

__all__ = ["greedy", "reflex", "sample"]
