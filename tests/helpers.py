"""Small builders the tests share."""

import random

from shared import table
from shared.games import alebrijes


def legal_choices(current):
    """Every (seat, command) the seats to act may send now: what a random player picks
    from."""
    return [
        (seat, command)
        for seat in table.to_act(current)
        for command in table.view(current, 0, seat)["legal"]
    ]


def humans(*names):
    return [{"name": n} for n in names]


def alebrijes_deck_for(hands, rest=None):
    """A complete deck whose first cards deal `hands` (seat 0's first) and whose draw
    pile starts with `rest`; the other cards follow in a fixed order."""
    wanted = [c for hand in hands for c in hand] + list(rest or [])
    remaining = list(alebrijes.CARDS)
    for card in wanted:
        remaining.remove(card)
    return wanted + remaining


class RecordingScheduler:
    """A projector's scheduler that only notes what it was asked to schedule."""

    def __init__(self):
        self.bot_turns, self.reactions, self.turn_timers, self.table_timers = [], [], [], []
        self.expiries = []

    def bot_turn(self, game_id, seat, version):
        self.bot_turns.append((game_id, seat, version))

    def bot_reaction(self, game_id, seat, version, at_ms):
        self.reactions.append((game_id, seat, version, at_ms))

    def turn_timer(self, game_id, seat, version, at_ms):
        self.turn_timers.append((game_id, seat, version, at_ms))

    def table_timer(self, game_id, key, at_ms):
        self.table_timers.append((game_id, key, at_ms))

    def expire_game(self, game_id, version, reason):
        self.expiries.append((game_id, version, reason))


def finished_log(game, options, seats=3, seed="fair", snapshots=None):
    """A whole game of seeded random legal moves, as the events endpoint returns it.
    `snapshots`, when given, receives the table after each command, by version."""
    events = table.create(
        "g1",
        game,
        [{"name": f"p{i}"} for i in range(seats)],
        {"seed": seed, **options},
        seed,
        "salt",
    )
    current = table.fold((e, 1000 + v) for v, e in enumerate(events, start=1))
    rng = random.Random(seed)
    for _ in range(5000):
        if current["status"] == "finished":
            break
        seat = table.to_act(current)[0]
        command = rng.choice(table.rules_of(current).legal(current["rules"], seat))
        batch = table.play(current, seat, command)
        first = len(events) + 1
        current = table.fold(((e, 1000 + v) for v, e in enumerate(batch, start=first)), current)
        events += batch
        if snapshots is not None:
            snapshots[len(events)] = current
    assert current["status"] == "finished"
    return [{**e, "version": v, "at": 1000 + v} for v, e in enumerate(events, start=1)]
