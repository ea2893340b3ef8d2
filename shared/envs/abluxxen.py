"""The Abluxxen environment (shared/envs/table_env.py)."""

from shared.envs.table_env import TableEnv

GAME = "abluxxen"


def env(players=2, **kwargs):
    """Abluxxen for `players` seats, as a PettingZoo AEC environment."""
    return TableEnv(GAME, players, **kwargs)
