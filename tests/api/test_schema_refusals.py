"""Where the server refuses a request for what the request says alone, openapi.yaml says
so too (patterns, counts, `dependentRequired`, `if`/`then`), so that generated clients
and fuzzers know; the refusal keeps its stable code. What no schema can say (the game's
state, the caller, the deployment) is listed in REFUSALS_NO_SCHEMA_SAYS, and schema-valid
requests drawn at random are refused for nothing else.

docs/clients.md lists the cases and how the document says each."""

import dataclasses
import re
import unicodedata

import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck, given, settings
from jsonschema import Draft202012Validator
from schemathesis import GenerationMode

from services.api import create_app, fields, openapi
from services.webhooks import urls
from shared import games, table
from shared.games.abluxxen import contract as abluxxen_api
from shared.games.alakablast import contract as alakablast_api
from shared.games.alebrijes import contract as alebrijes_api
from shared.games.alien import contract as alien_api
from shared.players import names
from tests.api.helpers import auth, finish

DOCUMENT = yaml.safe_load(openapi.PATH.read_text())
SEATS2 = [{"kind": "human", "name": "ana"}, {"kind": "human", "name": "bea"}]


def document_accepts(component, body):
    """Whether `body` is valid against the document's component `component`."""
    root = {"$ref": f"#/components/schemas/{component}", "components": DOCUMENT["components"]}
    return Draft202012Validator(root).is_valid(body)


def new_game(game, seats=SEATS2, **options):
    return {"game": game, "seats": seats, "options": options}


def bots(level, count):
    return [{"kind": "bot", "bot": level} for _ in range(count)]


def humans(count):
    return [{"kind": "human", "name": f"p{i}"} for i in range(count)]


@dataclasses.dataclass
class Case:
    """A body the server refuses for what it says alone: `route` sends it (see send),
    `component` is its schema in the document."""

    name: str
    route: str
    component: str
    body: dict
    status: int
    code: str


