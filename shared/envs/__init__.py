"""Research environments: one PettingZoo AEC environment per game, over the pure rules.

    from shared.envs import alien
    env = alien.env(players=2)

Each agent observes what its seat gets from the API: the structured view (in its
infos) and a flat numeric encoding of it, with an action mask over the game's fixed
action encoding (shared/envs/actions.py). A policy written for an environment is a
bot level with `as_level` (shared/envs/policy.py). docs/bots.md has the details.
Needs the `envs` extra (pettingzoo).
"""

from shared.envs.table_env import TableEnv


def env(game, players=2, **kwargs):
    """The environment of `game` for `players` seats (kwargs: options, max_steps,
    render_mode)."""
    return TableEnv(game, players, **kwargs)
