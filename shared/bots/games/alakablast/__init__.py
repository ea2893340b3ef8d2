"""Alakablast bot knowledge: what the seat knows of its own open cards (beliefs.py),
greedy play (play.py; Alakablast has no reflexes), and sampling the unseen cards from the
seat's view and feed (sampling.py)."""

from shared.bots.games.alakablast.play import greedy, rank, reflex
from shared.bots.games.alakablast.sampling import sample

__all__ = ["greedy", "rank", "reflex", "sample"]