ALEBRIJES_DECK = list(games.get("alebrijes").CARDS)
CASES = [
    # Names people read: no control characters (category Cc).
    Case("seat name, control", "create", "CreateGame",
         new_game("alien", [{"kind": "human", "name": "a\x07"}, *SEATS2]), 400, "bad_request"),
    Case("bot name, newline", "create", "CreateGame",
         new_game("alien", [{"kind": "bot", "bot": "random", "name": "a\nb"}, *SEATS2]),
         400, "bad_request"),
    Case("seed string, NUL", "create", "CreateGame", new_game("alien", seed="a\x00"),
         400, "bad_request"),
    Case("claim name, C1 control", "claim", "ClaimSeat", {"name": "bea\x85"}, 400, "bad_request"),
    Case("fork seat name, DEL", "fork", "Fork",
         {"at": 5, "seats": [{"kind": "human", "name": "x\x7f"}, *SEATS2[1:]]},
         400, "bad_request"),
    # A player's name: the name rules' pattern.
    Case("player name, control", "player", "NewPlayer", {"name": "ana\x1b"}, 400, "bad_request"),
    Case("player name, two spaces", "player", "NewPlayer", {"name": "ana  bea"}, 400, "bad_name"),
    Case("player name, only spaces", "player", "NewPlayer", {"name": "   "}, 400, "bad_name"),
    Case("player name, zero-width space", "player", "NewPlayer", {"name": "a\u200bb"},
         400, "bad_name"),
    Case("player name, bidi override", "rename", "Rename", {"name": "a\u202eb"}, 400, "bad_name"),
    Case("player name, no-break space", "rename", "Rename", {"name": "a\xa0b"}, 400, "bad_name"),
    Case("player name, private use", "rename", "Rename", {"name": "a\ue000"}, 400, "bad_name"),
    Case("player name, line separator", "rename", "Rename", {"name": "a\u2028b"},
         400, "bad_name"),
    # Seat counts: each game's own range, and 2 or more for a fork.
    Case("alebrijes, 1 seat", "create", "CreateGame", new_game("alebrijes", SEATS2[:1]),
         400, "bad_options"),
    Case("alebrijes, 7 seats", "create", "CreateGame", new_game("alebrijes", humans(7)),
         400, "bad_options"),
    Case("abluxxen, 6 seats", "create", "CreateGame", new_game("abluxxen", humans(6)),
         400, "bad_options"),
    Case("alakablast, 6 seats", "create", "CreateGame", new_game("alakablast", humans(6)),
         400, "bad_options"),
    Case("alien, 1 seat", "create", "CreateGame", new_game("alien", SEATS2[:1]),
         400, "bad_options"),
    Case("fork, 1 seat", "fork", "Fork", {"at": 5, "seats": SEATS2[:1]}, 400, "bad_request"),
    # A rated game seats players, bots and open seats: nobody by name alone.
    Case("rated, a human seat", "create", "CreateGame",
         new_game("alien", [{"kind": "open"}, SEATS2[0]], rated=True),
         400, "rated_needs_players"),
    # A fixed deck: the game's count of its own card codes.
    Case("deck, one card short", "create", "CreateGame",
         new_game("alebrijes", deck=ALEBRIJES_DECK[:-1]), 400, "bad_options"),
    Case("deck, another game's code", "create", "CreateGame",
         new_game("alebrijes", deck=[*ALEBRIJES_DECK[:-1], "C01"]), 400, "bad_options"),
    Case("deck, alien's count", "create", "CreateGame",
         new_game("alien", deck=list(games.get("alien").CARDS)[:69]), 400, "bad_options"),
    # Webhook URLs: http(s), then only what a request line carries.
    Case("webhook, ftp", "create", "CreateGame",
         new_game("alien", webhook={"url": "ftp://example.com/"}), 400, "bad_webhook_url"),
    Case("webhook, space", "create", "CreateGame",
         new_game("alien", webhook={"url": "https://example.com/a b"}),
         400, "bad_webhook_url"),
    # Commands: fields that go together.
    Case("duel, card without dimension", "command:alakablast", "AlakablastCommand",
         {"type": "duel", "rival": 1, "kind": "element", "card": 2}, 400, "bad_command"),
    Case("duel, dimension without card", "command:alakablast", "AlakablastCommand",
         {"type": "duel", "rival": 1, "kind": "power", "dimension": "power"},
         400, "bad_command"),
    Case("claim, element and power", "command:alakablast", "AlakablastCommand",
         {"type": "ask", "card": 2, "informant": 1, "claim": {"element": "W", "power": 2}},
         400, "bad_command"),
    Case("claim, empty", "command:alakablast", "AlakablastCommand",
         {"type": "ask", "card": 2, "informant": 1, "claim": {}}, 400, "bad_command"),
    Case("claim, light (never right)", "command:alakablast", "AlakablastCommand",
         {"type": "ask", "card": 2, "informant": 1, "claim": {"element": "L"}},
         422, "illegal_move"),
    Case("claim, power 7 (never right)", "command:alakablast", "AlakablastCommand",
         {"type": "ask", "card": 2, "informant": 1, "claim": {"power": 7}}, 422, "illegal_move"),
    Case("hunt H1 with an alien", "command:alien", "AlienCommand",
         {"type": "hunt", "card": "H1", "target": 1, "alien": 3}, 400, "bad_command"),
    Case("hunt H2 without an alien", "command:alien", "AlienCommand",
         {"type": "hunt", "card": "H2", "target": 1}, 400, "bad_command"),
    Case("abluxxen, an empty row", "command:abluxxen", "AbluxxenCommand",
         {"type": "play", "cards": []}, 422, "illegal_move"),
]  # fmt: skip

# Beside each kind of case, bodies both accept: the document is not stricter than that.
ACCEPTED = [
    ("create", "CreateGame", new_game("alien", [{"kind": "human", "name": "Zoë 😀 ✓"}, *SEATS2])),
    ("create", "CreateGame", new_game("alien", [{"kind": "open"}, {"kind": "open"}], rated=True)),
    ("create", "CreateGame", new_game("alebrijes", deck=ALEBRIJES_DECK, seed="any seed, ok?")),
    ("create", "CreateGame", new_game("alien", humans(8))),
    ("player", "NewPlayer", {"name": "Zoë de la Cruz 😀"}),
    ("player", "NewPlayer", {"name": " José María "}),
    ("rename", "Rename", {"name": "李 小龍"}),
    ("claim", "ClaimSeat", {"name": "bea ✓"}),
    ("command:alakablast", "AlakablastCommand",
     {"type": "ask", "card": 2, "informant": 1, "claim": {"element": "F"}}),
    ("command:alien", "AlienCommand", {"type": "hunt", "card": "H1", "target": 1}),
]  # fmt: skip

