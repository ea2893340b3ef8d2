"""A scripted human and random bots play whole games of Alakablast and Abluxxen over
HTTP against the real processes (gunicorn, projector, RQ worker, embedded Redis), and
what the human's seat is shown, views and event feed alike, never tells it what the
rules hide from it.

The truth to check a view against is the game's own log: once the game has finished the
log is public and whole, and folding it (`shared.table.fold`) rebuilds the state at any
version the human saw.
"""

import random
import time

import pytest

from shared import table as tables

pytestmark = pytest.mark.e2e

HUMAN = 0  # the scripted human's seat
WALL_CLOCK = 120.0  # seconds a game may take before the test gives up
STEP_LIMIT = 1000  # commands the human may send in one game
POLL = 0.02  # seconds between two reads of the view


class Human:
    """Seat 0, scripted: at each of its turns it sends one of `legal`, picked by a seeded
    rng, with the version it saw as `expected_version`. It keeps every view it read (the
    first read of each version) and every event its token was shown, with the game's
    version when the server redacted it, to be checked against the log afterwards."""

    def __init__(self, client, game, seed, check_view):
        self.client = client
        self.game_id = game["id"]
        self.token = game["seats"][HUMAN]["token"]
        self.rng = random.Random(seed)
        self.check_view = check_view  # called on every view read while the game runs
        self.views = {}  # version -> the view first read at that version
        self.feed = []  # (the game's version when redacted, [events as shown])
        self.fed_up_to = 0  # the last version read from the event feed

    def play(self):
        """Play to the end, within the step and wall-clock limits; the final view."""
        deadline = time.monotonic() + WALL_CLOCK
        sent = moved_to = 0
        while True:
            assert time.monotonic() < deadline, f"game {self.game_id} still running"
            view = self.client.view(self.game_id, self.token)
            if view["version"] < moved_to:  # the read model has not caught up with us yet
                time.sleep(POLL)
                continue
            self.views.setdefault(view["version"], view)
            if view["status"] == "finished":
                return view
            assert view["status"] == "active", view
            self.check_view(view)
            if view["version"] > self.fed_up_to:
                self.read_feed()
            if view["seat"] not in view["to_act"]:
                time.sleep(POLL)
                continue
            sent += 1
            assert sent <= STEP_LIMIT, f"game {self.game_id}: {STEP_LIMIT} commands, no end"
            command = {**self.rng.choice(view["legal"]), "expected_version": view["version"]}
            response = self.client.command(self.game_id, self.token, command)
            if response.status_code == 409:
                assert response.json()["code"] == "version_conflict", response.text
                continue
            assert response.status_code == 200, (command, response.text)
            moved = response.json()
            moved_to = moved["version"]
            # The answer shows the events as the seat may see them after the move.
            self.feed.append((moved["version"], moved["events"]))

    def read_feed(self):
        events, version = self.client.events(self.game_id, self.token, after=self.fed_up_to)
        self.feed.append((version, events))
        if events:
            self.fed_up_to = events[-1]["version"]

    def feed_while_running(self, ended):
        """Every event the token was shown while the game ran (redacted when the game's
        version was still below `ended`, the version of `game_ended`), by version."""
        seen = {}
        for version, events in self.feed:
            if version < ended:
                for event in events:
                    assert seen.setdefault(event["version"], event) == event
        return seen


def whole_log(client, game_id):
    """The finished game's log, whole (a spectator's read once the game is over)."""
    log, _ = client.events(game_id)
    assert [e["version"] for e in log] == sorted({e["version"] for e in log})
    assert log[0]["type"] == "game_created" and log[0]["seed"] is not None
    assert log[-1]["type"] == "game_ended"
    return log


def replay(log, views, check):
    """Fold the log event by event; at each version the human saw, `check(view, truth)`
    with the rules' state at that version."""
    table, checked = None, set()
    for event in log:
        table = tables.fold([(event, event["at"])], table)
        view = views.get(event["version"])
        if view is not None and view["status"] == "active":
            check(view, table["rules"])
            checked.add(event["version"])
    running = {v for v, view in views.items() if view["status"] == "active"}
    assert checked == running, f"views at versions that are no event: {running - checked}"
    return table


