"""Which waiting tickets of one queue make a table now: pure (no Redis, no clock).

The rules, in order:
1. The longest-waiting ticket is the anchor; its group is built first.
2. A candidate joins when the group's player counts still overlap (each ticket's
   [min, max] intersected) and, when both it and the anchor have a rating, the two
   ratings are within the anchor's window:

       window(w) = min(RATING_WINDOW_MAX, RATING_WINDOW_START + RATING_WINDOW_GROWTH * w)

   with w the anchor's waiting time in seconds (50 points at once, 10 more each
   second, at most 1000: after 95 s any two rated players match). Among candidates
   the longest-waiting join first. A player without a rating matches anyone.
3. Abandoners (soft): a ticket of a player who abandons games is offered other
   abandoners first, and a non-abandoner's anchor takes an abandoner only once it has
   waited ABANDONER_SECONDS; an abandoner's anchor, likewise, takes others only then.
4. A group starts at once when it reaches the largest count every member accepts;
   with fewer (but at least the smallest), once its anchor has waited GATHER_SECONDS,
   in case more come.
5. Bots: when the anchor asked for `bots` and has waited `after_seconds`, its group
   (of the members that accept bots too) is completed to the smallest count with bots,
   at the anchor's level; when it named none, at the level whose calibrated rating of
   the game (shared/bots/calibration.py, the tournament's table) is nearest the mean
   rating of the group's rated players; a group with none gets UNRATED_LEVEL, the
   level docs/bots.md gives a beginner. (Not a new player's displayed 1000: the bots'
   ratings come from games among themselves, and every one sits far above a newcomer's
   cautious mu - 3 sigma, so 1000 would always seat `random`, which teaches nothing.)
"""

from dataclasses import dataclass, field

from shared.bots import calibration

RATING_WINDOW_START = 50
RATING_WINDOW_GROWTH = 10  # points a second of waiting
RATING_WINDOW_MAX = 1000
ABANDONER_SECONDS = 10
GATHER_SECONDS = 5
UNRATED_LEVEL = "greedy"  # the bots of a group whose players have no rating yet


@dataclass
class Group:
    """Tickets that make one table, the levels of the bots that fill it and why that
    level (`bot_level`'s reason; None without bots)."""

    tickets: list
    bots: list = field(default_factory=list)
    reason: str | None = None


def window(waited_seconds):
    """The rating difference accepted after waiting this long (module docstring)."""
    return min(RATING_WINDOW_MAX, RATING_WINDOW_START + RATING_WINDOW_GROWTH * waited_seconds)


def group_rating(group):
    """The mean rating of a group's rated players; None when none has a rating."""
    found = [t["rating"] for t in group if t.get("rating") is not None]
    return sum(found) / len(found) if found else None


def bot_level(anchor, group, table):
    """(level, reason) of the bots completing the anchor's group: the anchor's own
    choice, else the level of the calibration `table` nearest the group's mean rating
    (calibration.nearest; greedy for a game the table lacks), else, with no rated
    player, UNRATED_LEVEL."""
    chosen = (anchor.get("bots") or {}).get("level")
    if chosen:
        return chosen, "the ticket's level"
    rating = group_rating(group)
    if rating is None:
        return UNRATED_LEVEL, f"no rated player: {UNRATED_LEVEL}, the level for a beginner"
    return calibration.nearest(table, anchor["game"], rating)


def _close(anchor, other, waited):
    if anchor.get("rating") is None or other.get("rating") is None:
        return True
    return abs(anchor["rating"] - other["rating"]) <= window(waited)


def groups(tickets, now_ms, table=None):
    """The groups to seat now, from the waiting tickets of one queue (module
    docstring); each ticket is in at most one group. `table`: the bots' calibration
    (default: the one shipped, calibration.load())."""
    waiting = sorted(tickets, key=lambda t: (t["opened_at"], t["id"]))
    taken = set()
    found = []
    for anchor in waiting:
        if anchor["id"] in taken:
            continue
        waited = (now_ms - anchor["opened_at"]) / 1000
        mixing = waited >= ABANDONER_SECONDS

        def candidates(anchor=anchor, waited=waited, mixing=mixing):
            # Lazily, so a full table stops the scan: the same kind first (abandoners
            # with abandoners), each kind by waiting; the other kind once mixing.
            for same in (True, False) if mixing else (True,):
                for other in waiting:
                    if (
                        other["id"] not in taken
                        and other is not anchor
                        and (other["abandoner"] == anchor["abandoner"]) == same
                        and _close(anchor, other, waited)
                    ):
                        yield other

        group = _gather(anchor, candidates())
        low, high = _counts(group)
        if len(group) == high or (len(group) >= low and waited >= GATHER_SECONDS):
            found.append(Group(group))
        elif _bots_due(anchor, now_ms):
            group = [t for t in group if t["bots"]]
            low, _ = _counts(group)
            level, reason = bot_level(anchor, group, calibration.load() if table is None else table)
            found.append(Group(group, [level] * (low - len(group)), reason))
        else:
            continue
        taken.update(t["id"] for t in found[-1].tickets)
    return found


def _gather(anchor, candidates):
    group, players = [anchor], {anchor["player"]}
    low, high = anchor["players"]
    for ticket in candidates:
        if len(group) >= high:
            break
        new_low, new_high = max(low, ticket["players"][0]), min(high, ticket["players"][1])
        if ticket["player"] in players or new_low > new_high or len(group) + 1 > new_high:
            continue
        group.append(ticket)
        players.add(ticket["player"])
        low, high = new_low, new_high
    return group


def _counts(group):
    return max(t["players"][0] for t in group), min(t["players"][1] for t in group)


def _bots_due(anchor, now_ms):
    bots = anchor.get("bots")
    return bool(bots) and now_ms >= anchor["opened_at"] + bots["after_seconds"] * 1000
