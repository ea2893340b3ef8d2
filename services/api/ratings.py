"""/v1/players/{id}/ratings and /v1/leaderboards: the ratings the projector folds from
rated games (shared/ratings/store.py), read here. Erased players are on no board."""

from flask.views import MethodView
from flask_smorest import Blueprint

from services.api import cursors
from services.api import rating_schemas as schemas
from services.api.apidoc import errors
from services.api.context import deps, json_response
from services.api.errors import ApiError
from services.api.players import PLAYER, PUBLIC, me
from shared import games
from shared.players import tokens as player_tokens
from shared.ratings import STANDARD
from shared.ratings.store import RatingStore

blp = Blueprint("ratings", __name__, url_prefix="/v1", description="Ratings and leaderboards")


def _store():
    d = deps()
    return RatingStore(d.redis, d.keys)


def _known_player(player_id):
    if not player_tokens.valid_id(player_id):
        raise ApiError("unknown_player", f"no player {player_id!r}")
    return player_id


def _known_game(game):
    if game not in games.NAMES:
        raise ApiError("unknown_game", f"no game {game!r}: one of {', '.join(games.NAMES)}")
    return game


def _known_variant(store, game, variant):
    if variant != STANDARD and variant not in store.variants(game):
        raise ApiError("unknown_variant", f"{game} has no rated variant {variant!r}")
    return variant


@blp.route("/players/<player_id>/ratings")
class PlayerRatings(MethodView):
    @blp.response(200, schemas.PlayerRatings)
    @errors(blp, 404)
    @blp.doc(operationId="getPlayerRatings", security=PUBLIC)
    def get(self, player_id):
        """A player's rating in every game and variant it played rated."""
        store = _store()
        _known_player(player_id)
        found = []
        for game in games.NAMES:
            for variant in store.variants(game):
                rating = store.rating_of(player_id, game, variant)
                if rating is not None:
                    found.append({"game": game, "variant": variant, **rating})
        return json_response({"player": player_id, "ratings": found})


@blp.route("/players/<player_id>/ratings/<game>/history")
class RatingHistory(MethodView):
    @blp.arguments(schemas.HistoryQuery, location="query", error_status_code=400)
    @blp.response(200, schemas.RatingHistory)
    @errors(blp, 400, 404)
    @blp.doc(operationId="getRatingHistory", security=PUBLIC)
    def get(self, query, player_id, game):
        """A player's rated games of one game (`variant`: of one rule set), oldest
        first, with the displayed rating before and after each."""
        store = _store()
        _known_player(player_id)
        _known_game(game)
        history = store.history(player_id, game)
        if "variant" in query:
            variant = _known_variant(store, game, query["variant"])
            history = [h for h in history if h["variant"] == variant]
        return json_response({"player": player_id, "game": game, "history": history})


@blp.route("/leaderboards/<game>")
class Leaderboard(MethodView):
    @blp.arguments(schemas.BoardQuery, location="query", error_status_code=400)
    @blp.response(200, schemas.Leaderboard)
    @errors(blp, 400, 401, 404)
    @blp.doc(operationId="getLeaderboard", security=[*PUBLIC, *PLAYER])
    def get(self, query, game):
        """A game's leaderboard (one `variant`, standard by default), best first by
        the displayed rating: `limit` a page, `cursor` the next; `around=me` (a player
        token) the window of `limit` around the caller. Provisional players are marked."""
        store = _store()
        _known_game(game)
        variant = _known_variant(store, game, query["variant"])
        limit = query["limit"]
        if query.get("around") == "me":
            if "cursor" in query:
                raise ApiError("bad_request", "around=me takes no cursor")
            rank = store.rank(me(), game, variant)
            start = 0 if rank is None else max(0, rank - limit // 2)
        else:
            start = cursors.offset("r", query.get("cursor"))
        size = store.size(game, variant)
        page = store.board(game, variant, start, limit)
        d = deps()
        found = d.players.loaded_many([p for p, _, _ in page])
        entries = []
        for player_id, rating, rank in page:
            player = found.get(player_id)
            if player is None or player["erased"]:
                continue  # an erased player is on no board
            mine = store.rating_of(player_id, game, variant)
            entries.append(
                {
                    "rank": rank,
                    "player": player_id,
                    "name": player["name"],
                    "rating": rating,
                    "games": mine["games"],
                    "provisional": mine["provisional"],
                }
            )
        more = start + limit < size
        answer = {
            "game": game,
            "variant": variant,
            "players": size,
            "entries": entries,
            "next_cursor": cursors.cursor("r", start + limit) if more else None,
        }
        return json_response(answer)
