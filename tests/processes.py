"""The service's processes started for real (`python -m services.<name>`), for the
tests that kill them: the fault suite, timers after a crash, projectors that die."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]


def service_env(redis_url, keys, **more):
    """The environment of one deployment: its Redis, key prefix and token secret."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_URL")}
    env.update(
        REDIS_URL=redis_url,
        KEY_PREFIX=keys.prefix,
        TOKEN_SECRET="test-secret",
        PYTHONUNBUFFERED="1",
        **more,
    )
    return env


def start(name, env, log_path, *arguments):
    """Start `python -m services.<name>`, its output appended to `log_path`."""
    log = open(log_path, "a")
    return subprocess.Popen(
        [sys.executable, "-m", f"services.{name}", *arguments],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def kill_tree(process):
    """SIGKILL a process and everything it started, as a crashed host or container
    would: no handler runs, no lock is released."""
    try:
        family = [*psutil.Process(process.pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        family = []
    for member in [process, *family]:
        try:
            os.kill(member.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    process.wait(10)
    psutil.wait_procs(family, timeout=10)


def stop(process):
    """Stop a process politely, then for good."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            kill_tree(process)


def wait_for(condition, timeout, every=0.05):
    """Poll `condition()` until it is true; return the seconds it took (or fail)."""
    start_time = time.monotonic()
    while not condition():
        assert time.monotonic() - start_time < timeout, "timed out waiting"
        time.sleep(every)
    return time.monotonic() - start_time
