"""A crash of Redis itself loses no acknowledged move: the service acknowledges a move
only once Redis has it, and the embedded server that `make run` starts keeps an
append-only file.

The crash test runs Redis with `appendfsync always`, as the fault suite does
(tests/processes.py): with `everysec` a disk busy with other work lets Redis postpone
its AOF write and lose the last seconds to a SIGKILL (docs/operations.md), and the
test then failed on a loaded machine for a reason that is not ours."""

import signal

import redis

from services import deps as deps_module
from services import embedded_redis
from shared import table
from shared.config import Config
from tests.processes import FSYNC


def deps_on(url):
    config = Config(redis_url=url, queue_url=url, token_secret="s")
    return deps_module.build(config)


def test_every_acknowledged_move_survives_a_killed_redis(tmp_path):
    process, url = embedded_redis.start(tmp_path, appendfsync=FSYNC)
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    try:
        d = deps_on(url)
        game_id = d.service.create("alebrijes", [{"name": "a"}, {"name": "b"}], {"seed": 9})["id"]
        for _ in range(30):
            _, current = d.service.load(game_id)
            seat = table.to_act(current)[0]
            command = table.rules_of(current).legal(current["rules"], seat)[0]
            acknowledged, _, after = d.service.command(game_id, seat, command)
        process.send_signal(signal.SIGKILL)  # no shutdown, no final save
        process.wait(10)
        process, url = embedded_redis.start(tmp_path, port=port, appendfsync=FSYNC)
        again = deps_on(url)
        assert again.store.version(game_id) == acknowledged
        log = again.store.read(game_id)
        assert table.fold((r.event, r.at) for r in log) == after
    finally:
        process.kill()
        process.wait(10)


def test_the_embedded_server_is_configured_for_it(tmp_path):
    process, url = embedded_redis.start(tmp_path)
    try:
        config = redis.Redis.from_url(url).config_get("append*")
        assert config["appendonly"] == "yes"
    finally:
        process.kill()
        process.wait(10)
