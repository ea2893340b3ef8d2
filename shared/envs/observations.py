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


class _Path:
    """One path of the view, met before: its slots, and its children's paths. Walking
    these builds no name twice (making and hashing the names was most of the cost)."""

    __slots__ = ("name", "encoder", "number", "values", "children", "items", "members")

    def __init__(self, name, encoder):
        self.name, self.encoder = name, encoder
        self.number = encoder.slot(name)
        self.values, self.children, self.items, self.members = {}, {}, [], {}

    def child(self, key):
        found = self.children.get(key)
        if found is None:
            found = self.children[key] = _Path(f"{self.name}.{key}", self.encoder)
        return found

    def item(self, i):
        while len(self.items) <= i:
            self.items.append(_Path(f"{self.name}[{len(self.items)}]", self.encoder))
        return self.items[i]

    def value(self, value):
        found = self.values.get(value)
        if found is None:
            found = self.values[value] = self.encoder.slot(f"{self.name}={value}")
        return found

    def member(self, item):
        found = self.members.get(item)
        if found is None:
            found = self.members[item] = self.encoder.slot(f"{self.name}[]={item}")
        return found


class Encoder:
    """Views to vectors, remembering every path it has met."""

    def __init__(self, size=SIZE):
        self.size = size
        self._roots = {}

    def slot(self, name):
        """The slot of the feature `name`."""
        return zlib.crc32(name.encode()) % self.size

    def encode(self, view):
        """The view's vector (float32, `size` long)."""
        slots, weights = [], []
        for name in ("state", "to_act", "version"):
            root = self._roots.get(name)
            if root is None:
                root = self._roots[name] = _Path(name, self)
            _walk(slots, weights, root, view[name])
        return np.bincount(slots, weights, minlength=self.size).astype(np.float32)


def _walk(slots, weights, path, value):
    kind = type(value)
    if kind is dict:
        for name, inner in value.items():
            _walk(slots, weights, path.child(name), inner)
    elif kind is list:
        if value and all(type(v) is str for v in value):
            member = path.member
            slots.extend([member(item) for item in value])
            weights.extend([1.0] * len(value))
        else:
            for i, inner in enumerate(value):
                _walk(slots, weights, path.item(i), inner)
    elif kind is int or kind is float:
        slots.append(path.number)
        weights.append(value)
    else:  # a boolean, a string, None
        slots.append(path.value(value))
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
