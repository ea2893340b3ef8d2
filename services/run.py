"""`make run` (`tablestream run`): the whole service on one machine, in the foreground,
kept up.

Starts an embedded Redis (unless REDIS_URL is set), the API under gunicorn, the
projector, a timers worker, WORKERS bot workers and a webhooks worker; prints the URL
once `/readyz` answers. A child that dies is started again after a backoff (logged and
counted); the others keep serving.
Ctrl-C (or SIGTERM) stops the API, projector and workers first, then Redis.

Each child runs in its own session, so a terminal's Ctrl-C reaches only this
supervisor, which stops them in order; on Linux each also gets PR_SET_PDEATHSIG, so
none outlives a supervisor that is killed outright (SIGKILL). `RUN_DIR/children.json`
names each child's pid, restarts and metrics port.
"""

import ctypes
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from services import embedded_redis
from services.ops import logs
from shared.config import Config

ROOT = Path(__file__).resolve().parents[1]
log = logging.getLogger("tablestream.run")

STABLE = 60.0  # a child up this long has its backoff reset
# `BACKGROUND_NICE` (Config.background_nice) puts the projector and the workers at a
# lower CPU priority than the API and Redis. Off by default: on a shared 2-core machine
# it made API requests wait longer for a core, not shorter (docs/operations.md, "CPU
# priority").
LONGEST_BACKOFF = 30.0
PR_SET_PDEATHSIG = 1


class Child:
    """One supervised process: how to start it, how to stop it, what became of it."""

    def __init__(self, name, launch, stop_signal=signal.SIGTERM, port=None, nice=0):
        self.name = name
        self.launch = launch  # (popen options) -> Popen
        self.stop_signal = stop_signal
        self.port = port  # its /metrics, /healthz, /readyz
        self.nice = nice  # added to its CPU priority's niceness
        self.process = None
        self.restarts = 0
        self.failures = 0  # in a row, for the backoff
        self.started = 0.0
        self.due = 0.0  # when to start it again, once it has died

    def start(self):
        self.process = self.launch(
            start_new_session=True, preexec_fn=_prepare(self.stop_signal, self.nice)
        )
        self.started = time.monotonic()

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def backoff(self):
        """Seconds to wait before the next start: 0.5, 1, 2... up to 30."""
        return min(LONGEST_BACKOFF, 0.5 * 2 ** max(0, self.failures - 1))


class Supervisor:
    def __init__(self, children, state):
        self.children = children
        self.state = state

    def start(self):
        for child in self.children:
            child.start()
        self._write_state()

    def tend(self):
        """Start again each child that died, once its backoff has passed."""
        now = time.monotonic()
        changed = False
        for child in self.children:
            if child.alive():
                continue
            if child.due == 0.0:  # just found dead
                _kill_group(child.process.pid)  # what it started dies with it
                child.failures = 1 if now - child.started > STABLE else child.failures + 1
                child.due = now + child.backoff()
                log.warning(
                    "%s stopped (%s); starting it again in %.1f s",
                    child.name,
                    _how(child.process.returncode),
                    child.backoff(),
                )
            elif now >= child.due:
                try:
                    child.start()
                except Exception as error:  # e.g. Redis could not bind yet: try later
                    log.warning("could not start %s again: %s", child.name, error)
                    child.failures += 1
                    child.due = now + child.backoff()
                    continue
                child.restarts += 1
                child.due = 0.0
                changed = True
                log.warning("%s started again (restart %d)", child.name, child.restarts)
        if changed:
            self._write_state()

    def stop(self):
        """API, projector and workers first, together; Redis last."""
        services = [c for c in self.children if c.name != "redis"]
        _stop(services)
        _stop([c for c in self.children if c.name == "redis"])
        restarts = ", ".join(f"{c.name} {c.restarts}" for c in self.children)
        log.info("stopped; restarts: %s", restarts)

    def _write_state(self):
        state = {
            c.name: {"pid": c.process.pid, "restarts": c.restarts, "metrics_port": c.port}
            for c in self.children
            if c.process is not None
        }
        (self.state / "children.json").write_text(json.dumps(state, indent=1))


