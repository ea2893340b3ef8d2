"""A table played in one process with no store and no clock (the tournament and the
research environments): its events folded at a clock of one second a version, and
each seat's feed of the events as it saw them, as the projector would write it."""

from shared.table.folding import evolve
from shared.table.read_models import redact


def record(current, version, events, feeds):
    """Fold `events` into the table `current` (at `version`), each at the time of its
    version (a second a version, in ms), and append to each seat's feed in `feeds` the
    event as that seat sees it: (the table, its new version)."""
    for number, event in enumerate(events, version + 1):
        current = evolve(current, event, at=number * 1000)
    for number, event in enumerate(events, version + 1):
        for seat, feed in enumerate(feeds):
            feed.append({**redact(current, event, seat), "version": number, "at": number * 1000})
    return current, version + len(events)
