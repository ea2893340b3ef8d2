"""Clients generated from openapi.yaml, as the API's users generate them, play whole
games against `make run`'s stack using only their typed calls and models.

- openapi-python-client: one full game of each of the four games, every command taken
  from the typed `legal` list, round-tripped through its class and sent with the typed
  per-game operation; every model parsed has nothing left in `additional_properties`
  (every field is in the document).
  The finished games are then replayed, exported, uploaded back and forked through the
  typed replay operations.
- openapi-generator (`python`): its models parse every view and event those games
  produced, as each seat and a spectator saw them.
- TypeScript (openapi-typescript + openapi-fetch): compiles under `tsc --strict` and
  plays one game under Node.
- Redocly lint and openapi-spec-validator find no error in the document.
"""

import importlib
import json
import random
import time

import pytest
import yaml
from openapi_spec_validator import validate

from tests.e2e import clients

pytestmark = pytest.mark.e2e

GAMES = {
    "alebrijes": {"seed": 11, "rounds": 1},
    # Every seat stacks at once here; a long window keeps its timer out of the way.
    "alien": {"seed": 11, "stack_seconds": 30},
    "alakablast": {"seed": 11},
    "abluxxen": {"seed": 11},
}
PLAYERS = 3


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    return clients.python_client(tmp_path_factory.mktemp("python-client"))


@pytest.fixture(scope="module")
def og_models(tmp_path_factory):
    return clients.generator_models(tmp_path_factory.mktemp("openapi-generator"))


