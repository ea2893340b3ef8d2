"""The table's own events (the lifecycle), which share a game's stream with the rules'
events, and the names the other modules of the table agree on."""

CREATED, CLAIMED, STARTED, ENDED = "game_created", "seat_claimed", "game_started", "game_ended"
TIMED_OUT, TAKEN_OVER, RETURNED = "timed_out", "seat_taken_over", "seat_returned"
CANCELLED, COMMANDED, FIRED = "game_cancelled", "commanded", "timer_fired"
PAUSED = "webhook_paused"
EXPIRED = "game_expired"
ACCEPTED, DECLINED = "seat_accepted", "seat_declined"  # a player's invitation answered
REMATCH = "rematch_offered"  # a finished game's rematch: the new game's id
# The events the table folds itself; every other event is the rules'.
LIFECYCLE = frozenset(
    (CREATED, CLAIMED, STARTED, ENDED, TIMED_OUT, TAKEN_OVER, RETURNED)
    + (CANCELLED, COMMANDED, FIRED, PAUSED, EXPIRED, ACCEPTED, DECLINED, REMATCH)
)
# Lifecycle events that only record something: the table is as it was (a fold of a
# table it made passes over them).
RECORDS = frozenset((COMMANDED, FIRED, PAUSED))
# Why an abandoned game expired: waiting with no seat claimed, or active with nobody acting.
EXPIRY_REASONS = {"waiting": "no_players", "active": "idle"}
SECRET_OF_CREATED = ("seed", "seed_salt", "deck")  # revealed once the game has finished
TAKEOVER_BOT = "greedy"  # the level that plays a timed-out or resigned seat by default
LEGACY_TAKEOVER_BOT = "random"  # games logged before takeover_bot existed
REACTION_SECONDS = 1.5  # how long a bot takes to shout or stack, so a human can beat it
