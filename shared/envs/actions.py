"""A fixed action encoding per game: every command the game can have, numbered.

Action 0 is `wait`: send nothing now (legal only out of turn, when all a seat could
send is a reflex, Alien's claims and stacks). Every other number is one command,
enumerated from the game's command shapes and the rules' bounds (card codes and their
copies, seats, hand sizes) by the game's own `<package>.actions.commands()` (each
says what it enumerates), in its order (`enumeration`): the same numbers on every
machine and in every version until the game's commands change (a test checks that
every command the rules make legal in many random games has a number, and that the
number gives it back).

Commands are matched by `key`: their fields, lists as sorted multisets, with the API's
envelope (expected_version) left out.
"""

import functools

import orjson

from shared import games

WAIT = 0
ENVELOPE = ("expected_version",)


def key(command):
    """The command's identity in the encoding: its fields, lists as sorted multisets."""
    parts = []
    for name in sorted(command):
        if name in ENVELOPE:
            continue
        value = command[name]
        kind = type(value)
        if kind is list:
            value = tuple(sorted(value))  # card codes: strings
        elif kind is dict:
            value = key(value)
        parts.append((name, value))
    return tuple(parts)


def enumeration(game):
    """Every command `game` can have, in a fixed order: its package's `actions.commands()`;
    for a game without one whose commands have no field but `type`, one action per
    command type, in the contract's order (its `COMMANDS`)."""
    own = games.part(game, "actions")
    if own is not None:
        return own.commands()
    contract = games.part(game, "contract")
    shapes = {
        kind: set(schema().fields) - {"type", *ENVELOPE}
        for kind, schema in contract.COMMANDS.items()
    }
    fielded = sorted(kind for kind, names in shapes.items() if names)
    if fielded:
        raise NotImplementedError(
            f"{game} has commands with fields ({', '.join(fielded)}): declare their "
            f"enumeration in its package's actions.commands()"
        )
    return ({"type": kind} for kind in shapes)


class _Seen(dict):
    """{a command as orjson writes it: its action}. Each legal command is keyed (its
    fields sorted) the first time it is met written that way, then only looked up:
    keying every legal command of every view was most of the action mask's cost, and
    orjson.dumps is C (about half marshal's cost for a command). Commands are JSON, as
    the API sends them, and JSON bytes give the command back, so two commands never
    share one; one command may be written two ways (its fields in another order), each
    then remembered. A value JSON cannot write (a set, a non-string key) raises, and
    every command of that list is keyed (a tuple would be written as a list, NaN as
    null: commands hold neither)."""

    __slots__ = ("index",)

    def __init__(self, index):
        super().__init__()
        self.index = index

    def __missing__(self, written):
        found = self[written] = self.index[key(orjson.loads(written))]
        return found


class Actions:
    """One game's encoding: `commands[i]` is action i's command (None for WAIT)."""

    def __init__(self, game):
        self.game = game
        self.reflexes = getattr(games.get(game), "REFLEXES", ())
        self.commands = [None, *enumeration(game)]
        self.index = {key(c): i for i, c in enumerate(self.commands) if c is not None}
        assert len(self.index) == len(self.commands) - 1, f"{game}: two actions, one command"
        self._seen = _Seen(self.index)
        self.size = len(self.commands)  # len(self), without a call

    def __len__(self):
        return len(self.commands)

    def encode(self, command):
        """The action number of `command` (KeyError: a command the encoding lacks)."""
        return self.index[key(command)]

    def legal(self, legal, reflexes=None, to_act=True):
        """{action: command} of the seat's legal commands (`reflexes`: the game's, by
        default), WAIT among them when the seat may only react (so it may let the
        chance pass)."""
        try:
            seen = map(self._seen.__getitem__, map(orjson.dumps, legal))
            found = dict(zip(seen, legal, strict=True))
        except TypeError:  # a value JSON cannot hold (orjson.JSONEncodeError): key each
            found = {self.index[key(c)]: c for c in legal}
        reflexes = self.reflexes if reflexes is None else reflexes
        if found and (not to_act or reflexes and all(c["type"] in reflexes for c in legal)):
            found[WAIT] = None
        return found


@functools.cache
def actions(game):
    """The Actions of `game`, built once per process."""
    return Actions(game)
