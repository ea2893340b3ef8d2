"""Bad input through the whole stack (issue 13, item 5): each request below must get a
4xx problem+json and write nothing. Prints each answer, then the 5xx and 2xx counts.

    .venv/bin/python bench/bad_inputs.py            # starts `services.run` itself
    .venv/bin/python bench/bad_inputs.py --base http://127.0.0.1:8000

About twenty requests; it never loops.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from services.embedded_redis import free_port  # noqa: E402

HUGE = str(2**64)


def start_stack(run_dir):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_URL")}
    env.update(PORT=str(port), RUN_DIR=run_dir, WEB_CONCURRENCY="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "services.run"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            requests.get(f"{base}/v1/games", timeout=5)
            return process, base
        except requests.RequestException:
            time.sleep(0.2)
    stop(process)
    raise RuntimeError("the stack did not start")


def stop(process):
    process.send_signal(signal.SIGINT)  # services.run stops what it started
    process.wait(30)


def game_body(name="ana", **options):
    seats = [{"name": name}, {"open": True}]
    return {"game": "alebrijes", "seats": seats, "options": options}


def raw(value):
    """JSON text with a lone surrogate kept as the escape a client would send."""
    return json.dumps(value).encode()


def nested(depth):
    return ("[" * depth + "]" * depth).encode()


def cases(base, game):
    """(name, method, path, body bytes or None, headers)."""
    gid, token = game["id"], game["seats"][0]["token"]
    seat = {"Authorization": f"Bearer {token}"}
    create = f"{base}/v1/games"
    return [
        ("create: body nested 5,000 deep", "POST", create, nested(5000), {}),
        (
            "create: options nested 5,000 deep",
            "POST",
            create,
            raw(game_body())[:-2] + b', "x": ' + nested(5000) + b"}}",
            {},
        ),
        ("create: name is a lone surrogate", "POST", create, raw(game_body("\ud800")), {}),
        ("create: seed is a lone surrogate", "POST", create, raw(game_body(seed="\ud800")), {}),
        (
            "create: seed of 5,000 digits",
            "POST",
            create,
            raw(game_body())[:-2] + b', "seed": ' + b"7" * 5000 + b"}}",
            {},
        ),
        ("create: rounds '3'", "POST", create, raw(game_body(rounds="3")), {}),
        ("create: rounds 2.5", "POST", create, raw(game_body(rounds=2.5)), {}),
        ("create: turn_seconds 1.5", "POST", create, raw(game_body(turn_seconds=1.5)), {}),
        ("create: NUL in a name", "POST", create, raw(game_body("a\u0000b")), {}),
        ("create: newline in a name", "POST", create, raw(game_body("a\nb")), {}),
        ("claim: name is a lone surrogate", "POST", f"{create}/{gid}/seats/1",
         raw({"name": "\ud800"}), {}),
        ("claim: NUL in a name", "POST", f"{create}/{gid}/seats/1", raw({"name": "\u0000"}), {}),
        ("command: nested 5,000 deep", "POST", f"{create}/{gid}/commands", nested(5000), seat),
        ("events: after=2^64", "GET", f"{create}/{gid}/events?after={HUGE}", None, {}),
        ("events: after of 1,000 digits", "GET", f"{create}/{gid}/events?after={'9' * 1000}",
         None, {}),
        ("stream: after=2^64", "GET", f"{create}/{gid}/stream?after={HUGE}", None, {}),
        ("stream: Last-Event-ID 2^64", "GET", f"{create}/{gid}/stream", None,
         {"Last-Event-ID": HUGE}),
        ("view: after=2^64", "GET", f"{create}/{gid}/view?after={HUGE}&wait=1", None, {}),
    ]  # fmt: skip


def read_stream(response):
    """A stream that breaks off after its 200 is a server error too."""
    try:
        for _ in response.iter_content(chunk_size=None):
            pass
        return response.status_code, "stream ended"
    except requests.exceptions.ChunkedEncodingError:
        return 500, "stream broke off after its 200"
    except requests.exceptions.ConnectionError:  # urllib3 read timeout: still streaming
        return response.status_code, "stream open (keep-alives)"


def lobby_and_version(http, base, game_id):
    lobby = http.get(f"{base}/v1/games?limit=200", timeout=10).json()["games"]
    return sorted(g["id"] for g in lobby), http.get(f"{base}/v1/games/{game_id}").json()["version"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", help="a running stack; default: start one")
    args = parser.parse_args()
    process = None
    with tempfile.TemporaryDirectory() as run_dir:
        if args.base:
            base = args.base
        else:
            process, base = start_stack(run_dir)
        try:
            http = requests.Session()
            game = http.post(f"{base}/v1/games", json=game_body(), timeout=10).json()
            time.sleep(0.5)  # the projector puts it in the lobby
            before = lobby_and_version(http, base, game["id"])
            statuses = []
            for name, method, url, body, headers in cases(base, game):
                if body is not None:
                    headers = {**headers, "Content-Type": "application/json"}
                try:
                    response = http.request(
                        method, url, data=body, headers=headers, timeout=5, stream=True
                    )
                    status = response.status_code
                    kind = response.headers.get("Content-Type", "")
                    code = response.json().get("code") if "json" in kind else kind
                    if kind.startswith("text/event-stream"):
                        status, code = read_stream(response)
                    response.close()
                except requests.ReadTimeout:
                    status, code = 0, "no answer in 5 s"
                statuses.append(status)
                print(f"{status:>4} {code!s:<28} {name}")
            time.sleep(0.5)
            after = lobby_and_version(http, base, game["id"])
            print(f"\n5xx answers: {sum(s >= 500 for s in statuses)} of {len(statuses)}")
            print(f"2xx answers (accepted bad input): {sum(200 <= s < 300 for s in statuses)}")
            print(f"lobby and game unchanged: {before == after}")
        finally:
            if process is not None:
                stop(process)


if __name__ == "__main__":
    main()