def leftovers(value, path="model"):
    """Every place in a parsed model where a field was not in the document."""
    found = []
    extra = getattr(value, "additional_properties", None)
    if extra:
        found.append(f"{path}: {sorted(extra)}")
    if hasattr(value, "__attrs_attrs__"):
        for attribute in value.__attrs_attrs__:
            if attribute.name != "additional_properties":
                found += leftovers(getattr(value, attribute.name), f"{path}.{attribute.name}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += leftovers(item, f"{path}[{i}]")
    return found


class TypedTable:
    """One game played through the generated Python client's typed calls only."""

    def __init__(self, package, base, game):
        self.package = package
        self.game = game

        def operation(name):
            return importlib.import_module(f"{package.__name__}.api.{game}.{name}")

        self.get_view = operation(f"get_{game}_view")
        self.send = operation(f"send_{game}_command")
        self.get_events = operation(f"get_{game}_events")
        self.anonymous = package.Client(base_url=base, raise_on_unexpected_status=True)
        self.base = base
        self.raw = []  # (schema name, JSON text) of every view and event page seen

    def create(self, options):
        from tablestream_client import models
        from tablestream_client.api.games import create_game
        from tablestream_client.models import HumanSeat, HumanSeatKind

        # One game's body: its own options class, its own `game` tag.
        title = self.game.capitalize()
        create = getattr(models, f"Create{title}Game")
        body = create(
            game=getattr(models, f"Create{title}GameGame")(self.game),
            seats=[HumanSeat(kind=HumanSeatKind.HUMAN, name=f"p{i}") for i in range(PLAYERS)],
            options=getattr(models, f"{title}TableOptions").from_dict(options),
        )
        assert leftovers(body.options) == []  # every option is the game's own
        created = create_game.sync(client=self.anonymous, body=body)
        assert leftovers(created) == []
        self.id = created.id
        self.seats = [
            self.package.AuthenticatedClient(
                base_url=self.base, token=s.token, raise_on_unexpected_status=True
            )
            for s in created.seats
        ]
        return created.version

    def view(self, client, after=None):
        kwargs = {} if after is None else {"after": after, "wait": 10}
        answer = self.get_view.sync_detailed(client=client, game_id=self.id, **kwargs)
        assert answer.status_code == 200, answer.content  # a typed view: never a 304
        self.raw.append((f"{self.game.capitalize()}View", answer.content))
        assert leftovers(answer.parsed) == [], answer.content
        return answer.parsed

    def events(self, client):
        answer = self.get_events.sync_detailed(client=client, game_id=self.id, limit=1000)
        assert answer.status_code == 200
        self.raw.append((f"{self.game.capitalize()}EventPage", answer.content))
        assert leftovers(answer.parsed) == [], answer.content
        return answer.parsed


def play_typed(package, base, game, options):
    """Play a whole game with the typed client; return the table and its move count."""
    typed = TypedTable(package, base, game)
    rng = random.Random(game)
    version = typed.create(options)
    for move in range(5000):
        spectator = typed.view(typed.anonymous, after=version - 1)
        version = spectator.version
        if spectator.status.value == "finished":
            return typed, move
        if not spectator.to_act:  # Alien: a stacking window closes on the server's clock
            typed.view(typed.anonymous, after=version)
            version += 1
            continue
        seat = spectator.to_act[0]
        mine = typed.view(typed.seats[seat])
        assert mine.version == version and mine.legal, "the acting seat has no command"
        command = rng.choice(mine.legal)
        again = type(command).from_dict(command.to_dict())
        assert again.to_dict() == command.to_dict() and leftovers(again) == []
        moved = typed.send.sync(client=typed.seats[seat], game_id=typed.id, body=command)
        assert not hasattr(moved, "code"), f"{command.to_dict()} refused: {moved.to_dict()}"
        assert moved.version > version and moved.view.version == moved.version
        assert moved.view.seat == seat and leftovers(moved) == []
        version = moved.version
        if move % 25 == 0:  # the log as each seat sees it while the game runs
            for client in [typed.anonymous, *typed.seats]:
                typed.events(client)
    raise AssertionError(f"{game} did not finish")


@pytest.fixture(scope="module")
def played(stack, generated):
    """Each game played once by the typed Python client."""
    return {game: play_typed(generated, stack.base, game, o) for game, o in GAMES.items()}


@pytest.mark.parametrize("game", list(GAMES))
def test_openapi_python_client_plays_a_whole_game(played, game):
    typed, moves = played[game]
    assert moves > 5
    final = typed.view(typed.anonymous)
    assert final.status.value == "finished" and len(final.result.scores) == PLAYERS
    log = typed.events(typed.anonymous)
    kinds = {type(event).__name__ for event in log.events}
    assert f"{game.capitalize()}Commanded" in kinds and "GameEnded" in kinds
    assert all(not kind.endswith("Event") for kind in kinds)  # every event typed


def test_openapi_python_client_types_the_generic_view_by_game(stack, generated, played):
    from tablestream_client.api.play import get_view

    for game, (typed, _) in played.items():
        view = get_view.sync(client=typed.anonymous, game_id=typed.id)
        assert type(view).__name__ == f"{game.capitalize()}View"


def test_openapi_python_client_replays_exports_imports_and_forks_typed(played, generated):
    from tablestream_client.api.replays import export_game, fork_game, get_replay, import_replay
    from tablestream_client.models import (
        BotSeat,
        BotSeatKind,
        Fork,
        HumanSeat,
        HumanSeatKind,
    )

    for game, (typed, _) in played.items():
        title, anyone = game.capitalize(), typed.anonymous
        replay = get_replay.sync(client=anyone, game_id=typed.id, at=8, seat=1)
        assert type(replay).__name__ == f"{title}Replay" and leftovers(replay) == []
        assert type(replay.view).__name__ == f"{title}View" and replay.view.seat == 1
        everyone = get_replay.sync(client=anyone, game_id=typed.id, at=8, everyone=True)
        assert [view.seat for view in everyone.everyone] == list(range(PLAYERS))
        log = export_game.sync(client=anyone, game_id=typed.id)
        assert type(log).__name__ == f"{title}EventPage" and leftovers(log) == []
        imported = import_replay.sync(client=anyone, body=log)
        assert imported.verdict.value == "checks_out" and imported.version == log.version
        bot = BotSeat(kind=BotSeatKind.BOT, bot="random")
        seats = [HumanSeat(kind=HumanSeatKind.HUMAN, name="ana"), *[bot] * (PLAYERS - 1)]
        forked = fork_game.sync(client=anyone, game_id=typed.id, body=Fork(at=8, seats=seats))
        assert forked.forked_from.game == typed.id and forked.forked_from.version >= 8
        assert forked.seats[0].token


@pytest.mark.parametrize("game", list(GAMES))
def test_openapi_generator_models_parse_every_view_and_event(played, og_models, game):
    typed, _ = played[game]
    assert len(typed.raw) > 20
    for schema, text in typed.raw:
        parsed = getattr(og_models, schema).from_json(text.decode())
        assert parsed.to_dict()["version"] == json.loads(text)["version"]
    page = json.loads(typed.raw[-1][1])
    for event in page["events"]:  # and each event through the union of the game's events
        union = getattr(og_models, f"{game.capitalize()}Event").from_json(json.dumps(event))
        assert type(union.actual_instance).__name__ != "dict"


def test_a_typescript_client_compiles_strict_and_plays_a_game(stack, tmp_path):
    tools = clients.node_tools()
    clients.run([str(tools / "openapi-typescript"), str(clients.SPEC), "-o",
                 str(tmp_path / "schema.d.ts")])  # fmt: skip
    program = clients.NODE_PROJECT / "play.ts"
    (tmp_path / "play.ts").write_text(program.read_text())
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "node_modules").symlink_to(tools.parent)
    clients.run([str(tools / "tsc"), "--strict", "--target", "es2022", "--module", "nodenext",
                 "--moduleResolution", "nodenext", "--skipLibCheck", "--types", "node", "play.ts"],
                cwd=tmp_path)  # fmt: skip
    out = clients.run([clients.need("node"), "play.js", stack.base], cwd=tmp_path)
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["status"] == "finished" and summary["moves"] > 5
    assert len(summary["result"]["scores"]) == 3


