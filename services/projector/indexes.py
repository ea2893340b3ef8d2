"""The indexes across games, kept in step with the read models: the lobbies (games
waiting for players) and the live set (games not yet over, scored by when the sweep
next looks at each).

A game's status and next look are touched only when they are not what this projector
last put there (`Known.indexed`, `Known.next_look`), so a move rarely costs a round
trip here. A projector that restarts remembers nothing and touches them again, which
repairs a crash between a write and its indexes.
"""

import time

from services.projector.known import Known
from services.projector.retention import OVER

# Known.indexed of a game a rebuild took out of every index (lobbies and live).
UNINDEXED = "unindexed"


def update(redis, keys, known, saved, sweep_ms):
    """After the writes of `saved` ({game_id: (was, tail, current, _)}): the lobby and
    the end of a game are touched when its status is not the one last put there; the
    sweep's next look is pushed out (one ZADD for the batch) only when it is less than
    half the sweep's interval (`sweep_ms`) away. `known` (KnownGames) learns what the
    indexes now hold."""
    if not saved:
        return
    pipe = redis.pipeline(transaction=False)
    live = {}
    now = now_ms()
    for game_id, (was, tail, current, _) in saved.items():
        status = current["status"]
        unindexed = was.indexed == UNINDEXED  # in no index: nothing to take out
        if status in OVER:  # (its expiry went with the write)
            if not unindexed:
                pipe.zrem(keys.live, game_id)
        elif was.next_look - now < sweep_ms // 2:  # just looked at: the sweep may wait
            live[game_id] = now + sweep_ms
        if status == was.indexed or (unindexed and status != "waiting"):
            continue
        for lobby in (keys.lobby, keys.lobby_of(current["game"])):
            if status == "waiting":
                pipe.zadd(lobby, {game_id: tail.first_at}, nx=True)
            else:
                pipe.zrem(lobby, game_id)
    if live:
        pipe.zadd(keys.live, live)
    if len(pipe):
        pipe.execute()
    for game_id, (was, tail, current, _) in saved.items():
        if current["status"] in OVER:
            continue  # forgotten when written
        was_known = known.get(game_id)
        if was_known is not None and was_known.version == tail.version:
            next_look = live.get(game_id, was.next_look)
            known.put(
                game_id, Known(was_known.version, was_known.table, current["status"], next_look)
            )


def now_ms():
    return int(time.time() * 1000)
