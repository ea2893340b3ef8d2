"""Redis key names, in one place.

Every key of one game carries the hash tag `{<game_id>}`, so on a Redis Cluster the
stream, views and checkpoint of a game live on one slot and one Lua script may touch
them together. Keys that span games (feed, lobby, live) are touched by separate
commands, never in the same script or command as a game's keys.

A prefix (KEY_PREFIX) lets several deployments, or tests, share one Redis.
"""

from dataclasses import dataclass

GROUP = "projectors"  # the feed's consumer group: every projector reads in it


@dataclass(frozen=True)
class Keys:
    prefix: str = ""

    def _game(self, game_id, name):
        return f"{self.prefix}g:{{{game_id}}}:{name}"

    def events(self, game_id):
        return self._game(game_id, "events")

    def checkpoint(self, game_id):
        """The version the read models of this game were built from, and the table then."""
        return self._game(game_id, "checkpoint")

    def view(self, game_id, seat):
        """A seat's view; seat None is the spectator's."""
        return self._game(game_id, "view:spectator" if seat is None else f"view:{seat}")

    def summary(self, game_id):
        return self._game(game_id, "summary")

    def webhooks(self, game_id):
        """Hash of the game's webhook subscriptions: subscriber ("game", "seat-<n>") ->
        {url, events, secret} as JSON."""
        return self._game(game_id, "webhooks")

    def webhook_health(self, game_id):
        """Hash of each subscriber's dead letters in a row ("failures:<subscriber>") and
        whether it is paused ("paused:<subscriber>")."""
        return self._game(game_id, "webhook-health")

    def webhook_claim(self, game_id, subscriber, event_id):
        """Which delivery owns one notification to one subscriber, then "delivered"."""
        return self._game(game_id, f"webhook-claim:{subscriber}:{event_id}")

    def events_pattern(self):
        return f"{self.prefix}g:{{*}}:events"

    def game_id_of(self, events_key):
        key = events_key.decode() if isinstance(events_key, bytes) else events_key
        return key[len(self.prefix) + 3 : key.index("}")]

    def feed(self, partition):
        """A partition of the feed that wakes the projectors. All partitions share the
        hash tag {feed}, so one XREADGROUP can follow them all on a Redis Cluster."""
        return f"{self.prefix}{{feed}}:{partition}"

    def _player(self, player_id, name):
        return f"{self.prefix}p:{{{player_id}}}:{name}"

    def player_events(self, player_id):
        """A player's stream: its facts (shared/players/events.py)."""
        return self._player(player_id, "events")

    def player(self, player_id):
        """The fold of a player's stream, with its version (JSON)."""
        return self._player(player_id, "player")

    def player_generation(self, player_id):
        """A player's token generation (-1 once erased): what a token check reads."""
        return self._player(player_id, "generation")

    def player_games(self, player_id):
        """Hash of the player's games: game id -> its inbox entry (JSON), built by the
        projector (services/projector/players.py)."""
        return self._player(player_id, "games")

    def player_inbox(self, player_id):
        """Stream of the player's inbox items (your_turn, invited, ...), each entry id
        `<inbox version>-0`."""
        return self._player(player_id, "inbox")

    def player_webhook(self, player_id):
        """The player's webhook subscription {url, events, secret} (JSON)."""
        return self._player(player_id, "webhook")

    def player_webhook_health(self, player_id):
        """Hash of the player's webhook's health: failures (dead letters in a row),
        paused."""
        return self._player(player_id, "webhook-health")

    def player_webhook_claim(self, player_id, event_id):
        """One notification's delivery to the player's webhook, claimed (its nonce) or
        done (webhooks.jobs)."""
        return self._player(player_id, f"webhook-claim:{event_id}")

    def player_channel(self, player_id):
        """Pub/sub channel: "<inbox version>" each time the player's inbox changes."""
        return f"{self.prefix}player-inbox:{player_id}"

    @property
    def player_channels(self):
        """The pattern of every player's channel (an API process listens to them all)."""
        return f"{self.prefix}player-inbox:*"

    def player_events_pattern(self):
        return f"{self.prefix}p:{{*}}:events"

    def player_id_of(self, events_key):
        key = events_key.decode() if isinstance(events_key, bytes) else events_key
        return key[len(self.prefix) + 3 : key.index("}")]

    def identity(self, digest):
        """The player an app's identity (issuer and subject, digested) names."""
        return f"{self.prefix}identity:{{{digest}}}"

    def _ratings(self, game, name):
        # One hash tag a game: a cluster spreads the games' boards over its nodes.
        return f"{self.prefix}r:{{{game}}}:{name}"

    def rating_outcomes(self, game):
        """The rated games of `game` ended so far: game id -> outcome (JSON), the
        ratings' input (shared/ratings)."""
        return self._ratings(game, "outcomes")

    def rating_last(self, game):
        """The last outcome folded into `game`'s ratings: "<ended_at> <game id>"."""
        return self._ratings(game, "last")

    def rating_variants(self, game):
        """The set of `game`'s variants with ratings."""
        return self._ratings(game, "variants")

    def ratings(self, game, variant):
        """Every player's rating of one game and variant: player id -> JSON."""
        return self._ratings(game, f"ratings:{variant}")

    def leaderboard(self, game, variant):
        """The leaderboard of one game and variant: a sorted set of player ids by
        displayed rating."""
        return self._ratings(game, f"board:{variant}")

    def rating_history(self, game, player_id):
        """A player's rated games of `game`, oldest first (a list of JSON entries)."""
        return self._ratings(game, f"history:{player_id}")

    def _queue(self, queue_id, name):
        # One hash tag a matchmaking queue: its stream, tickets and claims in one slot,
        # so one script claims a group of its tickets on a Redis Cluster too.
        return f"{self.prefix}m:{{{queue_id}}}:{name}"

    def queue_events(self, queue_id):
        """A matchmaking queue's stream: its tickets' lives (shared/matchmaking/tickets.py)."""
        return self._queue(queue_id, "events")

    def queue(self, queue_id):
        """The queue's description: game, options, rated, turn_seconds (JSON)."""
        return self._queue(queue_id, "queue")

    def queue_tickets(self, queue_id):
        """Hash: ticket id -> the ticket (JSON), every ticket of the queue."""
        return self._queue(queue_id, "tickets")

    def queue_waiting(self, queue_id):
        """Sorted set of the queue's waiting tickets, by when they were opened (ms)."""
        return self._queue(queue_id, "waiting")

    def queue_holders(self, queue_id):
        """Hash: player id -> its waiting ticket in this queue (one a player)."""
        return self._queue(queue_id, "holders")

    def queue_unopened(self, queue_id):
        """Hash: game id -> the match whose game is not yet open (a matchmaker opens
        it just after the claim; another does if that one died in between)."""
        return self._queue(queue_id, "unopened")

    @property
    def queues(self):
        """Set of every matchmaking queue's id (the matchmakers' round)."""
        return f"{self.prefix}matchmaking-queues"

    def player_tickets(self, player_id):
        """Hash: the player's tickets, ticket id -> the queue id, while they may be
        waiting (at most MAX_OPEN); a ticket over is dropped from it."""
        return self._player(player_id, "tickets")

    def player_ticket_history(self, player_id):
        """Sorted set of every ticket the player opened, by when (ms), the newest kept."""
        return self._player(player_id, "ticket-history")

    @property
    def lobby(self):
        """Sorted set of games waiting for players, scored by creation time."""
        return f"{self.prefix}lobby"

    def lobby_of(self, game):
        """The lobby of one game (alien, ...): its waiting games, scored the same."""
        return f"{self.prefix}lobby:{game}"

    @property
    def live(self):
        """Sorted set of the games not yet over, each scored by when the projectors'
        sweep next looks at it (ms since the epoch)."""
        return f"{self.prefix}live-by-due"

    @property
    def changes(self):
        """Pub/sub channel: "<game_id> <version>" once a game's read models are current."""
        return f"{self.prefix}changes"

    def idempotency(self, digest):
        """The first answer to a request sent with an Idempotency-Key (digest of the key
        and its scope)."""
        return f"{self.prefix}idem:{digest}"

    def imported(self, digest):
        """The id of the game an uploaded log was stored as (digest of the log), so the
        same log uploaded again answers that game."""
        return f"{self.prefix}imported:{digest}"

    def upload_quota(self, address, day):
        """Bytes of uploaded logs stored from one client address on one day (UTC)."""
        return f"{self.prefix}upload-quota:{day}:{address}"

    @property
    def webhook_dead_letters(self):
        """List of webhook deliveries that gave up, newest first, for an operator."""
        return f"{self.prefix}webhook-dead-letters"

    @property
    def secret(self):
        return f"{self.prefix}token-secret"

    @property
    def projectors(self):
        """Sorted set: each projector's last heartbeat (ms), for readiness checks."""
        return f"{self.prefix}projectors"
