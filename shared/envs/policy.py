"""A policy written for the environments, as a bot level the server can seat.

A policy is `policy(observation, rng) -> action`: `observation` is what the
environment's `observe` returns ({"observation", "action_mask"}), `rng` a seeded
random.Random, the action a number of the game's encoding (shared/envs/actions.py).
Since an observation is a function of the seat's view alone (observations.observation_of),
the level computes it from the view the worker (or `tablestream bot run`) gives it:

    # mybot.py
    from shared.envs.policy import as_level
    LEVEL = as_level(my_policy, games=["alien"])

    # pyproject.toml
    [project.entry-points."tablestream.bots"]
    mybot = "mybot:LEVEL"
"""

from shared import games as rules
from shared.bots.registry import Level
from shared.envs.actions import WAIT, actions
from shared.envs.observations import Encoder, observation_of


def as_level(policy, games=None, description="", **budgets):
    """A Level playing `policy` (or {game: policy}) in `games` (default: every game, or
    the dict's); `budgets`: min_ms, default_ms, max_ms. An action the mask does not
    allow is an illegal answer (the registry replaces it by the takeover level's)."""
    encoder = Encoder()
    policies = policy if isinstance(policy, dict) else dict.fromkeys(games or rules.NAMES, policy)

    def decide(view, rng):
        observation, legal = observation_of(view, encoder, actions(view["game"]))
        action = int(policies[view["game"]](observation, rng))
        return None if action == WAIT else legal.get(action, {"type": f"action {action}"})

    def play(view, feed, rng, think_ms):
        return decide(view, rng)

    def react(view, feed, rng):
        return decide(view, rng)

    names = list(games or policies)
    return Level(
        plays=dict.fromkeys(names, play),
        reacts=dict.fromkeys(names, react),
        description=description or f"the policy {getattr(policy, '__name__', policy)!r}",
        **budgets,
    )