def is_redaction(seen, public):
    """True when `seen` is `public` with some lists replaced by their length and some
    keys left out: nothing added, nothing changed."""
    if seen == public:
        return True
    if isinstance(public, list):
        if seen == len(public) and not isinstance(seen, bool):
            return True
        return (
            isinstance(seen, list)
            and len(seen) == len(public)
            and all(map(is_redaction, seen, public))
        )
    if isinstance(public, dict):
        return (
            isinstance(seen, dict)
            and set(seen) <= set(public)
            and all(is_redaction(seen[k], public[k]) for k in seen)
        )
    return False


# Alakablast ------------------------------------------------------------------------

ALAKABLAST_SPECIAL = ("L0", "S7")


def told_is_true(told, spell):
    """What the owner was told of a card is true of it, and "special" ends all else."""
    special = spell in ALAKABLAST_SPECIAL
    if told["special"]:
        return special and told["element"] is None and told["power"] is None
    return not special or (told["element"] is None and told["power"] is None)


def told_matches(told, spell):
    return (
        told_is_true(told, spell)
        and told["element"] in (None, spell[0])
        and told["power"] in (None, int(spell[1:]))
    )


def alakablast_view_live(view):
    """While the game runs: no code on any of the human's own open cards, and nothing on
    them but what its owner was told."""
    assert view["state"]["seat"] == HUMAN
    for card in view["state"]["hands"][HUMAN]:
        assert set(card) == {"open", "spell", "told"}, card
        if card["open"]:
            assert card["spell"] is None, f"own open card shown at {view['version']}: {card}"
            assert set(card["told"]) == {"element", "power", "special"}, card
        else:
            assert card["spell"] is not None and card["told"] is None, card


def alakablast_view_against_truth(view, truth):
    """Every hand as the rules hold it: the human sees its hidden cards and the others'
    open ones; its own open cards show exactly what it was told, which is true."""
    state = view["state"]
    assert state["gems"] == truth["gems"] and state["phase"] == truth["phase"]
    for owner, (hand, true_hand) in enumerate(zip(state["hands"], truth["hands"], strict=True)):
        assert len(hand) == len(true_hand), (view["version"], owner)
        for card, true in zip(hand, true_hand, strict=True):
            assert card["open"] == true["open"], (view["version"], owner, card)
            assert card["told"] == true["told"], (view["version"], owner, card, true)
            shown = owner != HUMAN if card["open"] else owner == HUMAN
            assert card["spell"] == (true["spell"] if shown else None), (owner, card, true)
            if card["open"]:
                assert told_matches(card["told"], true["spell"]), (card, true)


def own_open_cards(log):
    """Per version, the human's own open cards that the public log's event names: the
    deal's open cards and the cards it drew open after winning a duel."""
    own = {}
    for event in log:
        if event["type"] == "dealt":
            own[event["version"]] = event["hands"][HUMAN]["open"]
        elif event["type"] == "cards_drawn" and event["seat"] == HUMAN and event["open"]:
            own[event["version"]] = event["cards"]
    return own


def test_alakablast_a_human_and_two_bots_play_a_whole_game(stack):
    client = stack
    seats = [{"name": "ana"}, {"bot": "random"}, {"bot": "random"}]
    game = client.create(seats, game="alakablast", seed=11)
    human = Human(client, game, seed=11, check_view=alakablast_view_live)
    final = human.play()

    result = final["result"]
    assert result["reason"] in ("gem_target", "shared_victory")
    assert result["winners"] and len(result["scores"]) == 3
    assert result["scores"] == final["state"]["gems"]
    if result["reason"] == "gem_target":
        assert result["winners"] == [s for s, gems in enumerate(result["scores"]) if gems >= 6]
        assert len(result["winners"]) == 1
    else:
        assert result["winners"] == [0, 1, 2]
    # Once the game is over the view shows every card.
    assert all(c["spell"] for hand in final["state"]["hands"] for c in hand)

    log = whole_log(client, game["id"])
    assert log[-1]["result"] == result
    replay(log, human.views, alakablast_view_against_truth)

    # The human's event feed: where the public log names the human's own open cards,
    # the token saw only how many there were; everywhere else only a redaction of the
    # public event; and no duel card before both are revealed.
    public = {e["version"]: e for e in log}
    seen = human.feed_while_running(ended=log[-1]["version"])
    assert seen and max(seen) == len(seen) + min(seen) - 1, "the feed has gaps"
    for version, event in seen.items():
        assert is_redaction(event, public[version]), (event, public[version])
        if event["type"] == "card_chosen":
            assert "spell" not in event, event
    own = own_open_cards(log)
    assert min(own) in seen, "the deal was not read while the game ran"
    for version, codes in own.items():
        if version in seen:
            event = seen[version]
            shown = event["hands"][HUMAN]["open"] if event["type"] == "dealt" else event["cards"]
            assert shown == len(codes), f"the feed showed own open cards {codes}: {event}"
    dealt = seen[min(own)]
    assert dealt["hands"][HUMAN]["hidden"] == public[min(own)]["hands"][HUMAN]["hidden"]