# Bodies the server accepts (a 400/422 would say otherwise) but which only pass the
# schema when sent as the commands above are: for the commands, the answer may be a
# state's refusal (409, 422 illegal_move), never bad_command.
COMMANDS_ACCEPTED = [
    ("command:alakablast", "AlakablastCommand",
     {"type": "duel", "rival": 1, "kind": "element", "card": 2, "dimension": "power"}),
    ("command:alien", "AlienCommand", {"type": "hunt", "card": "H3", "target": 1, "alien": 0}),
]  # fmt: skip


@pytest.fixture
def send(client, deps):
    """send(route, body) -> the response, each route set up as it needs: a waiting
    table's open seat, a finished game's fork, a player's rename, a seat's command on
    a running game of that game (sent by a seat whose turn it is)."""
    made = {}

    def player_token():
        if "player" not in made:
            made["player"] = client.post("/v1/players", json={"name": "pat"}).get_json()
        return made["player"]["token"]

    def game_of(name):
        if name not in made:
            body = new_game(name, humans(3), seed="refusals")
            made[name] = client.post("/v1/games", json=body).get_json()
        return made[name]

    def sender(route, body):
        if route == "create":
            return client.post("/v1/games", json=body)
        if route == "player":
            return client.post("/v1/players", json=body)
        if route == "rename":
            return client.patch("/v1/players/me", json=body, headers=auth(player_token()))
        if route == "claim":
            seats = [{"kind": "human", "name": "ana"}, {"kind": "open"}]
            waiting = client.post("/v1/games", json=new_game("alien", seats)).get_json()
            return client.post(f"/v1/games/{waiting['id']}/seats/1", json=body)
        if route == "fork":
            if "finished" not in made:
                created = client.post("/v1/games", json=new_game("alebrijes", rounds=1))
                made["finished"] = created.get_json()
                finish(deps, made["finished"]["id"])
            return client.post(f"/v1/games/{made['finished']['id']}/fork", json=body)
        game = game_of(route.split(":")[1])
        _, current = deps.service.load(game["id"], fresh=True)
        seat = table.to_act(current)[0]
        token = game["seats"][seat]["token"]
        if "informant" in body or "rival" in body or "target" in body:
            other = (seat + 1) % 3
            body = {**body, **{k: other for k in ("informant", "rival", "target") if k in body}}
        if route == "command:alakablast" and "card" in body:
            hand = current["rules"]["hands"][seat]
            body = {**body, "card": next(i for i, card in enumerate(hand) if card["open"])}
        path = f"/v1/{current['game']}/{game['id']}/commands"
        return client.post(path, json=body, headers=auth(token))

    return sender


# Refusals of a state: the rules at this position, the table's seats, the game's versions.
STATE_CODES = {"illegal_move", "not_your_turn", "bad_version"}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_document_refuses_what_the_server_refuses(send, case):
    """Each case fails on a document that does not say it, and the server's refusal
    keeps its stable code."""
    assert not document_accepts(case.component, case.body), "the document allows it"
    answer = send(case.route, case.body)
    assert answer.status_code == case.status, answer.get_json()
    assert answer.get_json()["code"] == case.code


@pytest.mark.parametrize(("route", "component", "body"), ACCEPTED + COMMANDS_ACCEPTED)
def test_the_document_and_the_server_accept_their_neighbours(send, route, component, body):
    assert document_accepts(component, body)
    answer = send(route, body)
    assert answer.status_code < 400 or answer.get_json()["code"] in STATE_CODES, answer.get_json()


# --- the patterns against the checks they stand for, character by character

BMP = [chr(c) for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF]


