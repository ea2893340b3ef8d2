"""Each game's API schemas: its commands (by type), the `state` of its views, its events,
and the typed contract built from them (services/api/games/contract.py).

COMMAND_SCHEMAS[game][type] validates a command body; CONTRACTS[game] holds the
components a generated client codes against, all named after the game.
"""

from services.api.games import abluxxen, alakablast, alebrijes, alien

CONTRACTS = {
    "alebrijes": alebrijes.CONTRACT,
    "alien": alien.CONTRACT,
    "alakablast": alakablast.CONTRACT,
    "abluxxen": abluxxen.CONTRACT,
}
COMMAND_SCHEMAS = {game: contract.commands for game, contract in CONTRACTS.items()}
STATE_SCHEMAS = {
    "alebrijes": alebrijes.AlebrijesState,
    "alien": alien.AlienState,
    "alakablast": alakablast.AlakablastState,
    "abluxxen": abluxxen.AbluxxenState,
}
