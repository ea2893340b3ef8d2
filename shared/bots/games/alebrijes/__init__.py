"""Alebrijes bot knowledge: greedy play, shedding what costs most (play.py; no reflexes),
and sampling the unseen cards from the seat's view and feed (sampling.py)."""

from shared.bots.games.alebrijes.evaluation import HORIZON, evaluate
from shared.bots.games.alebrijes.play import greedy, rank, reflex
from shared.bots.games.alebrijes.sampling import sample

__all__ = ["HORIZON", "evaluate", "greedy", "rank", "reflex", "sample"]
