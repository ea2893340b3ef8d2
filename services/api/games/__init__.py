"""Each registered game's typed API contract (services/api/games/contract.py), built the
same way for every game from the schemas its own package declares
(`<game package>.contract`, written with shared/games/schema.py).

CONTRACTS[game] holds the components a generated client codes against, all named after
the game; COMMAND_SCHEMAS[game][type] validates a command body; STATE_SCHEMAS[game] is
the `state` of its views.
"""

from services.api.games.contract import Contract
from services.api.games.options import table_options
from shared import games


def contract(name):
    """The typed contract of the registered game `name`, from its contract module."""
    own = games.part(name, "contract")
    if own is None:
        raise RuntimeError(f"game {name!r} has no contract module ({name}'s package.contract)")
    options = table_options(own.OPTIONS)
    return Contract(name, own.COMMANDS, own.STATE, own.EVENTS, options, own.EXAMPLE)


CONTRACTS = {name: contract(name) for name in games.NAMES}
COMMAND_SCHEMAS = {game: contract.commands for game, contract in CONTRACTS.items()}
STATE_SCHEMAS = {game: contract.state for game, contract in CONTRACTS.items()}
