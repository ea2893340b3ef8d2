"""The Alien environment (shared/envs/table_env.py)."""

from shared.envs.table_env import TableEnv

GAME = "alien"


def env(players=2, **kwargs):
    """Alien for `players` seats, as a PettingZoo AEC environment."""
    return TableEnv(GAME, players, **kwargs)
