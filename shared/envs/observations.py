"""The flat numeric encoding of a seat's view: a fixed-length float32 vector.

The structured observation is the view itself, as the API gives it to the seat. The
flat one reads the same view and nothing else, by the hashing trick (feature hashing):
every leaf of the view's `state`, `to_act` and `version`, named by its path (list
positions kept, so seat 2's hand size is its own feature), goes to one of SIZE slots
picked by a stable hash (crc32) of its name:

- a number or a boolean (as 1 or 0) adds its value at its path's slot;
- a string or None adds 1 at the slot of its path and value;
- a list of strings (a hand, a pile) adds 1 per element at the slot of its path and
  element, so a hand is the counts of its cards whatever their order.

Distinct features may share a slot (SIZE makes that rare); nothing is read that the
view does not hold, so the encoding is as fair as the view.

Why it is fast (the goal: the flat observation, view included, at most twice the
view's cost; bench/envs.py measures it): what a leaf adds, (slot, weight), is worked
out the first time its path and value are met in the process and looked up after
that (making and hashing the names was most of the cost); a list of cards or a
dict's scalars (keys as last met) is one C-level `map`; a nested value whose path's
values repeat (a card of a hand) is remembered by its JSON bytes (orjson, C), without
the leaves that add 0; the vector is summed in an array.array that numpy takes without
a copy. What is remembered is bounded: a few hundred paths a game, at most MEMO_SIZE
values a path. Booleans are numbers (True == 1 as a dict key, so a path's True and 1
must mean the same). Views are JSON, as the API sends them, and JSON bytes give the
value back; a value JSON cannot write (a set, a non-string key) is walked, not
remembered (a tuple would be written as its list, NaN as null: views hold neither).
"""

import zlib
from array import array
from operator import itemgetter

import numpy as np
import orjson

SIZE = 1024
ROOTS = ("state", "to_act", "version")
REMEMBERED = 256  # integers up to this size are remembered per path (version is not)
MEMO_TRIAL, MEMO_SIZE = 256, 2048  # see _Path.remember


def _slot(name, size):
    return zlib.crc32(name.encode()) % size


class _NotAString(Exception):
    """A list that began with a string holds something else too."""


class _Leaves(dict):
    """{value: (slot, weight)} of one path's scalar values, each made when first met."""

    __slots__ = ("name", "size", "number")

    def __init__(self, name, size):
        super().__init__()
        self.name, self.size = name, size
        self.number = _slot(name, size)

    def __missing__(self, value):
        kind = type(value)
        if kind is int or kind is float or kind is bool:
            found = (self.number, float(value))
            if kind is float or not -REMEMBERED <= value <= REMEMBERED:
                return found
        else:  # a string, None
            found = (_slot(f"{self.name}={value}", self.size), 1.0)
        self[value] = found
        return found


class _Members(dict):
    """{card: (slot, 1.0)} of one path's list of strings."""

    __slots__ = ("name", "size")

    def __init__(self, name, size):
        super().__init__()
        self.name, self.size = name, size

    def __missing__(self, item):
        if type(item) is not str:
            raise _NotAString
        found = self[item] = (_slot(f"{self.name}[]={item}", self.size), 1.0)
        return found


class _Paths(dict):
    """{key: the _Path of "<parent>.<key>"} (or "<parent>[<i>]" for a list's items)."""

    __slots__ = ("name", "size", "pattern")

    def __init__(self, name, size, pattern):
        super().__init__()
        self.name, self.size, self.pattern = name, size, pattern

    def __missing__(self, key):
        found = self[key] = _Path(self.pattern.format(self.name, key), self.size)
        return found


class _LeavesOf(dict):
    """{key: the _Leaves of a child or item path}, for a C-level map over scalars."""

    __slots__ = ("paths",)

    def __init__(self, paths):
        super().__init__()
        self.paths = paths

    def __missing__(self, key):
        found = self[key] = self.paths[key].leaves
        return found


class _Path:
    """One path of the view: what its scalar values and (a list of strings) its
    elements add, its children's and its items' paths, and what its dicts looked like
    (`shape`) or its lists (`flat`) so the next one's scalars are one C-level map."""

    __slots__ = (
        "leaves",
        "member",
        "child",
        "item",
        "item_leaves",
        "flat",
        "shape",
        "containers",
        "memo",
        "lookups",
    )

    def __init__(self, name, size):
        self.leaves = _Leaves(name, size)
        self.member = _Members(name, size).__getitem__
        children, items = _Paths(name, size, "{}.{}"), _Paths(name, size, "{}[{}]")
        self.child, self.item = children.__getitem__, items.__getitem__
        self.item_leaves = _LeavesOf(items).__getitem__
        self.flat = True  # a list: none of its items has been a dict or a list
        self.shape = None  # a dict: _Shape of its keys, once met
        self.containers = frozenset()  # a dict: its keys that have held a dict or list
        self.memo, self.lookups = None, 0  # see remember()

    def remember(self, written, found):
        """Keep what a nested value adds, by its JSON bytes, while the path's values
        repeat (a card of a hand, a prison): most of them are met again, and then
        orjson.dumps (C) and one lookup replace the walk. A path whose values rarely
        repeat (the whole state, a hand) stops remembering, and forgets."""
        memo = self.memo
        memo[written] = found
        if self.lookups >= MEMO_TRIAL and len(memo) * 2 > self.lookups or len(memo) > MEMO_SIZE:
            self.memo = None  # and lookups stays > 0: never again

    def nested(self):
        """A dict or list of this path has held a dict or a list: remember (once)."""
        if self.memo is None and not self.lookups:
            self.memo = {}


