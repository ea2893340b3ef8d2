"""A fixed action encoding per game: every command the game can have, numbered.

Action 0 is `wait`: send nothing now (legal only out of turn, when all a seat could
send is a reflex, Alien's claims and stacks). Every other number is one command,
enumerated from the game's command shapes and the rules' bounds (card codes and their
copies, seats, hand sizes), in the order of ACTIONS[game]: the same numbers on every
machine and in every version until the game's commands change (a test checks that
every command the rules make legal in many random games has a number, and that the
number gives it back).

- Alebrijes: exchange (0 to 2 cards), pass (with 0 to 2 cards to exchange), play (a
  set of one number: cards of one colour with jokers, or jokers alone naming a colour;
  with an Ollin card, its effect: none, others_draw, or lay_aside with the card laid
  aside).
- Alien: play (a CLUE card), capture (a CAPTURED card), hunt (H1 on a seat; H2 or H3
  on a seat and an alien), take (a seat and an alien), claim (a CAPTURED card on a
  CLUE card), end_turn, pass, stack.
- Alakablast: ask (a card of the hand, an informant, no claim or one element or power),
  inform (a dimension), duel (a rival and a kind, with or without a clue: a card and
  a dimension), choose (a card of the hand).
- Abluxxen: play (a row: copies of one number with jokers, or jokers alone), attack (a
  seat), stop, answer (take_back, give_up, discard), keep (take or not), draw (0 to 6
  display cards).

Commands are matched by `key`: their fields, lists as sorted multisets, with the API's
envelope (expected_version) left out.
"""

import functools
import marshal
from collections import Counter
from itertools import combinations_with_replacement, product

from shared import games as rules
from shared.games.abluxxen import facts as abluxxen
from shared.games.abluxxen.commands import CHOICES
from shared.games.alakablast import cards as alakablast
from shared.games.alebrijes import cards as alebrijes
from shared.games.alien import facts as alien

WAIT = 0
MAX_SEATS = 8  # the most players any game seats (Alien)
HAND_INDEXES = 8  # Alakablast: the positions in a hand a command may name
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


def _multisets(copies, most):
    """Every multiset of 0 to `most` codes, each code at most copies[code] times."""
    codes = sorted(copies)
    for size in range(most + 1):
        for pick in combinations_with_replacement(codes, size):
            if all(n <= copies[c] for c, n in Counter(pick).items()):
                yield list(pick)


def _alebrijes():
    copies = Counter(alebrijes.CARDS)
    hands = list(_multisets(copies, 2))
    yield from ({"type": "exchange", "cards": cards} for cards in hands)
    yield from ({"type": "pass", "exchange": cards} for cards in hands)
    for n in alebrijes.NUMBERS:
        joker = f"{alebrijes.JOKER}{n}"
        for colour in alebrijes.COLOURS:
            plain, ollin = f"{colour}{n}", f"{colour}{n}*"
            for p, o, j in product(range(3), range(2), range(copies[joker] + 1)):
                if p + o == 0:
                    continue
                cards = [plain] * p + [ollin] * o + [joker] * j
                yield {"type": "play", "cards": cards, "ollin": "none"}
                if o:
                    yield {"type": "play", "cards": cards, "ollin": "others_draw"}
                    for aside in sorted(copies):
                        yield {
                            "type": "play",
                            "cards": cards,
                            "ollin": "lay_aside",
                            "lay_aside": aside,
                        }
        for j, colour in product(range(1, copies[joker] + 1), alebrijes.COLOURS):
            yield {"type": "play", "cards": [joker] * j, "colour": colour, "ollin": "none"}


