"""What a game waits for once its read models are written: its bots' turns and
reactions, the seats' turn timers and the table's own timers (put on the RQ queues by a
scheduler, shared/schedule.py), and its webhooks (services/webhooks/notifier.py).

Waking a game twice is harmless: each job's id says what it is for, and every job
checks the game again when it runs.
"""

from shared import table
from shared.schedule import Nothing


class Waits:
    """Tells a `scheduler` and a webhooks `notifier` (or None) what each game now waits
    for."""

    def __init__(self, scheduler=None, notifier=None):
        self.scheduler = scheduler or Nothing()
        self.notifier = notifier

    def queue_hooks(self, pipe, known):
        """Queue the reads of the games' active webhooks on `pipe` (with their tails);
        returns what turns those answers into {game_id: hooks}, or None."""
        return self.notifier.queue_hooks(pipe, known) if self.notifier else None

    def tell_webhooks(self, game_id, was, tail, hooks):
        """Send the game's active webhooks (`hooks`) their notifications of `tail`'s
        records, before they are saved; `was`: the table before them."""
        if self.notifier is not None and hooks:
            self.notifier.notify(game_id, was, tail.records(), hooks)

    def wake(self, game_id, current, version, at_ms, before=None):
        """Schedule what the game now waits for: bot turns (now), bot reactions (after
        the bot's delay, once per new chance since `before`), the seats' turn timers and
        the table's own timers."""
        if current["status"] != "active":
            return
        acting = table.to_act(current)
        deadlines = table.deadlines(current)
        for seat, place in enumerate(current["seats"]):
            if place["bot"]:
                self._wake_bot(game_id, current, version, at_ms, before, seat)
            if deadlines[seat] is not None and seat in acting:
                self.scheduler.turn_timer(game_id, seat, version, deadlines[seat])
        for timer in table.table_timers(current):
            self.scheduler.table_timer(game_id, timer["key"], timer["deadline"])

    def _wake_bot(self, game_id, current, version, at_ms, before, seat):
        turn, quick = table.bot_chances(current, seat)
        if turn:
            self.scheduler.bot_turn(game_id, seat, version)
        if quick and (before is None or quick != table.bot_chances(before, seat)[1]):
            delay = table.reaction_seconds(current["seats"][seat])
            self.scheduler.bot_reaction(game_id, seat, version, at_ms + int(delay * 1000))
