"""Every position of seeded in-process games, as each acting seat saw it (its view
and its own redacted feed), for the bot tests of every game. Not a test module."""

import random

from shared import table

MAX_STEPS = 400  # a bound on each game's length in the position generator


def seat_view(tbl, version, seat):
    return table.view(tbl, version, seat)


def seat_feed(tbl, log, seat):
    """The seat's events as the events endpoint gives them while the game runs."""
    feeds = getattr(log, "feeds", None)
    if feeds is not None:  # built as the game went (see positions)
        return feeds[seat]
    return [
        {**table.redact(tbl, event, seat), "version": i + 1, "at": 0} for i, event in enumerate(log)
    ]


class Log(list):
    """A game's events, with each seat's feed built as they were appended."""

    def __init__(self, tbl, events):
        super().__init__()
        self.feeds = [[] for _ in tbl["seats"]]
        self.grow(tbl, events)

    def grow(self, tbl, events):
        for event in events:
            self.append(event)
            for seat, feed in enumerate(self.feeds):
                feed.append({**table.redact(tbl, event, seat), "version": len(self), "at": 0})


def positions(game, players, seed, policy, max_steps=MAX_STEPS, options=None):
    """Yield (table, log) after every step of one seeded game in which each acting seat
    sends `policy(view, rng)`; in Alien a window is now and then closed by the table's
    timer instead, and seats holding a right claim shout it first. The log carries each
    seat's feed (see seat_feed); the caller must not keep a log past the next step."""
    rng = random.Random(f"{game}/{players}/{seed}")
    seats = [{"name": f"p{i}"} for i in range(players)]
    events = table.create("g1", game, seats, options or {}, f"seed-{seed}")
    tbl = table.fold(events)
    log = Log(tbl, events)
    for _ in range(max_steps):
        if tbl["status"] != "active":
            return
        yield tbl, log
        events = _step(tbl, log, policy, rng)
        tbl = table.fold(events, tbl)
        log.grow(tbl, events)


def _step(tbl, log, policy, rng):
    timers = table.rules_timers(tbl)
    if timers and rng.random() < 0.2:
        return table.fire(tbl, timers[0]["key"])
    version = len(log)
    shouts = [
        s for s in range(len(tbl["seats"])) if any(c["type"] == "claim" for c in _legal(tbl, s))
    ]
    if shouts and rng.random() < 0.5:
        seat = rng.choice(shouts)
        claim = next(c for c in _legal(tbl, seat) if c["type"] == "claim")
        return table.play(tbl, seat, claim)
    seat = rng.choice(table.to_act(tbl))
    return table.play(tbl, seat, policy(seat_view(tbl, version, seat), rng))


def _legal(tbl, seat):
    return table.rules_of(tbl).legal(tbl["rules"], seat)
