"""Replaying a finished game's log offline: the checks a player can make alone."""

import hashlib
import json
import random

import pytest

from services import replay as replay_cli
from shared import replay, table
from shared.games.alien.scenarios import arrange_deck
from tests.helpers import finished_log

ALIEN_HANDS = [
    ["C12", "C38", "A5", "H1", "C57"],
    ["A6", "A7", "C02", "C03", "C04"],
    ["A4", "A9", "C06", "C07", "C08"],
]
GAMES = [("alebrijes", {"rounds": 1}), ("alien", {}), ("alakablast", {}), ("abluxxen", {})]


def assert_not_decided(log):
    (problem,) = replay.check(log)
    assert problem.startswith("event ") and "is not what the rules decide" in problem
    return problem


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_genuine_log_checks_out_and_replays_to_its_result(game, options):
    log = finished_log(game, options)
    assert replay.check(log) == []
    assert replay.table_at(log)["result"] == log[-1]["result"]


def test_a_seed_that_does_not_match_its_published_hash_is_caught():
    log = finished_log("alebrijes", {"rounds": 1})
    log[0] = {**log[0], "seed": "another"}
    assert any("seed_sha256" in p for p in replay.check(log))


def test_a_forged_seed_at_the_end_is_named_as_the_seed():
    log = finished_log("alebrijes", {"rounds": 1})
    log[-1] = {**log[-1], "seed": "another"}
    (problem,) = replay.check(log)
    assert problem.startswith(f"event {len(log)} (game_ended) reveals another seed")
    assert "the seed does not match its commitment" in problem


def test_another_seed_with_its_own_commitment_is_caught_at_the_first_deal_it_changes():
    log = finished_log("alebrijes", {"rounds": 1})
    salt = log[0]["seed_salt"]
    log[0] = {**log[0], "seed": "another", "seed_sha256": table.seed_sha256("another", salt)}
    log[-1] = {**log[-1], "seed": "another"}
    dealt = next(i for i, r in enumerate(log) if r["type"] == "dealt")
    problem = assert_not_decided(log)
    assert problem.startswith(f"event {dealt + 1} (dealt) is not what the rules decide")
    assert "hands" in problem


def test_an_opening_deal_the_seed_does_not_give_is_caught():
    log = finished_log("alebrijes", {"rounds": 1})
    dealt = next(i for i, r in enumerate(log) if r["type"] == "dealt")
    hands = [list(h) for h in log[dealt]["hands"]]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # swap two cards between seats
    log[dealt] = {**log[dealt], "hands": hands}
    assert_not_decided(log)


def test_a_forged_result_is_caught():
    log = finished_log("abluxxen", {})
    forged = {**log[-1]["result"], "winners": [9]}
    log[-1] = {**log[-1], "result": forged}
    assert_not_decided(log)


def test_a_move_that_was_not_the_one_sent_is_caught():
    log = finished_log("alebrijes", {"rounds": 1})
    played = next(i for i, r in enumerate(log) if r["type"] == "played")
    log[played] = {**log[played], "cards": ["J5"]}  # the log claims another card was played
    assert_not_decided(log)


def test_an_event_that_no_command_explains_is_caught():
    log = finished_log("alebrijes", {"rounds": 1})
    dealt = next(i for i, r in enumerate(log) if r["type"] == "dealt")
    log.insert(dealt + 1, {**log[dealt], "type": "table_cleared"})
    assert replay.check(log)


def test_timeouts_takeovers_and_the_tables_timers_are_decided_again_too():
    deck = arrange_deck(ALIEN_HANDS, "C15")
    events = table.create(
        "g1",
        "alien",
        [{"name": "a"}, {"name": "b"}, {"bot": "random"}],
        {"seed": "t", "deck": deck, "zombie_after": 1},
        "t",
        "salt",
    )
    current = table.fold(events)
    for decide in (
        lambda t: table.play(t, 2, {"type": "claim", "card": "A4", "table": "C15"}, "bot"),
        lambda t: table.time_out(t, 0),  # seat 0 must stack and does not: a bot takes over
        lambda t: table.fire(t, "window-1"),  # seat 1 never stacks: the window closes
        lambda t: table.resign(t, 1),
    ):
        batch = decide(current)
        current = table.fold(batch, current)
        events += batch
    log = [{**e, "version": v, "at": v} for v, e in enumerate(events, start=1)]
    log[0]["seed"] = "t"
    kinds = [r["type"] for r in log]
    assert {"timed_out", "seat_taken_over", "timer_fired", "window_closed"} <= set(kinds)
    assert replay.check(log) == []


