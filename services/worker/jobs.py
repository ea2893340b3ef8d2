"""RQ jobs. Each reads what it needs, acts through the game service, and treats a
stale situation (the game moved on since the job was enqueued) as a no-op."""

import logging
import random
from datetime import UTC, datetime

from services import deps as deps_module
from shared import bots, jsonutil
from shared.games.base import RuleError
from shared.store import VersionConflict

log = logging.getLogger(__name__)


def bot_job_id(game_id, seat, version):
    """One job per game, seat and version: enqueueing a turn twice is harmless."""
    return f"bot-{game_id}-{seat}-{version}"


def enqueue_bot_turn(queue, game_id, seat, version):
    queue.enqueue(
        play_bot_turn,
        game_id,
        seat,
        version,
        job_id=bot_job_id(game_id, seat, version),
        result_ttl=60,
        failure_ttl=24 * 3600,
    )


def timer_job_id(game_id, seat, version):
    return f"timer-{game_id}-{seat}-{version}"


def schedule_turn_timer(queue, game_id, seat, version, at_ms):
    """Run fire_turn_timer at the seat's deadline (the worker's scheduler enqueues it)."""
    queue.enqueue_at(
        datetime.fromtimestamp(at_ms / 1000, tz=UTC),
        fire_turn_timer,
        game_id,
        seat,
        version,
        job_id=timer_job_id(game_id, seat, version),
        result_ttl=60,
        failure_ttl=24 * 3600,
    )


def fire_turn_timer(game_id, seat, version):
    """The seat's deadline at `version` has come: if the game has not moved since, the
    rules' default action is taken for it."""
    try:
        moved = deps_module.current().service.timeout(game_id, seat, version)
    except RuleError as error:  # e.g. the seat no longer has to act
        return f"refused: {error.code}"
    return "stale" if moved is None else "timed out"


def play_bot_turn(game_id, seat, version):
    """The bot in `seat` moves, seeing only its own seat's view at `version`."""
    d = deps_module.current()
    raw = d.redis.get(d.keys.view(game_id, seat))
    view = jsonutil.loads(raw) if raw else None
    if view is None or view["version"] != version or seat not in view["to_act"]:
        return "stale"
    bot = view["seats"][seat]["bot"]
    if not bot:
        return "not a bot"
    command = bots.choose(bot, view, random.Random(bot_job_id(game_id, seat, version)))
    try:
        d.service.command(game_id, seat, command, expected_version=version, by="bot")
    except VersionConflict:
        return "stale"
    except RuleError as error:  # a bot bug: keep the worker alive and say so
        log.error("bot %s in %s seat %s refused: %s", bot, game_id, seat, error.message)
        return f"refused: {error.code}"
    return "moved"
