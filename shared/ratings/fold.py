"""The ratings fold: finished games' outcomes onto each player's rating per game and
rule set (variant), with openskill's Plackett-Luce model doing the mathematics.

A game is rated when it was created rated (the table's `rated`), finished (never
cancelled or expired), and every seat is a player's; with `rate_bots` (the operator's
RATE_BOT_GAMES) a seat that a bot held from the start may be among them, and the bot's
rating stays fixed. A seat its player resigned, or left to a bot after timeouts and
never took back, is last (every such seat tied last). Outcomes are folded in the order
of their end time, then game id, so a rebuild gives the same figures.

The displayed rating is openskill's ordinal, mu - 3 sigma, scaled:
DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 sigma), rounded (a new player shows 1000). A
player is provisional below PROVISIONAL_GAMES rated games of that game and variant.
"""

from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from shared import games

STANDARD = "standard"  # the variant name of a game played with every on/off option off
PROVISIONAL_GAMES = 10
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40
BOT_PREFIX = "bot:"  # a bot level's key among the players' ids: "bot:greedy"

MODEL = PlackettLuce()


def variant_of(game, options):
    """The rule set a game was played with: its on/off options switched on, sorted and
    joined by "+", else "standard"."""
    switches = [k for k, v in games.get(game).OPTIONS.items() if v is False]
    on = sorted(k for k in switches if options.get(k) is True)
    return "+".join(on) or STANDARD


def places(result, seats):
    """Each seat's place (1 first) from a game's result: by its scores when the winners
    are the seats of the best score (higher or lower, as the game counts), else the
    winners first and everyone else tied second."""
    winners = set(result.get("winners") or [])
    scores = result.get("scores")
    if scores and len(scores) == seats:
        for sign in (1, -1):
            best = max(sign * s for s in scores)
            if winners == {i for i, s in enumerate(scores) if sign * s == best}:
                ordered = sorted({sign * s for s in scores}, reverse=True)
                return [ordered.index(sign * s) + 1 for s in scores]
    return [1 if i in winners else 2 for i in range(seats)]


def outcome(table, ended_at, rate_bots=False):
    """What rating a finished table needs: {"game_id", "game", "variant", "ended_at",
    "seats": [{"id", "place", "bot"}]}; None when the game is not rated."""
    if not table.get("rated") or table["status"] != "finished" or table["result"] is None:
        return None
    seats = table["seats"]
    ranks = places(table["result"], len(seats))
    # A leaver (resigned, or away at the end) is below every seat that stayed, which
    # keep their order among themselves.
    left = [bool(p.get("player")) and (p["resigned"] or p["away"]) for p in seats]
    stayed = sorted({r for r, gone in zip(ranks, left, strict=True) if not gone})
    last = len(stayed) + 1
    ranks = [last if gone else stayed.index(r) + 1 for r, gone in zip(ranks, left, strict=True)]
    entries = []
    for seat, place in enumerate(seats):
        player = place.get("player")
        if player is not None:
            entries.append({"id": player, "place": ranks[seat], "bot": False})
        elif place["bot"] is not None and rate_bots:
            entries.append({"id": BOT_PREFIX + place["bot"], "place": ranks[seat], "bot": True})
        else:
            return None  # a named seat, or a bot while bots' games are not rated
    if not any(not e["bot"] for e in entries):
        return None
    return {
        "game_id": table["id"],
        "game": table["game"],
        "variant": variant_of(table["game"], table["options"]),
        "ended_at": ended_at,
        "seats": entries,
    }


def displayed(mu, sigma):
    """The rating shown and ranked by: openskill's ordinal, scaled (module docstring)."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(alpha=DISPLAY_SCALE, target=DISPLAY_BASE))


@dataclass
class Ratings:
    """Every rating of a fold: {(game, variant): {player id: {"mu", "sigma", "games"}}}.
    Folding keeps no history; `apply` returns each seat's entry for the caller to keep."""

    boards: dict = field(default_factory=dict)

    def rating(self, player, game, variant=STANDARD):
        """{"mu", "sigma", "games"} of a player (a new player's when unrated)."""
        found = self.boards.get((game, variant), {}).get(player)
        return found or {"mu": MODEL.mu, "sigma": MODEL.sigma, "games": 0}

    def apply(self, result):
        """Rate one outcome (`outcome`'s); returns {player id: history entry} for its
        players (never its bots, whose ratings stay fixed)."""
        board = self.boards.setdefault((result["game"], result["variant"]), {})
        before = [self.rating(e["id"], result["game"], result["variant"]) for e in result["seats"]]
        teams = [[MODEL.rating(mu=b["mu"], sigma=b["sigma"])] for b in before]
        rated = MODEL.rate(teams, ranks=[e["place"] for e in result["seats"]])
        told = {}
        for entry, was, [now] in zip(result["seats"], before, rated, strict=True):
            if entry["bot"]:
                continue
            after = {"mu": now.mu, "sigma": now.sigma, "games": was["games"] + 1}
            board[entry["id"]] = after
            told[entry["id"]] = {
                "game_id": result["game_id"],
                "game": result["game"],
                "variant": result["variant"],
                "ended_at": result["ended_at"],
                "place": entry["place"],
                "players": len(result["seats"]),
                "before": displayed(was["mu"], was["sigma"]),
                "after": displayed(now.mu, now.sigma),
                "mu": now.mu,
                "sigma": now.sigma,
            }
        return told

    def fold(self, outcomes):
        """Apply outcomes in the fold's order (end time, then game id); returns
        {player id: [history entries, oldest first]}."""
        history = {}
        for result in sorted(outcomes, key=lambda r: (r["ended_at"], r["game_id"])):
            for player, entry in self.apply(result).items():
                history.setdefault(player, []).append(entry)
        return history