def _stop(children):
    for child in children:
        if child.alive():
            child.process.send_signal(child.stop_signal)
    deadline = time.monotonic() + 15
    for child in children:
        if child.process is None:
            continue
        try:
            child.process.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            log.warning("%s did not stop in time; killing it", child.name)
        _kill_group(child.process.pid)
        child.process.wait()


def _kill_group(pid):
    """SIGKILL what is left of a child's session (gunicorn's workers, RQ's scheduler)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _how(returncode):
    if returncode is not None and returncode < 0:
        return f"signal {signal.Signals(-returncode).name}"
    return f"exit {returncode}"


_libc = None


def _prepare(sig, nice):
    """A preexec_fn: the child's niceness raised by `nice`, and `_dies_with_parent`."""
    dies = _dies_with_parent(sig)
    if not nice:
        return dies

    def preexec():
        os.nice(nice)
        if dies is not None:
            dies()

    return preexec


def _dies_with_parent(sig):
    """A preexec_fn: on Linux the child gets `sig` when this supervisor dies, however
    it dies. Elsewhere nothing (Ctrl-C and SIGTERM still stop every child)."""
    global _libc
    if not sys.platform.startswith("linux"):
        return None
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)  # loaded here, not in the child
    parent = os.getpid()

    def preexec():
        _libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
        if os.getppid() != parent:  # the supervisor died before prctl took effect
            os.kill(os.getpid(), sig)

    return preexec


