"""The service's processes started for real (`python -m services.<name>`), for the
tests that kill them: the fault suite, timers after a crash, projectors that die."""

import os
import resource
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil

from services import embedded_redis

ROOT = Path(__file__).resolve().parents[1]
# The suite checks that our processes lose nothing; with `everysec`, a disk busy with
# other work could make Redis itself lose the last seconds' writes to a SIGKILL
# (services/embedded_redis.py), and the result would depend on the machine.
FSYNC = "always"


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


def start_api(env, log_path, port, files=None):
    """Start the API as deployed (gunicorn, deploy/gunicorn.conf.py) with one worker
    on 127.0.0.1:`port`; return the process once /healthz answers. `files`: its hard
    limit on open files (RLIMIT_NOFILE), as a host's `ulimit -Hn` would set it."""
    log = open(log_path, "a")

    def limit_files():
        resource.setrlimit(resource.RLIMIT_NOFILE, (files // 2, files))

    gunicorn = [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        str(ROOT / "deploy" / "gunicorn.conf.py"),
    ]
    process = subprocess.Popen(
        [*gunicorn, "--bind", f"127.0.0.1:{port}", "services.api:create_app()"],
        cwd=ROOT,
        env={**env, "WEB_CONCURRENCY": "1", "LOG_FORMAT": "text"},
        stdout=log,
        stderr=subprocess.STDOUT,
        preexec_fn=limit_files if files else None,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).close()
            return process
        except OSError:
            assert process.poll() is None, f"the API exited early; see {log_path}"
            time.sleep(0.1)
    kill_tree(process)
    raise AssertionError("the API did not start in time")


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


class Stack:
    """Redis, a projector and workers as real processes, and a supervisor's duty:
    `revive()` restarts any of them that has exited, as a process runner would."""

    def __init__(self, directory, keys, workers=2):
        self.directory = Path(directory)
        self.keys = keys
        (self.directory / "redis").mkdir(parents=True, exist_ok=True)
        self.redis, self.url = embedded_redis.start(self.directory / "redis", appendfsync=FSYNC)
        self.port = int(self.url.rsplit(":", 1)[1].split("/")[0])
        self.env = service_env(self.url, keys)
        self.log = self.directory / "services.log"
        self.projector = start("projector", self.env, self.log)
        self.workers = [start("worker", self.env, self.log) for _ in range(workers)]

    def kill_redis(self):
        """SIGKILL redis-server and start it again on its port from its append-only file."""
        self.redis.send_signal(signal.SIGKILL)
        self.redis.wait(10)
        self.redis, _ = embedded_redis.start(
            self.directory / "redis", port=self.port, appendfsync=FSYNC
        )

    def kill_projector(self):
        kill_tree(self.projector)
        self.projector = start("projector", self.env, self.log)

    def kill_workers(self, *which):
        """SIGKILL the workers `which` (indexes; all when none) and start new ones."""
        for index in which or range(len(self.workers)):
            kill_tree(self.workers[index])
            self.workers[index] = start("worker", self.env, self.log)

    def revive(self):
        if self.projector.poll() is not None:
            self.projector = start("projector", self.env, self.log)
        for index, worker in enumerate(self.workers):
            if worker.poll() is not None:
                self.workers[index] = start("worker", self.env, self.log)

    def stop(self):
        for process in [self.projector, *self.workers]:
            stop(process)
        stop(self.redis)
