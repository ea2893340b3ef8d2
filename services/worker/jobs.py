"""RQ jobs. Each reads what it needs, acts through the game service, and treats a
stale situation (the game moved on since the job was scheduled) as a no-op.

A bot is given what its seat may know and nothing else: the seat's view and the game's
events as that seat saw them (its feed, redacted as the events endpoint redacts them)."""

import logging
import random

from services import deps as deps_module
from services.worker import chain
from shared import bots, jsonutil, table
from shared.games.base import RuleError

log = logging.getLogger(__name__)


def play_bot_turn(game_id, seat, version, lease=None, background=False):
    """The bot in `seat` moves, seeing only its own seat's view at `version`; then the
    bot seats after it, while they may (a bot chain: services/worker/chain.py).
    `lease`: the token of the chain this job continues; `background`: the job runs on
    the queue of games of bots only."""
    bot_chain = chain.BotChain(deps_module.current(), game_id)
    return bot_chain.play(seat, version, lease, background)


def play_bot_reaction(game_id, seat):
    """The bot in `seat` reacts, after its delay, to what it may do out of turn (a
    claim, a stack). A reflex names what it answers (a claim names the table card), so
    it is sent without an expected version: if the chance has passed, the rules refuse
    it and nothing happens."""
    d = deps_module.current()
    view = _view(d, game_id, seat)
    if view is None or not view["seats"][seat]["bot"]:
        return "stale"
    feed = _feed(d, game_id, seat, view["version"])
    if feed is None:
        return "stale"
    rng = random.Random(f"react-{game_id}-{seat}-{view['version']}")
    command = bots.react(view["seats"][seat]["bot"], view, feed, rng)
    if command is None:
        return "stale"
    try:
        d.service.command(game_id, seat, command, by="bot")
    except RuleError:
        return "stale"
    return "moved"


def fire_turn_timer(game_id, seat, version):
    """The seat's deadline at `version` has come: if the game has not moved since, the
    rules' default action is taken for it."""
    try:
        moved = deps_module.current().service.timeout(game_id, seat, version)
    except RuleError as error:  # e.g. the seat no longer has to act
        return f"refused: {error.code}"
    return "stale" if moved is None else "timed out"


def fire_table_timer(game_id, key):
    """The table's timer `key` has run out: the table sends its command, unless the
    timer has gone meanwhile (a window every seat stacked on, a game that has ended)."""
    try:
        moved = deps_module.current().service.table_timer(game_id, key)
    except RuleError as error:  # e.g. the game ended while the window was open
        return f"stale: {error.code}"
    return "stale" if moved is None else "fired"


def expire_game(game_id, version, reason):
    """The sweep found the game abandoned at `version`: call it off, unless it has
    moved since."""
    try:
        expired = deps_module.current().service.expire(game_id, version, reason)
    except RuleError as error:  # e.g. it was cancelled meanwhile
        return f"refused: {error.code}"
    return "stale" if expired is None else "expired"


def _view(d, game_id, seat):
    raw = d.redis.get(d.keys.view(game_id, seat))
    return jsonutil.loads(raw) if raw else None


def _feed(d, game_id, seat, version):
    """The game's events up to `version` as `seat` saw them, or None when the game has
    moved past `version` meanwhile (the job is stale)."""
    _, current = d.service.load(game_id)
    records = d.store.read(game_id, limit=version)
    if len(records) != version:
        return None
    return [table.event_as_seen(current, r, seat) for r in records]
