"""py-spy under load: record processes while a load runs, and sum the samples by where
the time goes (the leaf frame's library) and by function (inclusive).

py-spy samples only threads that are running (not idle in epoll), so the shares are of
the CPU a process spent, not of the wall clock.
"""

import collections
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# A frame as py-spy's raw format writes it: "function (path/file.py:line)".
FRAME = re.compile(r"^(?P<function>.*?) \((?P<path>[^:]*)(?::\d+)?\)$")
# Where a leaf frame lives (py-spy writes paths from the package down) -> a name for that
# kind of work. First match wins.
BUCKETS = [
    ("redis-py I/O", ("redis/",)),
    ("gunicorn HTTP", ("gunicorn/",)),
    ("gevent sockets and hub", ("gevent/", "greenlet")),
    ("werkzeug/Flask/smorest", ("werkzeug/", "flask/", "flask_smorest/")),
    ("marshmallow/webargs/apispec", ("marshmallow/", "webargs/", "apispec/")),
    ("RQ", ("rq/",)),
    ("rules (shared/games)", ("shared/games/",)),
    ("bots (shared/bots)", ("shared/bots/",)),
    ("tablestream shared/", ("shared/",)),
    ("tablestream services/", ("services/",)),
    ("JSON", ("json", "orjson")),
]
OURS = ("services/", "shared/")


def py_spy():
    """The py-spy executable next to this interpreter (installed by `.[bench]`)."""
    here = Path(sys.executable).with_name("py-spy")
    return str(here) if here.exists() else shutil.which("py-spy")


def record(pids, seconds, folder, label):
    """Start one py-spy per pid (raw collapsed stacks); answer the Popen handles and
    the files they will write. Wait on the handles after the load has run."""
    handles = []
    for pid in pids:
        path = Path(folder) / f"{label}-{pid}.txt"
        command = [
            py_spy(),
            "record",
            "--pid",
            str(pid),
            "--duration",
            str(int(seconds)),
            "--format",
            "raw",
            "--nonblocking",
            "--output",
            str(path),
        ]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        handles.append((process, path))
    return handles


def finish(handles, timeout=60):
    """Wait for the recordings; answer the files written."""
    written = []
    for process, path in handles:
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
        if path.exists():
            written.append(path)
    return written


def stacks(paths):
    """(frames, count) for every sampled stack in these raw files."""
    for path in paths:
        for line in Path(path).read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if stack and count.isdigit():
                yield stack.split(";"), int(count)


def bucket(frame):
    match = FRAME.match(frame)
    path = match["path"] if match else frame
    for name, needles in BUCKETS:
        if any(path.startswith(needle) or f"/{needle}" in path for needle in needles):
            return name
    return "stdlib and other"


def library(frames):
    """Whose work a sample is: the leaf's library, except that gevent's sockets and the
    standard library count for the library that called them (redis-py, gunicorn...)."""
    for frame in reversed(frames):
        name = bucket(frame)
        if name not in ("gevent sockets and hub", "stdlib and other"):
            return name
    return bucket(frames[-1])


def ours(frames):
    """The deepest frame of tablestream's own code in a stack: whose work this sample is."""
    for frame in reversed(frames):
        match = FRAME.match(frame)
        if match and match["path"].startswith(OURS):
            return _short(frame)
    return "(outside tablestream's code)"


def summary(paths, top=30):
    """{"samples", "buckets": [(name, share)], "functions": [(frame, inclusive share)],
    "self": [(frame, self share)]} over the recorded files."""
    total = 0
    by_bucket = collections.Counter()
    inclusive = collections.Counter()
    leaf = collections.Counter()
    owner = collections.Counter()
    for frames, count in stacks(paths):
        total += count
        owner[ours(frames)] += count
        by_bucket[library(frames)] += count
        leaf[_short(frames[-1])] += count
        for frame in {_short(f) for f in frames}:
            inclusive[frame] += count
    share = (lambda n: n / total) if total else (lambda n: 0.0)
    return {
        "samples": total,
        "buckets": [(name, share(n)) for name, n in by_bucket.most_common()],
        "functions": [(f, share(n)) for f, n in inclusive.most_common(top)],
        "self": [(f, share(n)) for f, n in leaf.most_common(top)],
        "ours": [(f, share(n)) for f, n in owner.most_common(top)],
    }


def _short(frame):
    """ "function (…/site-packages/redis/connection.py:42)" -> "function (redis/connection.py)"."""
    match = FRAME.match(frame)
    if not match:
        return frame
    path = match["path"]
    for marker in ("site-packages/", f"{ROOT}/", "/lib/python3.11/"):
        if marker in path:
            path = path.split(marker, 1)[1]
    return f"{match['function']} ({path})"


def render(name, result, top=8):
    """A few lines for the report."""
    lines = [f"{name}: {result['samples']} samples"]
    shares = ", ".join(f"{b} {s:.0%}" for b, s in result["buckets"][:8])
    lines.append(f"  by library (a socket call counts for its caller): {shares}")
    lines.append("  inclusive (frames under 90%: below the server's main loops):")
    lines += [f"    {s:5.1%}  {f}" for f, s in result["functions"] if s < 0.9][:top]
    lines.append("  by the deepest frame of our code (its callees included):")
    lines += [f"    {s:5.1%}  {f}" for f, s in result["ours"][:top]]
    lines.append("  self:")
    lines += [f"    {s:5.1%}  {f}" for f, s in result["self"][:top]]
    return "\n".join(lines)