def test_the_text_pattern_is_the_printable_check():
    pattern = re.compile(fields.PRINTABLE)
    for char in BMP:
        try:
            fields.check_printable(f"a{char}b")
            printable = True
        except Exception:
            printable = False
        assert bool(pattern.search(f"a{char}b")) == printable, hex(ord(char))


def _name_ok(name):
    try:
        names.checked(name)
    except names.BadName:
        return False
    return True


def test_the_player_name_pattern_is_the_name_rules_for_assigned_characters():
    """Every assigned BMP character inside a name, and the rules on spaces: the pattern
    allows exactly what `names.checked` allows; an unassigned code point (Cn, which
    depends on the server's Unicode version) is the rules' alone."""
    pattern = re.compile(names.PATTERN)
    for char in BMP:
        name = f"a{char}b"
        if unicodedata.category(char) == "Cn":
            assert not _name_ok(name)
            continue
        assert bool(pattern.search(name)) == _name_ok(name), hex(ord(char))
    for name in ["a", " a", "a ", "  a  b  ", "a b c", "a  b", " ", "", "a\u3000b"]:
        assert bool(pattern.search(name)) == _name_ok(name), repr(name)


@pytest.mark.parametrize(
    ("pattern", "codes"),
    [
        (alien_api.CARD_PATTERN, games.get("alien").CARDS),
        (alakablast_api.CARD_PATTERN, games.get("alakablast").CARDS),
        (alebrijes_api.CARD_PATTERN, games.get("alebrijes").CARDS),
        (abluxxen_api.CARD_PATTERN, games.get("abluxxen").CARDS),
    ],
)
def test_a_card_pattern_matches_its_games_codes_and_no_other(pattern, codes):
    alphabet = sorted({c for code in codes for c in code} | set("0123456789*"))
    candidates = {a + b + c for a in alphabet for b in ["", *alphabet] for c in ["", *alphabet]}
    assert {s for s in candidates if re.fullmatch(pattern, s)} == set(codes)


def test_the_url_pattern_is_what_parse_needs_of_the_text():
    for url in ["https://example.com/", "HTTP://example.com/a?b=c", "https://[::1]:8443/"]:
        assert re.search(urls.PATTERN, url)
        urls.parse(url, allow_http=True)
    for url in [
        "ftp://example.com/",
        "https://a b/",
        "https://é.com/",
        "example.com",
        "https://\t/",
    ]:
        assert not re.search(urls.PATTERN, url)
        with pytest.raises(urls.RefusedUrl):
            urls.parse(url, allow_http=True)


# --- schema-valid requests drawn at random are accepted, but for what no schema can say

# (operation, code, detail starting so): refused for the state, the caller or the
# deployment; docs/clients.md says each.
REFUSALS_NO_SCHEMA_SAYS = [
    (None, "illegal_move", ""),  # the rules, at this position
    (None, "bad_version", ""),  # past the game's last version
    (None, "bad_webhook_url", "the host"),  # it must resolve, to public addresses
    (None, "bad_webhook_url", "a webhook URL must be https"),  # http: the operator's choice
    (None, "bad_webhook_url", "a webhook URL names a host"),
    (None, "bad_webhook_url", "a webhook URL may not carry credentials"),
    (None, "bad_webhook_url", "a webhook URL's port"),
    (None, "bad_webhook_url", "not a valid URL"),
    (None, "bad_request", "a player holds at most one seat of a game"),  # across seats
    (None, "bad_options", "deck must hold"),  # how many of each code: the count alone is said
    ("POST /v1/games/{game_id}/seats/{seat}", "bad_request", "claim a seat with a name"),
    ("POST /v1/games/{game_id}/fork", "bad_request", "a fork of this game has"),
    ("POST /v1/games/{game_id}/commands", "bad_command", ""),  # the id's game's commands
    ("POST /v1/alien/{game_id}/commands", "bad_command", "target must be a seat number"),
    ("POST /v1/replays", "bad_log", ""),  # a log is checked by replaying it
    ("POST /v1/matchmaking/tickets", "bad_player_count", ""),  # the game's range
    ("POST /v1/matchmaking/tickets", "bad_options", ""),  # the game's options
    ("GET /v1/leaderboards/{game}", "bad_request", "around=me takes no cursor"),
    ("GET /v1/leaderboards/{game}", "bad_cursor", ""),  # only cursors the server gave
    ("GET /v1/players/me/games", "bad_cursor", ""),
]


