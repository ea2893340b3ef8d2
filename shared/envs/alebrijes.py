"""The Alebrijes environment (shared/envs/table_env.py)."""

from shared.envs.table_env import TableEnv

GAME = "alebrijes"


def env(players=2, **kwargs):
    """Alebrijes for `players` seats, as a PettingZoo AEC environment."""
    return TableEnv(GAME, players, **kwargs)