class _Shape:
    """The keys of a dict path as last met: those that held scalars (their leaves, in
    the same order) and those that held a dict or a list (their paths)."""

    __slots__ = ("size", "scalars", "leaves", "containers", "paths")

    def __init__(self, path, value):
        path.containers |= {k for k, v in value.items() if type(v) is dict or type(v) is list}
        self.size = len(value)
        self.scalars = tuple(k for k in value if k not in path.containers)
        self.containers = tuple(k for k in value if k in path.containers)
        self.leaves = [path.child(k).leaves for k in self.scalars]
        self.paths = [path.child(k) for k in self.containers]
        if self.containers:
            path.nested()


_ROOTS = {}  # size: the paths met so far (a path's slots are the same in every encoder)


class Encoder:
    """Views to vectors. Encoders of one size share the paths met so far."""

    def __init__(self, size=SIZE):
        self.size, self._zeros = size, bytes(4 * size)
        self._root = _ROOTS.get(size)
        if self._root is None:
            self._root = _ROOTS[size] = _Paths("", size, "{1}").__getitem__
        self._roots = tuple(map(self._root, ROOTS))

    def slot(self, name):
        """The slot of the feature `name`."""
        return _slot(name, self.size)

    def encode(self, view):
        """The view's vector (float32, `size` long)."""
        added = []
        _walk(added, zip(self._roots, map(view.__getitem__, ROOTS), strict=True))
        # Summed in a float32 array.array and handed to numpy without a copy: for a
        # view's few dozen leaves a Python loop is cheaper than converting them for
        # np.bincount (its fixed cost was a third of the encoding's).
        vector = array("f", self._zeros)
        for slot, weight in added:
            vector[slot] += weight
        return np.frombuffer(vector, np.float32)


_LEAF = dict.__getitem__  # (a _Leaves, a value): its (slot, weight), __missing__ kept
_dumps = orjson.dumps
_WEIGHT = itemgetter(1)


def _walk(added, pairs):
    """The (slot, weight) of each leaf under `pairs` (path, value) into `added`. One
    loop for a dict's entries and a list's items, so a leaf costs no call; a dict or
    list of scalars is one C-level map; a nested one met before, one lookup."""
    for path, value in pairs:
        kind = type(value)
        if kind is not dict and kind is not list:
            added.append(path.leaves[value])
            continue
        memo = path.memo
        if memo is not None:
            try:
                written = _dumps(value)
            except TypeError:  # not JSON (orjson.JSONEncodeError): walk it
                _container(added, path, value, kind)
                continue
            found = memo.get(written)
            if found is not None:
                path.lookups += 1
                added.extend(found)
                continue
            path.lookups += 1
            start = len(added)
            _container(added, path, value, kind)
            path.remember(written, tuple(filter(_WEIGHT, added[start:])))  # zeros add nothing
        else:
            _container(added, path, value, kind)


def _container(added, path, value, kind):
    if kind is dict:
        shape = path.shape
        if shape is not None and len(value) == shape.size:
            start = len(added)
            try:  # the keys as last met: scalars in one map, then the others
                added.extend(map(_LEAF, shape.leaves, map(value.__getitem__, shape.scalars)))
                if shape.containers:
                    _walk(
                        added,
                        zip(shape.paths, map(value.__getitem__, shape.containers), strict=True),
                    )
                return
            except (TypeError, KeyError):  # other keys, or a container among scalars
                del added[start:]
        _walk(added, zip(map(path.child, value), value.values(), strict=True))
        path.shape = _Shape(path, value)
    elif value:
        if type(value[0]) is str:
            start = len(added)
            try:
                added.extend(map(path.member, value))
                return
            except _NotAString:  # a mixed list: item by item, as any other list
                del added[start:]
        elif path.flat:
            start = len(added)
            try:
                added.extend(map(_LEAF, map(path.item_leaves, range(len(value))), value))
                return
            except TypeError:
                del added[start:]
                path.flat = False
                path.nested()
        _walk(added, zip(map(path.item, range(len(value))), value, strict=True))


def action_mask(view, encoding):
    """(the action mask, {action: command}) of a seat's view: int8 over the game's
    action encoding (`encoding`: its Actions, shared/envs/actions.py), 1 for each legal
    command. Any agent needs it to act, whichever observation it reads."""
    legal = encoding.legal(view["legal"], encoding.reflexes, view["seat"] in view["to_act"])
    mask = bytearray(encoding.size)  # zeros; numpy takes it without a copy
    for action in legal:
        mask[action] = 1
    return np.frombuffer(mask, np.int8), legal


def observation_of(view, encoder, encoding):
    """({"observation", "action_mask"}, {action: command}) of a seat's view: a function
    of the view alone, so a policy trained on an environment plays from the server's
    view too."""
    mask, legal = action_mask(view, encoding)
    return {"observation": encoder.encode(view), "action_mask": mask}, legal