# Abluxxen --------------------------------------------------------------------------

ABLUXXEN_STATE_KEYS = {
    "published",
    "phase",
    "turn",
    "hand",
    "seats",
    "display",
    "draw_pile_count",
    "discard_pile_count",
    "attack",
    "draw",
    "hands",
    "result",
}
ABLUXXEN_SEAT_KEYS = {
    "seat",
    "hand_count",
    "top_row",
    "top_row_value",
    "covered_count",
    "front_count",
    "scoring_pile_count",
    "score",
}


def abluxxen_view_live(view):
    """While the game runs: the human's own hand, and of the other seats only counts
    and their top rows."""
    state = view["state"]
    assert set(state) == ABLUXXEN_STATE_KEYS, sorted(state)
    assert state["hands"] is None, f"every hand shown at {view['version']}"
    assert isinstance(state["hand"], list)
    for entry in state["seats"]:
        assert set(entry) == ABLUXXEN_SEAT_KEYS, entry
        assert isinstance(entry["hand_count"], int)
    assert len(state["hand"]) == state["seats"][HUMAN]["hand_count"]


def abluxxen_view_against_truth(view, truth):
    state = view["state"]
    assert state["hand"] == truth["hands"][HUMAN], view["version"]
    for seat, entry in enumerate(state["seats"]):
        assert entry["hand_count"] == len(truth["hands"][seat]), (view["version"], seat)
        assert entry["top_row"] == truth["top_rows"][seat], (view["version"], seat)
    assert state["display"] == truth["display"]
    assert state["draw_pile_count"] == len(truth["draw_pile"])


@pytest.mark.parametrize("published", [False, True], ids=["rulebook", "published"])
def test_abluxxen_a_human_and_three_bots_play_a_whole_game(stack, published):
    client = stack
    seats = [{"name": "ana"}] + [{"bot": "random"}] * 3
    options = {"published": True} if published else {}
    game = client.create(seats, game="abluxxen", seed=5, **options)
    human = Human(client, game, seed=5, check_view=abluxxen_view_live)
    final = human.play()

    state, result = final["state"], final["result"]
    assert state["published"] is published
    assert result["reason"] in (("hand_empty", "supply_empty") if published else ("hand_empty",))
    assert len(result["scores"]) == 4
    best = max(result["scores"])
    assert result["winners"] == [s for s, score in enumerate(result["scores"]) if score == best]
    assert result["scores"] == [entry["score"] for entry in state["seats"]]
    assert len(state["hands"]) == 4  # every hand is shown once the game is over

    log = whole_log(client, game["id"])
    assert log[0]["options"]["published"] is published
    assert log[-1]["result"] == result
    replay(log, human.views, abluxxen_view_against_truth)

    # The feed: the deal shows the human only its own hand, a draw from the pile only
    # to the drawer; every other event is public.
    public = {e["version"]: e for e in log}
    seen = human.feed_while_running(ended=log[-1]["version"])
    assert seen and max(seen) == len(seen) + min(seen) - 1, "the feed has gaps"
    kinds = {event["type"] for event in seen.values()}
    assert {"dealt", "played", "drew"} <= kinds
    for version, event in seen.items():
        truth = public[version]
        if event["type"] == "dealt":
            assert "hands" not in event and "draw_pile" not in event, event
            assert event["hand"] == truth["hands"][HUMAN]
            event = {k: v for k, v in event.items() if k != "hand"}
        if event["type"] == "drew" and event["seat"] != HUMAN:
            assert "pile" not in event, event
        assert is_redaction(event, truth), (event, truth)
