"""CPU a Redis GET of a 2 KB value costs in redis-py under gevent (monkey-patched, as
the API's workers are), through the client every process uses (services.deps.connect)
and through the API's (services/api/connections.py: the pool's idle check by the
kernel's poll), interleaved round by round on a private Redis.

    .venv/bin/python bench/redis_check_cpu.py            # 6 rounds of 5,000 GETs

Prints each client's microseconds a GET (process time), sorted, and the medians' ratio.
"""

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from services import deps, embedded_redis  # noqa: E402
from services.api import connections  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--gets", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        process, url = embedded_redis.start(Path(directory))
        try:
            clients = {
                "services.deps.connect": deps.connect(url),
                "the API's (quick checks)": connections.quick_checks(deps.connect(url)),
            }
            spent = {name: [] for name in clients}
            next(iter(clients.values())).set("view", b"x" * 2000)
            for _ in range(args.rounds):
                for name, client in clients.items():
                    started = time.process_time()
                    for _ in range(args.gets):
                        client.get("view")
                    spent[name].append(1e6 * (time.process_time() - started) / args.gets)
        finally:
            process.terminate()
            process.wait(10)
    for name, samples in spent.items():
        each = sorted(round(s) for s in samples)
        print(f"{name}: {statistics.median(samples):.0f} us a GET {each}")
    before, after = (statistics.median(s) for s in spent.values())
    print(f"ratio: {after / before:.2f}x")


if __name__ == "__main__":
    main()
