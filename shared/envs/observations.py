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
        slots, weights = [], []
        self._walk(slots, weights, "s", view["state"])
        self._walk(slots, weights, "a", view["to_act"])
        slots.append(self.slot("version"))
        weights.append(view["version"])
        return np.bincount(slots, weights, minlength=self.size).astype(np.float32)

    def _walk(self, slots, weights, path, value):
        # The hot loop: names are looked up in the cache inline (a call a leaf costs).
        known, slot = self._slots, self.slot
        kind = type(value)
        if kind is dict:
            for name, inner in value.items():
                self._walk(slots, weights, f"{path}.{name}", inner)
        elif kind is list:
            if value and all(type(v) is str for v in value):
                for item in value:
                    name = f"{path}[]={item}"
                    slots.append(known[name] if name in known else slot(name))
                weights.extend([1.0] * len(value))
            else:
                for i, inner in enumerate(value):
                    self._walk(slots, weights, f"{path}[{i}]", inner)
        elif kind is int or kind is float:
            slots.append(known[path] if path in known else slot(path))
            weights.append(value)
        else:  # a boolean, a string, None
            name = f"{path}={value}"
            slots.append(known[name] if name in known else slot(name))
            weights.append(1.0)


def observation_of(view, encoder, encoding):
    """({"observation", "action_mask"}, {action: command}) of a seat's view: a function
    of the view alone, so a policy trained on an environment plays from the server's
    view too. `encoding` is the game's Actions (shared/envs/actions.py)."""
    reflexes = getattr(games.get(view["game"]), "REFLEXES", ())
    legal = encoding.legal(view["legal"], reflexes, view["seat"] in view["to_act"])
    mask = np.zeros(len(encoding), dtype=np.int8)
    mask[list(legal)] = 1
    return {"observation": encoder.encode(view), "action_mask": mask}, legal
