"""A player's facts as events in the player's own stream, decided and folded purely.

- player_created {id, name, guest}: a guest made with POST /v1/players, or a player
  made on first sight of an identity (then followed by player_linked).
- player_renamed {name}
- player_linked {issuer, subject}: an app's identity (a JWT's iss and sub) names this
  player from now on.
- player_logged_out: every token issued so far stops working (the generation rises).
- player_webhook_registered {url, events, secret}: the player's webhook, for every
  item of its inbox (replacing the one before); player_webhook_removed: none now.
  Neither changes the fold: the registration is a read model of its own (`webhook`),
  kept apart so the secret never rides along with the name the views read.
- player_erased {id, created, generation}: the player is deleted. The stream is
  replaced by this one tombstone (store.erase), so its name and identities are gone
  from Redis, not only from the fold; the games it played keep its id, which now shows
  as names.PLACEHOLDER.

Names live only here, never in a game's events: a game's seat names the player's id,
and every read model resolves the name from this fold, so erasing a player never
rewrites a game's log (see docs/design.md, "Players").
"""

from shared.games.base import RuleError

CREATED, RENAMED, LINKED = "player_created", "player_renamed", "player_linked"
LOGGED_OUT, ERASED = "player_logged_out", "player_erased"
WEBHOOK_REGISTERED, WEBHOOK_REMOVED = "player_webhook_registered", "player_webhook_removed"


def create(player_id, name, identity=None):
    """The events that make a player: a guest, or one named by `identity` (issuer,
    subject)."""
    events = [{"type": CREATED, "id": player_id, "name": name, "guest": identity is None}]
    if identity is not None:
        events.append({"type": LINKED, "issuer": identity[0], "subject": identity[1]})
    return events


def rename(player, name):
    _check_alive(player)
    return [] if player["name"] == name else [{"type": RENAMED, "name": name}]


def link(player, identity):
    """Link the player to an app's identity (issuer, subject)."""
    _check_alive(player)
    issuer, subject = identity
    if {"issuer": issuer, "subject": subject} in player["identities"]:
        return []
    return [{"type": LINKED, "issuer": issuer, "subject": subject}]


def log_out(player):
    _check_alive(player)
    return [{"type": LOGGED_OUT}]


def register_webhook(player, url, events, secret):
    """Register (or replace) the player's webhook: one for every game it is seated in."""
    _check_alive(player)
    return [{"type": WEBHOOK_REGISTERED, "url": url, "events": list(events), "secret": secret}]


def remove_webhook(player):
    _check_alive(player)
    return [{"type": WEBHOOK_REMOVED}]


def erase(player):
    """The tombstone that replaces the player's whole stream (store.erase): it holds
    what is not personal (the id, when it was made, the token generation after)."""
    _check_alive(player)
    generation = player["generation"] + 1
    return [
        {"type": ERASED, "id": player["id"], "created": player["created"], "generation": generation}
    ]


def _check_alive(player):
    if player is None or player["erased"]:
        raise RuleError("unknown_player", "no such player")


def evolve(player, event, at=None):
    """Fold one event (with its append time, ms) into the player; the input is not
    changed."""
    kind = event["type"]
    if kind == CREATED:
        return {
            "id": event["id"],
            "name": event["name"],
            "guest": event["guest"],
            "identities": [],
            "generation": 0,
            "erased": False,
            "created": at,
        }
    if kind == RENAMED:
        return {**player, "name": event["name"]}
    if kind == LINKED:
        identity = {"issuer": event["issuer"], "subject": event["subject"]}
        return {**player, "guest": False, "identities": [*player["identities"], identity]}
    if kind == LOGGED_OUT:
        return {**player, "generation": player["generation"] + 1}
    if kind in (WEBHOOK_REGISTERED, WEBHOOK_REMOVED):  # a read model of its own: `webhook`
        return player
    if kind == ERASED:  # all it was is gone: the fold is the tombstone's alone
        return {
            "id": event["id"],
            "name": None,
            "guest": False,
            "identities": [],
            "generation": event["generation"],
            "erased": True,
            "created": event["created"],
        }
    raise ValueError(f"not a player event: {kind!r}")


def fold(items, player=None):
    """Fold (event, at) pairs onto a player (None: from nothing)."""
    for event, at in items:
        player = evolve(player, event, at)
    return player


def webhook(registration, event):
    """Fold one event into the player's webhook registration ({url, events, secret} or
    None): what the read model `keys.player_webhook` holds."""
    kind = event["type"]
    if kind == WEBHOOK_REGISTERED:
        return {"url": event["url"], "events": event["events"], "secret": event["secret"]}
    if kind in (WEBHOOK_REMOVED, ERASED):
        return None
    return registration


def webhook_of(items, registration=None):
    """The webhook registration after (event, at) pairs."""
    for event, _ in items:
        registration = webhook(registration, event)
    return registration
