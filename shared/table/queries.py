"""What a table waits for now: who must act and by when, the rules' own timers, and
what a bot in a seat may do. Pure questions of a folded table."""

from shared import games
from shared.table.events import LEGACY_TAKEOVER_BOT, REACTION_SECONDS


def rules_of(table):
    return games.get(table["game"])


def to_act(table):
    """The seats that must act now."""
    if table["status"] != "active":
        return []
    return rules_of(table).to_act(table["rules"])


def deadlines(table):
    """Per seat, when its time to act runs out (ms since the epoch), or None."""
    seconds = table["turn_seconds"]
    since = table["acting_since"]
    if seconds is None or table["status"] != "active":
        return [None] * len(table["seats"])
    return [
        since[str(s)] + seconds * 1000 if since.get(str(s)) is not None else None
        for s in range(len(table["seats"]))
    ]


def rules_timers(table):
    """The rules' own timers now: [{"key", "seconds", "command"}] (most games: none)."""
    if table["status"] != "active":
        return []
    return getattr(rules_of(table), "table_timers", lambda state: [])(table["rules"])


def table_timers(table):
    """The table's timers now, each with its deadline (ms since the epoch)."""
    since = table["timers_since"]
    return [
        {
            "key": t["key"],
            "command": t["command"],
            "deadline": since[t["key"]] + int(t["seconds"] * 1000),
        }
        for t in rules_timers(table)
        if since.get(t["key"]) is not None
    ]


def bot_chances(table, seat):
    """What a bot in `seat` may do now: (its turn: a move to make at once, the reflexes
    it may send after its reaction delay)."""
    if table["status"] != "active":
        return False, []
    rules = rules_of(table)
    reflexes = getattr(rules, "REFLEXES", ())
    acting = seat in rules.to_act(table["rules"])
    if not reflexes:
        return acting, []
    legal = rules.legal(table["rules"], seat)
    quick = [c for c in legal if c["type"] in reflexes]
    return acting and len(quick) < len(legal), quick


def reaction_seconds(place):
    """How long the bot playing a seat waits before it reacts out of turn: the seat's
    own delay (a bot's seat), else the default (a person's seat taken over by a bot)."""
    return place.get("reaction_seconds", REACTION_SECONDS)


def takeover_bot(table):
    """The level that plays a timed-out or resigned seat (a table folded before the
    option existed, e.g. a stored checkpoint, had random)."""
    return table.get("takeover_bot", LEGACY_TAKEOVER_BOT)