def test_a_typescript_client_plays_as_players(stack, tmp_path):
    """Two guests, an invitation accepted, a game to its end with player tokens, the
    inbox and games read, a deletion: typed by openapi-typescript, strict."""
    tools = clients.node_tools()
    clients.run([str(tools / "openapi-typescript"), str(clients.SPEC), "-o",
                 str(tmp_path / "schema.d.ts")])  # fmt: skip
    (tmp_path / "players.ts").write_text((clients.NODE_PROJECT / "players.ts").read_text())
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "node_modules").symlink_to(tools.parent)
    clients.run([str(tools / "tsc"), "--strict", "--target", "es2022", "--module", "nodenext",
                 "--moduleResolution", "nodenext", "--skipLibCheck", "--types", "node",
                 "players.ts"], cwd=tmp_path)  # fmt: skip
    out = clients.run([clients.need("node"), "players.js", stack.base], cwd=tmp_path)
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["moves"] > 5 and summary["finished"] and summary["rematch"]
    assert summary["kinds"][:2] == ["invited", "game_started"] and "game_ended" in summary["kinds"]
    assert summary["deleted"] == 204 and summary["name"] == "deleted player"


def test_redocly_and_the_spec_validator_find_no_error():
    validate(yaml.safe_load(clients.SPEC.read_text()))
    tools = clients.node_tools()
    out = clients.run([str(tools / "redocly"), "lint", str(clients.SPEC), "--format", "json"])
    report = json.loads(out)
    errors = [p for p in report["problems"] if p["severity"] == "error"]
    assert errors == [], errors


def test_openapi_python_client_plays_as_players(stack, generated):
    """A guest signs up, invites another, who accepts; they play a rated game to its end
    with their player tokens only, read their inboxes, games and the leaderboard; one
    is deleted."""
    from tablestream_client.api.games import accept_seat, create_game, rematch
    from tablestream_client.api.play import get_view, send_command
    from tablestream_client.api.players import (
        create_player,
        delete_me,
        get_me,
        get_my_games,
        get_my_inbox,
        get_player,
    )
    from tablestream_client.api.ratings import get_leaderboard, get_player_ratings
    from tablestream_client.models import (
        AlebrijesTableOptions,
        CreateAlebrijesGame,
        CreateAlebrijesGameGame,
        GetLeaderboardAround,
        GetMyGamesStatus,
        NewPlayer,
        PlayerSeat,
        PlayerSeatKind,
    )

    anyone = generated.Client(base_url=stack.base, raise_on_unexpected_status=True)
    ana = create_player.sync(client=anyone, body=NewPlayer(name="ana typed"))
    bea = create_player.sync(client=anyone, body=NewPlayer(name="bea typed"))
    assert leftovers(ana) == [] and ana.token

    def as_player(made):
        return generated.AuthenticatedClient(
            base_url=stack.base, token=made.token, raise_on_unexpected_status=True
        )

    players = [as_player(ana), as_player(bea)]
    body = CreateAlebrijesGame(
        game=CreateAlebrijesGameGame.ALEBRIJES,
        seats=[
            PlayerSeat(kind=PlayerSeatKind.PLAYER, player="me"),
            PlayerSeat(kind=PlayerSeatKind.PLAYER, player=bea.id),
        ],
        options=AlebrijesTableOptions.from_dict({"seed": 4, "rounds": 1, "rated": True}),
    )
    created = create_game.sync(client=players[0], body=body)
    assert created.seats[1].invited and created.seats[1].token is None
    accepted = accept_seat.sync(client=players[1], game_id=created.id, seat=1)
    assert accepted.seat == 1
    version = accepted.version
    for _ in range(3000):
        view = get_view.sync(client=anyone, game_id=created.id, after=version - 1, wait=10)
        version = view.version
        if view.status.value == "finished":
            break
        seat = view.to_act[0]
        mine = get_view.sync(client=players[seat], game_id=created.id)
        moved = send_command.sync(client=players[seat], game_id=created.id, body=mine.legal[0])
        assert not hasattr(moved, "code"), moved.to_dict()
        version = moved.version
    assert view.status.value == "finished"
    for client in players:
        me = get_me.sync(client=client)
        assert leftovers(me) == [] and me.guest
        games = get_my_games.sync(client=client, status=GetMyGamesStatus("finished"))
        assert [g.id for g in games.games] == [created.id] and leftovers(games) == []
        inbox = get_my_inbox.sync(client=client)
        assert leftovers(inbox) == [] and {"invited", "game_started"} & {
            item.kind.value for item in inbox.items
        }
    for _ in range(100):  # the projector rates the game once it has projected its end
        board = get_leaderboard.sync(client=anyone, game="alebrijes", limit=10)
        if board.players == 2:
            break
        time.sleep(0.1)
    assert leftovers(board) == [] and {e.player for e in board.entries} == {ana.id, bea.id}
    assert [e.rank for e in board.entries] == [1, 2] and board.entries[0].provisional
    around = get_leaderboard.sync(
        client=players[1], game="alebrijes", around=GetLeaderboardAround("me"), limit=1
    )
    assert [e.player for e in around.entries] == [bea.id]
    rated = get_player_ratings.sync(client=anyone, player_id=ana.id)
    assert [(r.game.value, r.games) for r in rated.ratings] == [("alebrijes", 1)]
    offered = rematch.sync(client=players[0], game_id=created.id)
    assert offered.id != created.id and offered.seats[1].invited and leftovers(offered) == []
    assert rematch.sync(client=players[1], game_id=created.id).id == offered.id
    deleted = delete_me.sync_detailed(client=players[0])
    assert deleted.status_code == 204
    assert get_player.sync(client=anyone, player_id=ana.id).name == "deleted player"


