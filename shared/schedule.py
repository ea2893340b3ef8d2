"""Putting work on the RQ queue: bot turns, bot reactions and timers.

Each job's id is derived from what it is for (game, seat, version or timer key), and
every job re-checks the game when it runs, so scheduling the same thing twice, or a
job that comes too late, is harmless.

A bot turn is not enqueued while a bot chain holds the game's lease
(services/worker/chain.py): the chain plays that turn itself, or hands it on. The bot
turns of a game where every seat is a bot go on `background`, after the bots of games
people play: however many such games anyone opens, they share the workers that serve
`background` and take no time from a person waiting for a bot.
"""

from datetime import UTC, datetime

# The jobs, by dotted path: the worker's processes import them, the scheduler does not
# (the projector and the worker both schedule; neither imports the other).
JOBS = "services.worker.jobs"
PLAY_BOT_TURN = f"{JOBS}.play_bot_turn"
PLAY_BOT_REACTION = f"{JOBS}.play_bot_reaction"
FIRE_TURN_TIMER = f"{JOBS}.fire_turn_timer"
FIRE_TABLE_TIMER = f"{JOBS}.fire_table_timer"
EXPIRE_GAME = f"{JOBS}.expire_game"

KEEP_RESULT = 60  # seconds
KEEP_FAILURE = 24 * 3600


class Scheduler:
    """Bot turns and reactions go on `queue`; turn and table timers on `timers`, so a
    worker serving timers is never busy thinking for a bot when one is due."""

    def __init__(self, queue, timers=None, background=None):
        self.queue = queue
        self.timers = timers if timers is not None else queue
        self.background = background if background is not None else queue

    def bot_turn(self, game_id, seat, version):
        """The bot in `seat` moves now, unless a bot chain is playing the game."""
        if self.queue.connection.exists(self.chain_lease(game_id)):
            return
        self._now(PLAY_BOT_TURN, f"bot-{game_id}-{seat}-{version}", game_id, seat, version)

    def continue_bots(self, game_id, seat, version, lease, background=False):
        """A bot chain hands on: the bot in `seat` moves next, in a job that takes over
        the chain's `lease` (its token); on `background` for a game of bots only."""
        if background:
            job_id = f"background-{game_id}-{seat}-{version}"
            args = (game_id, seat, version, lease, True)
            self._now(PLAY_BOT_TURN, job_id, *args, queue=self.background)
            return
        job_id = f"bot-{game_id}-{seat}-{version}"
        self._now(PLAY_BOT_TURN, job_id, game_id, seat, version, lease)

    def chain_lease(self, game_id):
        """The key a bot chain holds while it plays `game_id` (on the queue's Redis)."""
        return f"{self.queue.name}:chain:{game_id}"

    def bot_reaction(self, game_id, seat, version, at_ms):
        """The bot in `seat` reacts (claims, stacks...) at `at_ms`, after its delay."""
        job_id = f"react-{game_id}-{seat}-{version}"
        self._at(at_ms, PLAY_BOT_REACTION, job_id, game_id, seat)

    def turn_timer(self, game_id, seat, version, at_ms):
        """The seat's time to act at `version` runs out at `at_ms`."""
        job_id = f"timer-{game_id}-{seat}-{version}"
        self._at(at_ms, FIRE_TURN_TIMER, job_id, game_id, seat, version, queue=self.timers)

    def table_timer(self, game_id, key, at_ms):
        """The table's own timer `key` (e.g. a stacking window) runs out at `at_ms`."""
        job_id = f"table-{game_id}-{key}"
        self._at(at_ms, FIRE_TABLE_TIMER, job_id, game_id, key, queue=self.timers)

    def expire_game(self, game_id, version, reason):
        """Call off an abandoned game, unless it moves before the job runs."""
        self._now(EXPIRE_GAME, f"expire-{game_id}-{version}", game_id, version, reason)

    def _now(self, function, job_id, *args, queue=None):
        (queue or self.queue).enqueue(
            function, *args, job_id=job_id, result_ttl=KEEP_RESULT, failure_ttl=KEEP_FAILURE
        )

    def _at(self, at_ms, function, job_id, *args, queue=None):
        when = datetime.fromtimestamp(at_ms / 1000, tz=UTC)
        (queue or self.queue).enqueue_at(
            when, function, *args, job_id=job_id, result_ttl=KEEP_RESULT, failure_ttl=KEEP_FAILURE
        )


class Nothing:
    """A scheduler that schedules nothing (a projector that only rebuilds)."""

    def bot_turn(self, game_id, seat, version):
        pass

    def bot_reaction(self, game_id, seat, version, at_ms):
        pass

    def turn_timer(self, game_id, seat, version, at_ms):
        pass

    def table_timer(self, game_id, key, at_ms):
        pass

    def expire_game(self, game_id, version, reason):
        pass