def test_a_running_games_log_is_not_whole():
    log = finished_log("alebrijes", {"rounds": 1})
    log[0] = {k: v for k, v in log[0].items() if k not in ("seed", "deck")}  # as redacted
    assert replay.check(log) == [
        "the seed is not in the log: a game's log is whole only once it has finished"
    ]


def test_the_table_at_a_version_is_the_table_the_game_had_then():
    snapshots = {}
    log = finished_log("alebrijes", {"rounds": 1}, snapshots=snapshots)
    for version in list(snapshots)[:: max(1, len(snapshots) // 10)]:
        assert replay.table_at(log, version) == snapshots[version]


def test_the_command_line_checks_a_log_file_and_shows_a_seats_view(tmp_path, capsys):
    log = finished_log("alebrijes", {"rounds": 1})
    path = tmp_path / "log.json"
    path.write_text(json.dumps({"events": log, "version": len(log)}))
    assert replay_cli.main([str(path), "--at", "5", "--seat", "1"]) == 0
    out = capsys.readouterr().out
    assert "the log checks out" in out and '"hand"' in out
    log[0]["seed"] = "forged"
    path.write_text(json.dumps(log))
    assert replay_cli.main([str(path)]) == 1


def test_the_command_line_reads_json_lines_too(tmp_path, capsys):
    log = finished_log("alien", {})
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in log))
    assert replay_cli.main([str(path)]) == 0
    assert f"{len(log)} events" in capsys.readouterr().out


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_fork_keeps_the_position_shuffles_the_pile_and_its_log_checks_out(game, options):
    log = finished_log(game, options)
    at = next(r["version"] - 1 for r in log[len(log) // 2 :] if r["type"] == "commanded")
    seats = [{"name": "x"}, {"name": "y"}, {"name": "z"}]
    events = replay.fork(log, at, "f1", seats, "fresh")
    assert [e["type"] for e in events] == ["game_created", "game_started"]
    assert events[0]["forked_from"] == {"game": "g1", "version": at}
    forked, position = table.fold(events), replay.table_at(log, at)["rules"]
    assert forked["rules"]["hands"] == position["hands"]
    assert sorted(forked["rules"]["draw_pile"]) == sorted(position["draw_pile"])
    assert forked["rules"]["seed"] == "fresh" and table.to_act(forked)
    rng = random.Random(2)
    while forked["status"] != "finished":
        seat = table.to_act(forked)[0]
        command = rng.choice(table.rules_of(forked).legal(forked["rules"], seat))
        batch = table.play(forked, seat, command)
        forked = table.fold(batch, forked)
        events += batch
    records = [{**e, "version": v, "at": 1} for v, e in enumerate(events, start=1)]
    assert replay.problems_of_upload(records) == []


def test_the_replay_command_checks_the_salted_seed(tmp_path, capsys):
    log = finished_log("alebrijes", {"rounds": 1})
    assert log[0]["seed_salt"] == "salt" and log[-1]["seed_salt"] == "salt"
    path = tmp_path / "log.json"
    path.write_text(json.dumps({"events": log}))
    assert replay_cli.main([str(path)]) == 0
    unsalted = [{**log[0], "seed_sha256": hashlib.sha256(b"fair").hexdigest()}, *log[1:]]
    path.write_text(json.dumps(unsalted))  # the hash of the seed alone no longer verifies
    assert replay_cli.main([str(path)]) == 1
    assert "seed_sha256" in capsys.readouterr().out