def test_openapi_python_client_quick_matches_and_plays(stack, generated):
    """Two players open typed quick-match tickets, are matched, and play the game to its
    end with their player tokens; a cancel after the match says it was matched."""
    from tablestream_client.api.matchmaking import cancel_ticket, get_ticket, open_ticket
    from tablestream_client.api.my_tickets import get_my_tickets
    from tablestream_client.api.play import get_view, send_command
    from tablestream_client.api.players import create_player, get_my_inbox
    from tablestream_client.models import NewPlayer, NewTicket, NewTicketGame, Problem

    anyone = generated.Client(base_url=stack.base, raise_on_unexpected_status=True)
    made = [create_player.sync(client=anyone, body=NewPlayer(name=n)) for n in ("cy", "di")]
    players = [generated.AuthenticatedClient(base_url=stack.base, token=m.token) for m in made]
    body = NewTicket.from_dict(
        {"game": "alebrijes", "players": 2, "options": {"rounds": 1}, "turn_seconds": 3598}
    )
    assert body.game == NewTicketGame.ALEBRIJES
    opened = [open_ticket.sync(client=p, body=body) for p in players]
    assert all(t.status.value == "waiting" and leftovers(t) == [] for t in opened)
    for _ in range(200):
        tickets = [
            get_ticket.sync(client=p, ticket_id=t.id) for p, t in zip(players, opened, strict=True)
        ]
        if all(t.status.value == "matched" for t in tickets):
            break
        time.sleep(0.05)
    assert {t.game_id for t in tickets} == {tickets[0].game_id} and leftovers(tickets[0]) == []
    game_id = tickets[0].game_id
    by_seat = {t.seat: p for t, p in zip(tickets, players, strict=True)}
    late = cancel_ticket.sync(client=players[0], ticket_id=opened[0].id)
    assert isinstance(late, Problem) and late.code.value == "ticket_matched"
    listed = get_my_tickets.sync(client=players[1])
    assert [t.id for t in listed.tickets] == [opened[1].id]
    told = []  # `matched` comes once the game is open, a moment after the claim
    for _ in range(20):
        inbox = get_my_inbox.sync(client=players[1], after=0, wait=5)
        assert leftovers(inbox) == []
        told = [(i.kind.value, i.game_id) for i in inbox.items if i.kind.value == "matched"]
        if told:
            break
    assert told == [("matched", game_id)]
    version = 1
    for _ in range(3000):
        view = get_view.sync(client=anyone, game_id=game_id, after=version - 1, wait=10)
        version = view.version
        if view.status.value == "finished":
            break
        seat = view.to_act[0]
        mine = get_view.sync(client=by_seat[seat], game_id=game_id)
        moved = send_command.sync(client=by_seat[seat], game_id=game_id, body=mine.legal[0])
        if hasattr(moved, "code"):  # the view lagged a move: read again
            continue
        version = moved.version
    assert view.status.value == "finished"
