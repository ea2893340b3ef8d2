"""`make run`: everything a developer needs on one machine, in the foreground.

Starts an embedded Redis (unless REDIS_URL is set), the API under gunicorn, the
projector and the RQ worker; prints the URL and an example; Ctrl-C stops them all.
"""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from services import embedded_redis

ROOT = Path(__file__).resolve().parents[1]


def _interrupt(*_):
    raise KeyboardInterrupt


def main():
    signal.signal(signal.SIGTERM, _interrupt)  # a supervisor's stop is a Ctrl-C too
    env = dict(os.environ)
    state = Path(env.get("RUN_DIR", ROOT / ".run"))
    port = env.get("PORT", "8000")
    children = []
    if not env.get("REDIS_URL"):
        (state / "redis").mkdir(parents=True, exist_ok=True)
        redis_process, env["REDIS_URL"] = embedded_redis.start(state / "redis")
        children.append(redis_process)
        print(f"embedded Redis at {env['REDIS_URL']} (data in {state / 'redis'})")
    python = sys.executable
    gunicorn = ["gunicorn", "--config", str(ROOT / "deploy" / "gunicorn.conf.py")]
    commands = [
        [python, "-m", *gunicorn, "--bind", f"127.0.0.1:{port}", "services.api:create_app()"],
        [python, "-m", "services.projector"],
        # WORKERS: how many RQ workers run bot turns and timers (one is plenty for a club).
        *[[python, "-m", "services.worker"]] * int(env.get("WORKERS", "1")),
    ]
    try:
        for command in commands:
            children.append(subprocess.Popen(command, env=env, cwd=ROOT))
        url = f"http://127.0.0.1:{port}"
        _wait_for(url)
        print(BANNER.format(url=url), flush=True)
        while all(child.poll() is None for child in children):
            time.sleep(0.5)
        print("a process stopped; stopping the others", file=sys.stderr)
    except KeyboardInterrupt:
        pass
    finally:
        _stop(children)


def _wait_for(url, timeout=30.0):
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{url}/openapi.json", timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the API did not answer at {url}")


def _stop(children):
    # Stop the API, projector and worker before Redis, so none loses its connection.
    for child in reversed(children):
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
            try:
                child.wait(10)
            except subprocess.TimeoutExpired:
                child.kill()


BANNER = """
tablestream is serving at {url}   (API docs: {url}/docs, Ctrl-C stops everything)

Try a game of Alebrijes against two bots:

  curl -s -X POST {url}/v1/games -H 'Content-Type: application/json' \\
    -d '{{"game": "alebrijes",
         "seats": [{{"name": "ana"}}, {{"bot": "random"}}, {{"bot": "random"}}]}}'

then, with the id and ana's token from the answer:

  curl -s {url}/v1/games/ID/view -H 'Authorization: Bearer TOKEN'
"""


if __name__ == "__main__":
    main()
