"""The flat numeric encoding of a seat's view: a fixed-length float32 vector.

The structured observation is the view itself, as the API gives it to the seat. The
flat one reads the same view and nothing else, by the hashing trick (feature hashing):
every leaf of the view's `state`, `to_act` and `version`, named by its path (list
positions kept, so seat 2's hand size is its own feature), goes to one of SIZE slots
picked by a stable hash (crc32) of its name:

- a number (not a boolean) adds its value at its path's slot;
- a boolean, a string or None adds 1 at the slot of its path and value;
- a list of strings (a hand, a pile) adds 1 per element at the slot of its path and
  element, so a hand is the counts of its cards whatever their order.

Distinct features may share a slot (SIZE makes that rare); nothing is read that the
view does not hold, so the encoding is as fair as the view.
"""

import zlib

import numpy as np

from shared import games

SIZE = 1024


class Encoder:
    """Views to vectors; remembers each feature's slot (hashing is most of the cost)."""

    def __init__(self, size=SIZE):
        self.size = size
        self._slots = {}

    def slot(self, name):
        found = self._slots.get(name)
        if found is None:
            found = self._slots[name] = zlib.crc32(name.encode()) % self.size
        return found

    def encode(self, view):
        """The view's vector (float32, `size` long)."""
        out = np.zeros(self.size, dtype=np.float32)
        self._walk(out, "s", view["state"])
        self._walk(out, "a", view["to_act"])
        out[self.slot("version")] += view["version"]
        return out

    def _walk(self, out, path, value):
        if isinstance(value, dict):
            for name, inner in value.items():
                self._walk(out, f"{path}.{name}", inner)
        elif isinstance(value, list):
            if value and all(isinstance(v, str) for v in value):
                for item in value:
                    out[self.slot(f"{path}[]={item}")] += 1.0
            else:
                for i, inner in enumerate(value):
                    self._walk(out, f"{path}[{i}]", inner)
        elif isinstance(value, bool) or value is None or isinstance(value, str):
            out[self.slot(f"{path}={value}")] += 1.0
        else:
            out[self.slot(path)] += value


def observation_of(view, encoder, encoding):
    """({"observation", "action_mask"}, {action: command}) of a seat's view: a function
    of the view alone, so a policy trained on an environment plays from the server's
    view too. `encoding` is the game's Actions (shared/envs/actions.py)."""
    reflexes = getattr(games.get(view["game"]), "REFLEXES", ())
    legal = encoding.legal(view["legal"], reflexes, view["seat"] in view["to_act"])
    mask = np.zeros(len(encoding), dtype=np.int8)
    mask[list(legal)] = 1
    return {"observation": encoder.encode(view), "action_mask": mask}, legal
