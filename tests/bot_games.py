"""Seeded games in-process for the per-game bot tests: greedy seats against random ones,
with every position as the acting seat saw it (its API view and its own feed)."""

import random
from collections import Counter

from shared import games
from shared import table as tables

MAX_STEPS = 3000  # a game takes a few hundred commands; a bug must not hang the test


class BotGames:
    """Games of `game` where greedy seats play with `bot` (its shared.bots.games module)."""

    def __init__(self, game, bot):
        self.game = game
        self.bot = bot

    def play(self, players, options, seed, greedy_seats=(0,), visit=None):
        """Play one seeded game, `greedy_seats` greedy and the others random; call
        `visit(table, seat to act, API view, its feed)` at every position. The final
        table and every seat's feed."""
        seats = [{"name": f"p{seat}"} for seat in range(players)]
        options = {**options, "seed": str(seed)}
        events = tables.create("g", self.game, seats, options, str(seed))
        table, feeds = None, [[] for _ in range(players)]
        rng = random.Random(seed)
        for _ in range(MAX_STEPS):
            for event in events:
                table = tables.evolve(table, event)
                for seat in range(players):
                    feeds[seat].append(tables.redact(table, event, seat))
            if table["status"] != "active":
                return table, feeds
            (seat,) = tables.to_act(table)
            view = tables.view(table, 0, seat)
            if visit:
                visit(table, seat, view, list(feeds[seat]))
            if seat in greedy_seats:
                command = self.bot.greedy(view, feeds[seat], rng)
            else:
                command = rng.choice(view["legal"])
            events = tables.play(table, seat, command)
        raise AssertionError(f"game {seed} did not end in {MAX_STEPS} steps")

    def positions(self, players, options, seed, greedy_seats=(0,)):
        """Every position of one game (see play) as (table, seat, view, feed)."""
        seen = []
        self.play(players, options, seed, greedy_seats, lambda *position: seen.append(position))
        return seen

    def check_sample(self, seat, view, feed, rng, every_card):
        """A world sampled for the seat: it shows the seat exactly its view, the seats to
        act and its legal commands, and holds every card of the game once
        (`every_card(state)` counts them). Returns it."""
        rules = games.get(self.game)
        sampled = self.bot.sample(view, feed, rng)
        assert rules.view(sampled, seat) == view["state"]
        assert rules.to_act(sampled) == view["to_act"]
        assert rules.legal(sampled, seat) == view["legal"]
        assert every_card(sampled) == Counter(rules.CARDS)
        return sampled


def search_view(view):
    """The minimal view a search rollout builds."""
    return {key: view[key] for key in ("game", "seat", "to_act", "legal", "state", "options")}
