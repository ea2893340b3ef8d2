"""The Alakablast environment (shared/envs/table_env.py)."""

from shared.envs.table_env import TableEnv

GAME = "alakablast"


def env(players=2, **kwargs):
    """Alakablast for `players` seats, as a PettingZoo AEC environment."""
    return TableEnv(GAME, players, **kwargs)
