"""The ratings' read model in Redis, which the projector writes and the API (and
matchmaking, through `rating_of`) reads. Per game (one hash tag, keys.py): the rated
games' outcomes (the input), and per variant every player's rating (a hash) and the
leaderboard (a sorted set by displayed rating: rank queries in O(log n)); per player
its history of that game.

Outcomes are folded in the order of end time, then game id: one that arrives after a
later one was folded (two projectors, a rebuild) folds the game's ratings again from
its outcomes, so the figures never depend on the order games were projected in.
"""

import orjson

from shared import jsonutil
from shared.ratings.fold import PROVISIONAL_GAMES, STANDARD, Ratings, displayed


def _order(result):
    return (result["ended_at"], result["game_id"])


class RatingStore:
    """Reads and writes the ratings of a deployment (`keys`: its shared.keys.Keys)."""

    def __init__(self, redis, keys):
        self.redis = redis
        self.keys = keys

    # --- the projector's side ---

    def record(self, outcomes):
        """Fold newly ended rated games' outcomes (shared.ratings.outcome's) in."""
        by_game = {}
        for result in outcomes:
            by_game.setdefault(result["game"], []).append(result)
        for game, results in by_game.items():
            self._record_game(game, sorted(results, key=_order))

    def keep(self, outcomes):
        """Keep outcomes without folding them (a rebuild's batches; `refold` folds)."""
        pipe = self.redis.pipeline(transaction=False)
        for result in outcomes:
            key = self.keys.rating_outcomes(result["game"])
            pipe.hset(key, result["game_id"], jsonutil.dumps(result))
        pipe.execute()

    def _record_game(self, game, results):
        keys = self.keys
        known = self.redis.hmget(keys.rating_outcomes(game), [r["game_id"] for r in results])
        results = [r for r, seen in zip(results, known, strict=True) if seen is None]
        if not results:
            return
        self.redis.hset(
            keys.rating_outcomes(game),
            mapping={r["game_id"]: jsonutil.dumps(r) for r in results},
        )
        last = self.redis.get(keys.rating_last(game))
        if last is not None:
            at, game_id = last.decode().split(" ", 1)
            if _order(results[0]) < (int(at), game_id):
                self.refold(game)  # arrived late: the whole game again, in order
                return
        self._apply(game, results)

    def _apply(self, game, results):
        keys = self.keys
        ratings = Ratings()
        for result in results:
            board = ratings.boards.setdefault((game, result["variant"]), {})
            missing = [s["id"] for s in result["seats"] if s["id"] not in board]
            stored = (
                self.redis.hmget(keys.ratings(game, result["variant"]), missing) if missing else []
            )
            for player, raw in zip(missing, stored, strict=True):
                if raw is not None:
                    board[player] = orjson.loads(raw)
        history = ratings.fold(results)
        self._write(game, ratings, history, _order(results[-1]))

    def _write(self, game, ratings, history, last):
        keys = self.keys
        pipe = self.redis.pipeline(transaction=False)
        for (_, variant), board in ratings.boards.items():
            if not board:
                continue
            pipe.sadd(keys.rating_variants(game), variant)
            pipe.hset(
                keys.ratings(game, variant),
                mapping={p: jsonutil.dumps(r) for p, r in board.items()},
            )
            pipe.zadd(
                keys.leaderboard(game, variant),
                {p: displayed(r["mu"], r["sigma"]) for p, r in board.items()},
            )
        for player, entries in history.items():
            pipe.rpush(keys.rating_history(game, player), *map(jsonutil.dumps, entries))
        pipe.set(keys.rating_last(game), f"{last[0]} {last[1]}")
        pipe.execute()

    def refold(self, game):
        """Fold every outcome of `game` again from nothing, in order."""
        raw = self.redis.hgetall(self.keys.rating_outcomes(game))
        results = sorted((orjson.loads(v) for v in raw.values()), key=_order)
        self._forget_figures(game)
        if results:
            ratings = Ratings()
            self._write(game, ratings, ratings.fold(results), _order(results[-1]))

    def _forget_figures(self, game):
        keys = self.keys
        variants = [v.decode() for v in self.redis.smembers(keys.rating_variants(game))]
        players = set()
        for variant in variants:
            players.update(p.decode() for p in self.redis.hkeys(keys.ratings(game, variant)))
        doomed = [keys.rating_variants(game), keys.rating_last(game)]
        doomed += [keys.ratings(game, v) for v in variants]
        doomed += [keys.leaderboard(game, v) for v in variants]
        doomed += [keys.rating_history(game, p) for p in players]
        pipe = self.redis.pipeline(transaction=False)
        for key in doomed:
            pipe.delete(key)
        pipe.execute()

    def forget(self, game):
        """A rebuild's step: every rating key of `game`, outcomes included."""
        self._forget_figures(game)
        self.redis.delete(self.keys.rating_outcomes(game))

    def erase(self, player_id, game):
        """An erased player leaves `game`'s boards (its rating stays in the fold, so
        the others' figures do not move)."""
        for variant in self.variants(game):
            self.redis.zrem(self.keys.leaderboard(game, variant), player_id)

    # --- the readers' side ---

    def variants(self, game):
        """The variants of `game` with ratings, sorted."""
        return sorted(v.decode() for v in self.redis.smembers(self.keys.rating_variants(game)))

    def rating_of(self, player_id, game, variant=STANDARD):
        """{"rating", "mu", "sigma", "games", "provisional"} of a player in one game
        and variant; None when it has played no rated game of it."""
        raw = self.redis.hget(self.keys.ratings(game, variant), player_id)
        if raw is None:
            return None
        found = orjson.loads(raw)
        return {
            "rating": displayed(found["mu"], found["sigma"]),
            "mu": found["mu"],
            "sigma": found["sigma"],
            "games": found["games"],
            "provisional": found["games"] < PROVISIONAL_GAMES,
        }

    def history(self, player_id, game):
        """A player's rated games of `game`, oldest first."""
        raw = self.redis.lrange(self.keys.rating_history(game, player_id), 0, -1)
        return [orjson.loads(entry) for entry in raw]

    def board(self, game, variant, start=0, count=50):
        """[(player id, displayed rating, rank from 1)] from `start` (0: the best)."""
        found = self.redis.zrevrange(
            self.keys.leaderboard(game, variant), start, start + count - 1, withscores=True
        )
        return [(p.decode(), int(s), start + i + 1) for i, (p, s) in enumerate(found)]

    def size(self, game, variant):
        """How many players a board holds."""
        return self.redis.zcard(self.keys.leaderboard(game, variant))

    def rank(self, player_id, game, variant):
        """A player's place on a board from 0 (the best); None when not on it."""
        return self.redis.zrevrank(self.keys.leaderboard(game, variant), player_id)


def rating_of(redis, keys, player_id, game, variant=STANDARD):
    """A player's rating of one game and variant (`RatingStore.rating_of`): what
    matchmaking reads."""
    return RatingStore(redis, keys).rating_of(player_id, game, variant)
