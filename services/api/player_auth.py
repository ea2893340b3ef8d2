"""Which player a bearer token names: a player token (shared/players/tokens.py) or a
JWT from a trusted issuer (shared/players/issuers.py).

The signature needs no Redis. Whether the token is still good (the player logged out
everywhere, or was erased) is the player's token generation, which this process reads
from Redis at most once per GENERATION_TTL seconds per player: so a revoked token
stops working on every API process within GENERATION_TTL seconds, and a busy player's
requests cost no round trip for it. An identity's player is remembered as long.
"""

import time

from services.api.errors import ApiError
from shared.players import issuers as jwt_issuers
from shared.players import tokens as player_tokens

GENERATION_TTL = 30.0  # seconds: the revocation bound (docs/design.md, "Players")
_MOST = 65_536  # players remembered per process; past this the memory starts over


class PlayerAuth:
    def __init__(self, players, secret, issuers, clock=time.monotonic):
        self.players = players  # shared.players.store.PlayerStore
        self.secret = secret
        self.issuers = issuers
        self.clock = clock
        self._generations = {}  # player id -> (generation or None, read at)
        self._identities = {}  # (issuer, subject) -> (player id, read at)

    @staticmethod
    def claims_player(token):
        """Whether a bearer token is a player's (a player token or a JWT) rather than a
        seat's."""
        return player_tokens.looks_like(token) or jwt_issuers.looks_like(token)

    def player_of(self, token, now_ms):
        """The id of the player `token` names; raises ApiError("unauthorized")."""
        if player_tokens.looks_like(token):
            held = player_tokens.verify(self.secret, token)
            if held is None:
                raise ApiError("unauthorized", "the token is not valid")
            player_id, generation = held
            if self.generation(player_id) != generation:
                raise ApiError("unauthorized", "the token was revoked (logged out or erased)")
            return player_id
        try:
            identity = jwt_issuers.verify(self.issuers, token)
        except jwt_issuers.BadToken as refused:
            raise ApiError("unauthorized", str(refused)) from None
        player_id = self.player_of_identity(identity, now_ms)
        if self.generation(player_id) in (None, -1):
            self.forget(player_id)
            raise ApiError("unauthorized", "the token's player was erased")
        return player_id

    def identity_of(self, token):
        """(issuer, subject) of a trusted JWT; raises ApiError("unauthorized")."""
        try:
            return jwt_issuers.verify(self.issuers, token)
        except jwt_issuers.BadToken as refused:
            raise ApiError("unauthorized", str(refused)) from None

    def player_of_identity(self, identity, now_ms):
        """The player an identity names, made (and linked) on first sight."""
        known = self._identities.get(identity)
        if known is not None and self.clock() - known[1] < GENERATION_TTL:
            return known[0]
        player_id = self.players.player_of_identity(*identity)
        if player_id is None:
            made = self.players.create_for_identity(identity, now_ms)
            player_id = made["id"]
        self._remember(self._identities, identity, player_id)
        return player_id

    def seat_known(self, token, game_id, service):
        """The seat a player token's player holds in `game_id`, when this process can
        tell with no Redis round trip (the fast paths): a genuine token whose
        generation it knows as current, and a cached table in which the player holds an
        accepted or claimed seat (one it keeps for good). None otherwise: auth.py
        answers, asking Redis what it must."""
        held = player_tokens.verify(self.secret, token)
        if held is None:
            return None
        known = self._generations.get(held[0])
        if known is None or known[0] != held[1] or self.clock() - known[1] >= GENERATION_TTL:
            return None
        cached = service.cached(game_id)
        if cached is None:
            return None
        current = cached[1]
        for seat, place in enumerate(current["seats"]):
            if place.get("player") == held[0] and not place.get("invited"):
                return seat
        return None

    def generation(self, player_id):
        """The player's generation as this process knows it (None: no such player, -1:
        erased), read again once GENERATION_TTL has passed."""
        known = self._generations.get(player_id)
        if known is not None and self.clock() - known[1] < GENERATION_TTL:
            return known[0]
        generation = self.players.generation(player_id)
        self._remember(self._generations, player_id, generation)
        return generation

    def forget(self, player_id):
        """Read this player's generation again next time (it just changed here)."""
        self._generations.pop(player_id, None)
        for identity, (known, _) in list(self._identities.items()):
            if known == player_id:
                del self._identities[identity]

    def _remember(self, memory, key, value):
        if len(memory) >= _MOST:
            memory.clear()
        memory[key] = (value, self.clock())


def build(deps):
    """The app's PlayerAuth, from its Deps (PLAYER_ISSUERS read once, at start)."""
    return PlayerAuth(
        deps.players, deps.service.secret, jwt_issuers.parse(deps.config.player_issuers)
    )
