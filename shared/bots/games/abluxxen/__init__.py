"""Abluxxen bot knowledge: greedy play under both rule sets (play.py; no reflexes), and
sampling the unseen cards from the seat's view and feed (sampling.py)."""

from shared.bots.games.abluxxen.evaluation import HORIZON, evaluate
from shared.bots.games.abluxxen.play import greedy, rank, reflex
from shared.bots.games.abluxxen.sampling import sample

__all__ = ["HORIZON", "evaluate", "greedy", "rank", "reflex", "sample"]
