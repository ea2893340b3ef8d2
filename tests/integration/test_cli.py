"""`tablestream`, the one CLI: its console script, openapi, replay of one and of many
logs, and rebuild against a real Redis."""

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from services import cli
from services.api import openapi
from tests.fixtures import build_deps
from tests.helpers import finished_log


def invoke(*args, env=None):
    return CliRunner().invoke(cli.cli, list(args), env=env, catch_exceptions=False)


def test_the_console_script_is_installed_and_lists_every_subcommand():
    script = Path(sys.executable).with_name("tablestream")
    answer = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60)
    assert answer.returncode == 0, answer.stderr
    for command in ("run", "rebuild", "replay", "tournament", "bench", "openapi", "worker"):
        assert f"  {command} " in answer.stdout


def test_openapi_prints_the_document():
    assert invoke("openapi").output == openapi.document()


def test_replay_checks_many_logs_and_names_the_one_that_fails(tmp_path):
    paths = []
    for number, game in enumerate(("alebrijes", "abluxxen", "alebrijes")):
        log = finished_log(game, {"rounds": 1} if game == "alebrijes" else {}, seed=f"s{number}")
        if number == 2:
            log[-1] = {**log[-1], "result": {**log[-1]["result"], "winners": [9]}}
        path = tmp_path / f"game{number}.json"
        path.write_text(json.dumps({"events": log}))
        paths.append(str(path))
    good = invoke("replay", "--no-progress", *paths[:2])
    assert good.exit_code == 0 and "2 of 2 logs check out" in good.output
    bad = invoke("replay", "--no-progress", *paths)
    assert bad.exit_code == 1
    assert "2 of 3 logs check out" in bad.output and f"{paths[2]}: " in bad.output
    one = invoke("replay", paths[0], "--at", "5", "--seat", "1")
    assert one.exit_code == 0 and "the log checks out" in one.output


def test_rebuild_builds_every_read_model_again(redis_url, keys, real_redis):
    d = build_deps(real_redis, keys)
    game_id = d.service.create("alebrijes", [{"name": "a"}, {"name": "b"}], {"seed": 3})["id"]
    assert real_redis.get(keys.summary(game_id)) is None
    result = invoke(
        "rebuild",
        "--no-progress",
        "--jobs",
        "2",
        env={"REDIS_URL": redis_url, "KEY_PREFIX": keys.prefix},
    )
    assert result.exit_code == 0, result.output
    assert "rebuilt the read models of 1 games" in result.output
    assert json.loads(real_redis.get(keys.summary(game_id)))["status"] == "active"


def test_bench_names_a_missing_benchmark():
    result = CliRunner().invoke(cli.cli, ["bench", "no_such_bench"])
    assert result.exit_code == 1 and "no benchmark" in result.output


def test_backup_then_restore_under_another_prefix_rebuilds_and_verifies(
    redis_url, keys, real_redis, tmp_path
):
    d = build_deps(real_redis, keys)
    game_id = d.service.create("alebrijes", [{"name": "a"}, {"name": "b"}], {"seed": 3})["id"]
    path = tmp_path / "backup.jsonl"
    env = {"REDIS_URL": redis_url, "KEY_PREFIX": keys.prefix, "TOKEN_SECRET": "test-secret"}
    result = invoke("backup", str(path), env=env)
    assert result.exit_code == 0 and "backed up 1 games" in result.output, result.output
    elsewhere = {**env, "KEY_PREFIX": f"{keys.prefix}restored:"}
    result = invoke("restore", str(path), env=elsewhere)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"games": 1, "finished": 0, "problems": {}}
    restored = real_redis.get(f"{keys.prefix}restored:g:{{{game_id}}}:summary")
    assert json.loads(restored)["status"] == "active"
    again = invoke("restore", str(path), env=elsewhere)
    assert again.exit_code != 0
