"""`rebuild [--jobs N]`: every read model again from the streams, by one process or
shared by N. Folding is Python: one process keeps one core busy, so N processes on N
idle cores rebuild up to N times as fast. Each process has its own connection and
projects whole batches of games; a game is in one batch only, so no two processes write
the same game's read models."""

import multiprocessing

from services.projector.indexes import UNINDEXED
from services.projector.known import Known
from shared import games
from shared.matchmaking.store import QueueStore

# Games a rebuild reads and writes in one round trip each (more: a batch's parsed
# streams outgrow the memory Python keeps, and each batch faults it in again).
REBUILD_BATCH = 25

_projector = None  # each process's own, made by _start


def rebuild(projector, progress=iter):
    """Throw every read model away and project every game again from its stream, in
    this process. `progress` wraps the game ids (a progress bar). Returns how many."""
    game_ids = forget_read_models(projector)
    batch = []
    for game_id in progress(game_ids):
        batch.append(game_id)
        if len(batch) == REBUILD_BATCH:
            rebuild_batch(projector, batch)
            batch = []
    rebuild_batch(projector, batch)
    projector.ratings.rebuilt()
    QueueStore(projector.redis, projector.keys).rebuild_all()  # quick match's queues
    return len(game_ids)


def forget_read_models(projector):
    """A rebuild's first step: delete every checkpoint and the lobby and live
    indexes. Returns the ids of every game, whose read models are to be rebuilt."""
    keys = projector.keys
    game_ids = projector.store.game_ids()
    pipe = projector.redis.pipeline(transaction=False)
    indexes = [keys.lobby, *map(keys.lobby_of, games.NAMES), keys.live]
    for key in [*indexes, *map(keys.checkpoint, game_ids)]:
        pipe.delete(key)  # one key a command: they live on different cluster slots
    pipe.execute()
    projector.players.forget_read_models()
    projector.ratings.forget_read_models()
    projector.known.clear()
    return game_ids


def rebuild_batch(projector, game_ids):
    """Project a batch of games whose checkpoints and indexes a rebuild deleted
    (`forget_read_models`); the first game that failed stops the rebuild."""
    if not game_ids:
        return
    # No checkpoint now (none to read or check), and in no index.
    known = dict.fromkeys(game_ids, Known(0, None, UNINDEXED))
    for result in projector.project_known(known).values():
        if isinstance(result, Exception):
            raise result


def in_parallel(make_projector, config, jobs=1, progress=iter, batch=None):
    """Rebuild the read models of a deployment with `jobs` processes (1: this one):
    each builds its projector with `make_projector(config)`. `progress` wraps the game
    ids. Returns how many games; the first game that failed stops the rebuild."""
    projector = make_projector(config)
    if jobs <= 1:
        return rebuild(projector, progress)
    game_ids = forget_read_models(projector)
    # At least 4 batches a process, so that none is left with the last big one alone.
    batch = batch or max(1, min(REBUILD_BATCH, len(game_ids) // (4 * jobs)))
    batches = [game_ids[i : i + batch] for i in range(0, len(game_ids), batch)]
    shown = iter(progress(game_ids))
    # forkserver, not fork: a process forked from one with threads (a web app's, a test
    # run's) can inherit a lock another thread held and hang; the test suite's did.
    context = multiprocessing.get_context("forkserver")
    with context.Pool(jobs, _start, (make_projector, config)) as pool:
        for done in pool.imap_unordered(_rebuild_batch, batches):
            for _ in range(done):
                next(shown, None)
    for _ in shown:  # to its end: a progress bar closes
        pass
    projector.ratings.rebuilt()
    QueueStore(projector.redis, projector.keys).rebuild_all()  # quick match's queues
    return len(game_ids)


def _start(make_projector, config):
    global _projector
    _projector = make_projector(config)


def _rebuild_batch(game_ids):
    rebuild_batch(_projector, game_ids)
    return len(game_ids)
