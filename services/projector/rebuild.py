"""`rebuild [--jobs N]`: every read model again from the streams, by one process or
shared by N. Folding is Python: one process keeps one core busy, so N processes on N
idle cores rebuild up to N times as fast. Each process has its own connection and
projects whole batches of games; a game is in one batch only, so no two processes write
the same game's read models."""

import multiprocessing

from services import deps as deps_module
from services.projector.projector import REBUILD_BATCH

_projector = None  # each process's own, made by _start


def rebuild(d, jobs=1, progress=iter, batch=None):
    """Rebuild the read models of deployment `d` with `jobs` processes (1: this one;
    the others connect as `d.config` says). `progress` wraps the game ids. Returns how
    many games; the first game that failed stops the rebuild."""
    projector = d.projector()
    if jobs <= 1:
        return projector.rebuild(progress)
    game_ids = projector.forget_read_models()
    # At least 4 batches a process, so that none is left with the last big one alone.
    batch = batch or max(1, min(REBUILD_BATCH, len(game_ids) // (4 * jobs)))
    batches = [game_ids[i : i + batch] for i in range(0, len(game_ids), batch)]
    shown = iter(progress(game_ids))
    # forkserver, not fork: a process forked from one with threads (a web app's, a test
    # run's) can inherit a lock another thread held and hang; the test suite's did.
    with multiprocessing.get_context("forkserver").Pool(jobs, _start, (d.config,)) as pool:
        for done in pool.imap_unordered(_rebuild_batch, batches):
            for _ in range(done):
                next(shown, None)
    for _ in shown:  # to its end: a progress bar closes
        pass
    return len(game_ids)


def _start(config):
    global _projector
    _projector = deps_module.build(config).projector()


def _rebuild_batch(game_ids):
    _projector.rebuild_batch(game_ids)
    return len(game_ids)