def no_schema_says(label, problem, body):
    if problem["code"] == "bad_name":  # beyond the BMP, or unassigned: see the pattern
        name = body["name"]
        return any(ord(c) > 0xFFFF or unicodedata.category(c) == "Cn" for c in name) or (
            len(unicodedata.normalize("NFC", name).strip(" ")) > names.MAX_LENGTH
        )
    return any(
        operation in (None, label)
        and problem["code"] == code
        and problem["detail"].startswith(detail)
        for operation, code, detail in REFUSALS_NO_SCHEMA_SAYS
    )


def as_sent(value):
    """JSON's one spelling of a number: 5.0 is the integer 5 to JSON Schema, which has
    no way to ask for it without the point; the server wants it so (docs/clients.md)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: as_sent(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_sent(v) for v in value]
    return value


def with_installed_levels(value):
    """Bot levels are the deployment's (plugins add some): every drawn one is `random`."""
    if isinstance(value, dict):
        value = {k: with_installed_levels(v) for k, v in value.items()}
        if isinstance(value.get("bot"), str) or isinstance(value.get("takeover_bot"), str):
            value = {**value, **{k: "random" for k in ("bot", "takeover_bot") if value.get(k)}}
        if isinstance(value.get("level"), str):
            value["level"] = "random"
        return value
    if isinstance(value, list):
        return [with_installed_levels(v) for v in value]
    return value


EXAMPLES_PER_OPERATION = 25
LONG_POLLS = ("/stream", "/inbox")  # they wait: the other tests cover them


def refusals_unexplained(operation, target, token, player):
    """Draw schema-valid requests of `operation` (on the game `target`, with `token`),
    send them, and list the 400/422 answers that no_schema_says does not explain."""
    unexplained = []

    @given(case=operation.as_strategy(generation_mode=GenerationMode.POSITIVE))
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def accepted(case):
        parameters = dict(case.path_parameters or {})
        if "game_id" in parameters:
            parameters["game_id"] = target["id"]
        if "player_id" in parameters:
            parameters["player_id"] = player["id"]
        case.path_parameters = parameters
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
        if case.query and "wait" in case.query:
            case.query["wait"] = 0
        if isinstance(case.body, dict | list):
            case.body = with_installed_levels(as_sent(case.body))
        answer = case.call()
        if answer.status_code in (400, 422):
            problem = answer.json()
            if not no_schema_says(operation.label, problem, case.body):
                unexplained.append((operation.label, case.body or case.query, problem))

    accepted()
    return unexplained


def test_schema_valid_requests_are_refused_only_for_what_no_schema_can_say(deps):
    """Every operation but the long polls, EXAMPLES_PER_OPERATION requests each, drawn
    from the document: the path's game is a real one (running, or finished for its
    replays and forks) and the bearer a seat's or a player's token."""
    deps.config = dataclasses.replace(deps.config, rate_limits=False)
    app = create_app(deps)
    client = app.test_client()
    player = client.post("/v1/players", json={"name": "pat"}).get_json()
    running = {g: client.post("/v1/games", json=new_game(g, humans(3))) for g in games.NAMES}
    running = {g: answer.get_json() for g, answer in running.items()}
    finished = client.post("/v1/games", json=new_game("alebrijes", rounds=1)).get_json()
    finish(deps, finished["id"])
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    unexplained = []
    for result in schema.get_all_operations():
        operation = result.ok()
        path = operation.path
        if path.endswith(LONG_POLLS):
            continue
        game = next((g for g in games.NAMES if path.startswith(f"/v1/{g}/")), "alebrijes")
        target = finished if path.endswith(("/fork", "/replay", "/export")) else running[game]
        mine = "/players/me" in path or "matchmaking" in path or "leaderboards" in path
        token = player["token"] if mine else target["seats"][0]["token"]
        unexplained += refusals_unexplained(operation, target, token, player)
    assert not unexplained, unexplained[:5]
