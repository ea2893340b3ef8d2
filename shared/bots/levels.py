"""The built-in levels, registered as entry points of the tablestream distribution
(pyproject.toml, group `tablestream.bots`) exactly as a plugin registers its own.

- `random`: any legal command (it reads nothing but view["legal"]);
- `greedy`: the game's rule-based heuristic (`shared.bots.games.<game>.greedy`);
- `ismcts`: information-set Monte Carlo search (`shared.bots.ismcts`) within the budget.

A game's bot module (its own `<package>.bot`, or `shared.bots.games.<game>`) is imported
on the first decision that needs it; `greedy` and `ismcts` play the games that have one,
`random` every game.
"""

import functools
from importlib import import_module
from importlib.util import find_spec

from shared import games as rules
from shared.bots import ismcts, random_bot
from shared.bots.registry import Level


@functools.cache  # asked at every decision; a search of the path is not free
def _bot_module_name(game):
    """The dotted name of the game's bot module, or None when it has none."""
    own = f"{rules.packages()[game]}.bot"
    for name in (own, f"shared.bots.games.{game}"):
        if find_spec(name) is not None:
            return name
    return None


def game_module(game):
    """The game's bot module (greedy, reflex, sample): its package's `bot`, else
    `shared.bots.games.<game>`."""
    return import_module(_bot_module_name(rules.get(game).NAME))


def _random_play(view, feed, rng, think_ms):
    return random_bot.choose(view, rng)


def _random_react(view, feed, rng):
    return random_bot.react(view, getattr(rules.get(view["game"]), "REFLEXES", ()), rng)


def _greedy_play(view, feed, rng, think_ms):
    return game_module(view["game"]).greedy(view, feed, rng)


def _greedy_react(view, feed, rng):
    return game_module(view["game"]).reflex(view, feed, rng)


def _search(view, feed, rng, think_ms):
    return ismcts.search(view, feed, rng, think_ms=think_ms)


def _every_game(play):
    return dict.fromkeys(rules.NAMES, play)


def _games_with_bots(play):
    return dict.fromkeys([game for game in rules.NAMES if _bot_module_name(game)], play)


RANDOM = Level(
    plays=_every_game(_random_play),
    reacts=_every_game(_random_react),
    reads_feed=False,
    description="any legal command, uniformly",
)
GREEDY = Level(
    plays=_games_with_bots(_greedy_play),
    reacts=_games_with_bots(_greedy_react),
    description="the game's rule-based heuristic",
)
# The search does not think about reflexes: it reacts as greedy does.
ISMCTS = Level(
    plays=_games_with_bots(_search),
    reacts=_games_with_bots(_greedy_react),
    description="information-set Monte Carlo search within think_ms",
)