def _alien():
    seats = range(MAX_SEATS)
    yield from ({"type": "play", "card": c} for c in alien.CLUE_CARDS)
    yield from ({"type": "capture", "card": c} for c in alien.CAPTURED_CARDS)
    yield from ({"type": "hunt", "card": "H1", "target": t} for t in seats)
    for card, target, which in product(("H2", "H3"), seats, alien.ALIENS):
        yield {"type": "hunt", "card": card, "target": target, "alien": which}
    for target, which in product(seats, alien.ALIENS):
        yield {"type": "take", "target": target, "alien": which}
    for card, on in product(alien.CAPTURED_CARDS, alien.CLUE_CARDS):
        yield {"type": "claim", "card": card, "table": on}
    yield from ({"type": kind} for kind in ("end_turn", "pass", "stack"))


def _alakablast():
    hand, seats = range(HAND_INDEXES), range(max(alakablast.PLAYERS))
    claims = [None]
    claims += [{"element": e} for e in alakablast.ELEMENTS]
    claims += [{"power": p} for p in range(8)]
    for card, informant, claim in product(hand, seats, claims):
        ask = {"type": "ask", "card": card, "informant": informant}
        yield ask if claim is None else {**ask, "claim": claim}
    yield from ({"type": "inform", "dimension": d} for d in alakablast.DIMENSIONS)
    for rival, kind in product(seats, alakablast.DUEL_KINDS):
        yield {"type": "duel", "rival": rival, "kind": kind}
        for card, dimension in product(hand, alakablast.DIMENSIONS):
            yield {
                "type": "duel",
                "rival": rival,
                "kind": kind,
                "card": card,
                "dimension": dimension,
            }
    yield from ({"type": "choose", "card": card} for card in hand)


def _abluxxen():
    copies = Counter(abluxxen.CARDS)
    joker = abluxxen.JOKER
    for number in sorted(set(abluxxen.CARDS) - {joker}, key=int):
        for n, j in product(range(1, copies[number] + 1), range(copies[joker] + 1)):
            yield {"type": "play", "cards": [number] * n + [joker] * j}
    yield from ({"type": "play", "cards": [joker] * j} for j in range(1, copies[joker] + 1))
    yield from ({"type": "attack", "target": t} for t in range(max(abluxxen.PLAYERS)))
    yield {"type": "stop"}
    yield from ({"type": "answer", "choice": c} for c in CHOICES)
    yield from ({"type": "keep", "take": take} for take in (True, False))
    for picks in _multisets(copies, abluxxen.DISPLAY_SIZE):
        yield {"type": "draw", "display": picks}


_ENUMERATIONS = {
    "alebrijes": _alebrijes,
    "alien": _alien,
    "alakablast": _alakablast,
    "abluxxen": _abluxxen,
}


class _Seen(dict):
    """{a command as marshal writes it: its action}. Each legal command is keyed (its
    fields sorted) the first time it is met written that way, then only looked up:
    keying every legal command of every view was most of the action mask's cost, and
    marshal.dumps is C (bytes that give the command back, so two commands never share
    one; one command may be written two ways, each then remembered)."""

    __slots__ = ("index",)

    def __init__(self, index):
        super().__init__()
        self.index = index

    def __missing__(self, written):
        found = self[written] = self.index[key(marshal.loads(written))]
        return found


class Actions:
    """One game's encoding: `commands[i]` is action i's command (None for WAIT)."""

    def __init__(self, game):
        self.game = game
        self.reflexes = getattr(rules.get(game), "REFLEXES", ())
        self.commands = [None, *_ENUMERATIONS[game]()]
        self.index = {key(c): i for i, c in enumerate(self.commands) if c is not None}
        assert len(self.index) == len(self.commands) - 1, f"{game}: two actions, one command"
        self._seen = _Seen(self.index)

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
            found = dict(
                zip(map(self._seen.__getitem__, map(marshal.dumps, legal)), legal, strict=True)
            )
        except ValueError:  # a value marshal cannot write: key each command
            found = {self.index[key(c)]: c for c in legal}
        reflexes = self.reflexes if reflexes is None else reflexes
        if found and not to_act or found and all(c["type"] in reflexes for c in legal):
            found[WAIT] = None
        return found


@functools.cache
def actions(game):
    """The Actions of `game`, built once per process."""
    return Actions(game)