def children(env, state):
    """Redis (embedded, unless REDIS_URL is set), the API, the projector and WORKERS
    RQ workers; each projector and worker with a free METRICS_PORT."""
    python = sys.executable
    config = Config.from_env(env)
    found = []
    if config.redis_url_from != "REDIS_URL":
        redis_port = embedded_redis.free_port()  # kept across restarts: the URL stays
        env["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"

        def redis_server(**popen):
            # Also writes <state>/redis.url, where every command of the project finds it.
            fsync = "always" if config.durability == "always" else "everysec"
            return embedded_redis.start_for_run(state, redis_port, appendfsync=fsync, **popen)[0]

        found.append(Child("redis", redis_server))
    metrics_dir = state / "metrics"  # the API's processes share their metrics here
    shutil.rmtree(metrics_dir, ignore_errors=True)
    metrics_dir.mkdir(parents=True)
    api_env = {**env, "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}
    port = config.port
    gunicorn = ["-m", "gunicorn", "--config", str(ROOT / "deploy" / "gunicorn.conf.py")]
    api = [python, *gunicorn, "--bind", f"127.0.0.1:{port}", "services.api:create_app()"]
    # SIGINT: gunicorn's quick shutdown (SIGTERM would wait for open streams).
    found.append(Child("api", _launcher(api, api_env), stop_signal=signal.SIGINT))
    # PROJECTORS projectors share the feed through the consumer group (the first one is
    # "projector", the others "projector-2"...).
    projector = [python, "-m", "services.projector"]
    for number in range(1, config.projectors + 1):
        name = "projector" if number == 1 else f"projector-{number}"
        found.append(_sidecar_child(name, projector, env))
    # Timers on a worker of their own, never busy with a bot's thinking when one falls
    # due; WORKERS workers for the bots (2 by default: docs/operations.md, "Bot chains").
    timers = [python, "-m", "services.worker", "--queues", "timers"]
    found.append(_sidecar_child("timers", timers, env))
    worker = [python, "-m", "services.worker", "--queues", "bots"]
    for number in range(1, config.workers + 1):
        found.append(_sidecar_child(f"worker-{number}", worker, env))
    # The games of bots only, on workers of their own (BACKGROUND_WORKERS, 1): however
    # many anyone opens, they never keep a person's bot opponent waiting.
    # They also run at a lower CPU priority (BACKGROUND_WORKER_NICE more), so a
    # person's bot thinks first when the cores are short.
    background = [python, "-m", "services.worker", "--queues", "background"]
    lower = min(19, config.background_nice + config.background_worker_nice)
    for number in range(1, config.background_workers + 1):
        found.append(_sidecar_child(f"background-{number}", background, env, nice=lower))
    # One matchmaker seats quick-match tickets (docs/operations.md, "Quick match").
    found.append(_sidecar_child("matchmaker", [python, "-m", "services.matchmaker"], env))
    # Webhook deliveries, on their own queue (no metrics server of their own yet).
    webhooks = [python, "-m", "services.webhooks", "worker"]
    nice = background_nice(env)
    found.append(Child("webhooks", _launcher(webhooks, {**env, "METRICS_PORT": "0"}), nice=nice))
    return found


def background_nice(env):
    """How much lower the projector's and the workers' CPU priority is than the API's
    and Redis' (BACKGROUND_NICE, 0 to 19)."""
    return Config.from_env(env).background_nice


def _sidecar_child(name, command, env, nice=None):
    metrics_off = Config.from_env(env).metrics_port == 0
    port = None if metrics_off else embedded_redis.free_port()
    child_env = {**env, "METRICS_PORT": str(port or 0)}
    nice = background_nice(env) if nice is None else nice
    return Child(name, _launcher(command, child_env), port=port, nice=nice)


def _launcher(command, env):
    def launch(**popen):
        return subprocess.Popen(command, env=env, cwd=ROOT, **popen)

    return launch


def main():
    stopping = []
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda number, _frame: stopping.append(number))
    env = dict(os.environ)
    env.setdefault("LOG_FORMAT", "text")  # a terminal's; deployments log JSON
    config = Config.from_env(env)
    logs.setup("run", fmt=config.log_format)
    state = config.run_dir
    state.mkdir(parents=True, exist_ok=True)
    supervisor = Supervisor(children(env, state), state)
    redis_url = Config.from_env(env).redis_url  # the embedded one's, if children() chose it
    url = f"http://127.0.0.1:{config.port}"
    try:
        supervisor.start()
        if any(c.name == "redis" for c in supervisor.children):
            log.info("embedded Redis at %s (data in %s)", redis_url, state / "redis")
        ready_since, last_report = None, time.monotonic()
        while not stopping:
            supervisor.tend()
            if ready_since is None:
                answer = _readiness(url)
                if answer is None:
                    ready_since = time.monotonic()
                    print(_banner(url, supervisor.children), flush=True)
                elif time.monotonic() - last_report > 30:
                    log.warning("not ready yet: %s", answer)
                    last_report = time.monotonic()
            time.sleep(0.2)
    finally:
        supervisor.stop()
        if any(c.name == "redis" for c in supervisor.children):
            embedded_redis.forget(state, redis_url)


def _readiness(url):
    """None once the API answers /readyz with 200; else why not."""
    try:
        urllib.request.urlopen(f"{url}/readyz", timeout=2).close()
        return None
    except urllib.error.HTTPError as error:
        return error.read().decode(errors="replace")[:500]
    except OSError as error:
        return str(error)


def _banner(url, children):
    ports = [f"{c.name} http://127.0.0.1:{c.port}/metrics" for c in children if c.port]
    return BANNER.format(url=url, metrics="\n  ".join([f"api {url}/metrics", *ports]))


BANNER = """
tablestream is serving at {url}   (API docs: {url}/docs, Ctrl-C stops everything)

Health: {url}/healthz, {url}/readyz. Metrics:
  {metrics}

Try a game of Alebrijes against two bots:

  curl -s -X POST {url}/v1/games -H 'Content-Type: application/json' \\
    -d '{{"game": "alebrijes",
         "seats": [{{"name": "ana"}}, {{"bot": "random"}}, {{"bot": "random"}}]}}'

then, with the id and ana's token from the answer:

  curl -s {url}/v1/games/ID/view -H 'Authorization: Bearer TOKEN'
"""


if __name__ == "__main__":
    main()
