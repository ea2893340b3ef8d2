"""Each game's API schemas: its commands (by type) and the `state` of its views.

COMMAND_SCHEMAS[game][type] validates a command body; STATE_SCHEMAS[game] documents
the game's view state. Both are in openapi.yaml as components named after the game.
"""

from services.api.games import abluxxen, alakablast, alebrijes, alien

COMMAND_SCHEMAS = {
    "alebrijes": alebrijes.COMMANDS,
    "alien": alien.COMMANDS,
    "alakablast": alakablast.COMMANDS,
    "abluxxen": abluxxen.COMMANDS,
}
STATE_SCHEMAS = {
    "alebrijes": alebrijes.AlebrijesState,
    "alien": alien.AlienState,
    "alakablast": alakablast.AlakablastState,
    "abluxxen": abluxxen.AbluxxenState,
}
