"""/v1/matchmaking: quick-match tickets (a player's token). A ticket waits in its queue
until the matchmaker (services/matchmaker) seats it, it is cancelled, or it expires;
every change is an event of the queue (shared/matchmaking)."""

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import ValidationError

from services.api import matchmaking_schemas as schemas
from services.api import players
from services.api.apidoc import POSTED, errors
from services.api.context import deps, json_response
from services.api.errors import ApiError
from services.api.schemas import _OPTIONS, _unplayable
from shared import games, table
from shared.games.base import RuleError
from shared.matchmaking import tickets as t
from shared.matchmaking.store import Gone, Refused
from shared.ratings.fold import variant_of
from shared.ratings.store import rating_of

blp = Blueprint("matchmaking", __name__, url_prefix="/v1/matchmaking", description="Quick match")
mine = Blueprint("my-tickets", __name__, url_prefix="/v1/players", description="Quick match")
PLAYER = [{"playerToken": []}]
NOT_FOR_A_MATCH = ("seed", "deck", "webhook")  # a creator's choices: nobody creates here
ABANDONS = 3  # games abandoned from which a player counts as an abandoner...
ABANDON_SHARE = 0.2  # ...when they are this share of its finished games, or more
EXAMPLE = {"game": "alien", "players": 2, "bots": {"after_seconds": 30}}


def shown(doc):
    """A ticket as its player sees it."""
    return {k: v for k, v in doc.items() if k != "abandoner"}


def own_ticket(d, ticket_id, player_id):
    """The caller's ticket; 404 unknown_ticket for none, or another player's (whose
    tickets are theirs alone: the answer does not say it exists)."""
    doc = d.matchmaking.ticket(ticket_id)
    if doc is None or doc["player"] != player_id:
        raise ApiError("unknown_ticket", f"you hold no ticket {ticket_id!r}")
    return doc


def checked(body):
    """(queue id, queue, [min, max]) of a new ticket; 400 for what the game refuses."""
    game = body["game"]
    count = body["players"]
    players_range = [count, count] if isinstance(count, int) else list(count)
    if not (
        len(players_range) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in players_range)
    ):
        raise ApiError("bad_request", "players is a number or [min, max]")
    low, high = players_range
    allowed = games.get(game).PLAYERS
    if not (low <= high and low in allowed and high in allowed):
        raise ApiError(
            "bad_player_count",
            f"{game} is for {allowed.start} to {allowed.stop - 1} players; asked {low} to {high}",
        )
    chosen = body["options"]
    for name in NOT_FOR_A_MATCH:
        if name in chosen:
            raise ApiError("bad_options", f"{name} is not an option of a quick match")
    asked = {**chosen, "rated": body["rated"], "turn_seconds": body["turn_seconds"]}
    try:
        loaded = _OPTIONS[game].load({k: v for k, v in asked.items() if v is not None})
    except ValidationError as error:
        raise ApiError("bad_options", f"{game} refuses these options", error.messages) from None
    options = {
        k: v for k, v in loaded.items() if v is not None and k not in ("rated", "turn_seconds")
    }
    level = (body["bots"] or {}).get("level")
    why = _unplayable(level, game)
    if why:
        raise ApiError("bad_request", why, {"bots": {"level": [why]}})
    for n in range(low, high + 1):  # the rules' own check, as the game's opening makes it
        try:
            table.create("check", game, [{"bot": "random"}] * n, loaded, seed="0")
        except RuleError as error:
            raise ApiError("bad_options", error.message) from None
    queue_id, queue = t.queue_of(game, options, body["rated"], body["turn_seconds"])
    return queue_id, queue, players_range


def abandoner(d, player_id):
    """Whether the player abandons games: ABANDONS or more, a fifth of its finished
    games or more (its profile's record)."""
    record = players.games_record(d, player_id)
    return record["abandoned"] >= ABANDONS and (
        record["abandoned"] >= ABANDON_SHARE * max(1, record["finished"])
    )


@blp.route("/tickets")
class NewTicket(MethodView):
    @blp.arguments(schemas.NewTicket, error_status_code=400, example=EXAMPLE)
    @blp.response(201, schemas.Ticket)
    @errors(blp, 401, *POSTED)
    @blp.doc(operationId="openTicket", security=PLAYER)
    def post(self, body):
        """Open a quick-match ticket: the matchmaker seats me at a table of this game
        with compatible tickets (the same options, rated flag and turn time,
        overlapping player counts, close ratings), the longest-waiting first; with
        `bots`, a table still short of players after `after_seconds` is completed by
        bots. The app may close: once matched, the game is in my games and my inbox
        gets `matched` (game id and seat). At most 5 tickets at once, one a queue."""
        d = deps()
        player_id = players.me()
        queue_id, queue, players_range = checked(body)
        at = players.now_ms()
        found = rating_of(
            d.redis, d.keys, player_id, body["game"], variant_of(body["game"], queue["options"])
        )
        doc = t.ticket(
            t.new_ticket_id(queue_id),
            queue_id,
            queue,
            player_id,
            players_range,
            body["bots"]
            and {
                "after_seconds": body["bots"]["after_seconds"],
                "level": body["bots"].get("level"),
            },
            at,
            body["expires_seconds"],
            rating=None if found is None else found["rating"],
            abandoner=abandoner(d, player_id),
        )
        try:
            d.matchmaking.open(doc, queue, at)
        except Refused as refusal:
            if refusal.code == "too_many_tickets":
                raise ApiError(
                    "too_many_tickets", f"a player holds at most {t.MAX_OPEN} tickets"
                ) from None
            raise ApiError(
                "duplicate_ticket",
                f"you hold ticket {refusal.ticket} in this queue already",
                {"ticket": [refusal.ticket]},
            ) from None
        return json_response(shown(doc), 201, headers=players.PRIVATE)


@blp.route("/tickets/<ticket_id>")
class TicketRoute(MethodView):
    @blp.response(200, schemas.Ticket)
    @errors(blp, 401, 404)
    @blp.doc(operationId="getTicket", security=PLAYER)
    def get(self, ticket_id):
        """My ticket: waiting, matched (with the game id and my seat), cancelled or
        expired."""
        d = deps()
        doc = own_ticket(d, ticket_id, players.me())
        return json_response(shown(doc), headers=players.PRIVATE)

    @blp.response(200, schemas.Ticket)
    @errors(blp, 401, 404, 409)
    @blp.doc(operationId="cancelTicket", security=PLAYER)
    def delete(self, ticket_id):
        """Cancel my waiting ticket. A ticket matched first is not cancelled: 409
        ticket_matched, whose `errors.ticket` holds the ticket with its game and
        seat; 409 ticket_cancelled or ticket_expired for one already over."""
        d = deps()
        own_ticket(d, ticket_id, players.me())
        try:
            doc = d.matchmaking.cancel(ticket_id, players.now_ms())
        except Gone as gone:
            doc = gone.ticket
            raise ApiError(
                f"ticket_{doc['status']}",
                f"the ticket is {doc['status']} already",
                {"ticket": shown(doc)},
            ) from None
        return json_response(shown(doc), headers=players.PRIVATE)


@mine.route("/me/tickets")
class MyTickets(MethodView):
    @mine.response(200, schemas.Tickets)
    @errors(mine, 401)
    @mine.doc(operationId="getMyTickets", security=PLAYER)
    def get(self):
        """My quick-match tickets, newest first (the last 100), whatever their status."""
        d = deps()
        found = d.matchmaking.history(players.me())
        return json_response({"tickets": [shown(doc) for doc in found]}, headers=players.PRIVATE)
