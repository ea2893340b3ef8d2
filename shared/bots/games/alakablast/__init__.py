"""Alakablast bot knowledge: what the seat knows of its own open cards (beliefs.py),
greedy play and the search's candidates (play.py; Alakablast has no reflexes), sampling
the unseen cards from the seat's view and feed (sampling.py), and a world's standing for
play-outs cut short (evaluation.py)."""

from shared.bots.games.alakablast.evaluation import HORIZON, evaluate
from shared.bots.games.alakablast.play import greedy, rank, reflex
from shared.bots.games.alakablast.sampling import sample

__all__ = ["HORIZON", "evaluate", "greedy", "rank", "reflex", "sample"]
