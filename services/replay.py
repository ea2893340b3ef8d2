"""`python -m services.replay LOG.json [--at VERSION] [--seat SEAT]`: check a finished
game's log offline and show the table at any version, as any seat saw it.

LOG.json is what GET /v1/games/{id}/export (or .../events?limit=1000) answers, its
"events" list, or the same as JSON Lines (one event a line). Checks that the revealed
seed and salt give the published seed_sha256 and that the rules decide every logged
event again (shared.replay.check). Exits 1 when the log does not check out.
"""

import argparse
import json
import sys

from shared import replay, table


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m services.replay")
    parser.add_argument("log", help="a JSON file: the events endpoint's answer")
    parser.add_argument("--at", type=int, help="show the table at this version")
    parser.add_argument("--seat", type=int, help="as this seat saw it (default: spectator)")
    args = parser.parse_args(argv)
    with open(args.log) as file:
        text = file.read()
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError:  # JSON Lines: one event a line
        loaded = [json.loads(line) for line in text.splitlines() if line.strip()]
    records = loaded["events"] if isinstance(loaded, dict) else loaded
    problems = replay.check(records)
    for problem in problems:
        print(f"problem: {problem}")
    if not problems:
        print(f"the log checks out: {len(records)} events, every one decided again")
    if args.at is not None:
        current = replay.table_at(records, args.at)
        print(json.dumps(table.view(current, args.at, args.seat)["state"], indent=2))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
