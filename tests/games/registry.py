"""The test game's registration: a tiny distribution, `tinygame`, that declares Tiny in
the entry point group `tablestream.games` exactly as a game from elsewhere would in its
own pyproject.toml:

    [project.entry-points."tablestream.games"]
    tiny = "tests.games.tiny"

`installed(directory)` writes `tinygame-1.0.dist-info` (METADATA and entry_points.txt,
as pip would) into `directory` and returns the PYTHONPATH on which a new process finds
it. The registry is read once per process, on first use, so the game is served by
processes started with that path (the API, the projector, the worker, the document's
generator); this test process itself never registers it, and its suite sees four games.
"""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DIST = "tinygame-1.0.dist-info"


def installed(directory):
    """Write the test distribution into `directory`; return the PYTHONPATH to give."""
    info = Path(directory) / DIST
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tinygame\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tablestream.games]\ntiny = tests.games.tiny\n")
    return os.pathsep.join([str(directory), str(ROOT)])
