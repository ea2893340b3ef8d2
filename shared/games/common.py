"""Small checks every rules module makes in the same way (see base.py for the contract).

Pure helpers, no game's rules: a new game's player count, options and fixed deck
("bad_options"), a seat not at the table ("not_your_turn"), the common shape of a command
("bad_command"), and the deep copy used to
fold events without touching the state that came in. Each game keeps its own values,
messages about its cards, and any check that differs from game to game.
"""

from collections import Counter
from itertools import combinations_with_replacement

from .base import RuleError

# What clone returns as it is, without a call: the leaves of a JSON-like value.
_LEAVES = frozenset({str, int, float, bool, type(None)})


def is_int(value):
    """Whether `value` is a whole number: an int, but not a bool (True is an int in Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


def clone(value):
    """A deep copy of a JSON-like value (faster than copy.deepcopy for plain data).

    A leaf (a card code, a number) is not passed to a call of its own: a game's state is
    copied in about half the time; a subclass of dict or list (a Counter) is copied, as
    before, into a plain one."""
    kind = type(value)
    if kind is dict:
        return {key: item if type(item) in _LEAVES else clone(item) for key, item in value.items()}
    if kind is list:
        return [item if type(item) in _LEAVES else clone(item) for item in value]
    if isinstance(value, dict):
        return {key: clone(item) for key, item in value.items()}
    if isinstance(value, list):
        return [clone(item) for item in value]
    return value


def fold_event(folds, state, event, game, copy=True):
    """The state after `event`: `folds[type](state, event)` applied to a copy, so neither
    input changes. With copy=False the fold is applied to `state` itself, which is
    returned: only for a state the caller owns and nobody else holds (a search's own
    copy of a world; a decide's own copy). Raises ValueError for an event `game` does
    not have."""
    fold = folds.get(event.get("type"))
    if fold is None:
        raise ValueError(f"{game} has no event type {event.get('type')!r}")
    if copy:
        state = clone(state)
    fold(state, event)
    return state


# --- a new game: RuleError("bad_options")


def check_players(players, allowed, game):
    """Refuse (RuleError("bad_options")) a player count that is not an int in `allowed`, a
    range such as range(2, 6); `game` is the game's name as the message says it."""
    if not is_int(players) or players not in allowed:
        raise RuleError(
            "bad_options",
            f"{game} is for {allowed.start} to {allowed.stop - 1} players, not {players!r}",
        )


def check_options(options, defaults):
    """The options completed with `defaults` (the game's OPTIONS), as a new dict.

    None stands for no options. Raises RuleError("bad_options") when `options` is not an
    object or names an option that is not in `defaults`; the values are the game's to check.
    """
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise RuleError("bad_options", "options must be an object")
    unknown = sorted(map(str, set(options) - set(defaults)))
    if unknown:
        known = f"the options are {', '.join(defaults)}" if defaults else "this game takes none"
        raise RuleError("bad_options", f"unknown option(s): {', '.join(unknown)}; {known}")
    return {**defaults, **options}


def check_deck(deck, cards, wrong):
    """Refuse (RuleError("bad_options")) a fixed deck that is not a list of card codes
    holding exactly `cards` (the game's CARDS) in some order; `wrong` is the message for a
    list of codes that are not those cards."""
    if not isinstance(deck, list) or not all(isinstance(card, str) for card in deck):
        raise RuleError("bad_options", "deck must be a list of card codes")
    if Counter(deck) != Counter(cards):
        raise RuleError("bad_options", wrong)


def read_config(config, configure, check_deck):
    """(players, options, deck) from an `initial` config, checked by the game's own
    `configure` (the player count and options again) and `check_deck` (a fixed deck; None
    when there is none). Raises RuleError("bad_options")."""
    players = config["players"]
    options = configure(players, config.get("options"))
    deck = config.get("deck")
    if deck is not None:
        check_deck(deck)
    return players, options, deck


def check_seed(config):
    """Refuse (RuleError("bad_options")) a config whose seed is not a string."""
    if not isinstance(config.get("seed"), str):
        raise RuleError("bad_options", "seed must be a string")


# --- a seat: RuleError("not_your_turn")


def check_seat(seat, players):
    """Refuse (RuleError("not_your_turn")) a seat that is not at a table of `players`:
    anything but None (the table, or a spectator) and a whole number 0..players-1. A bool
    or a float such as 1.0 is not a seat, even where Python would compare it equal to one."""
    if seat is not None and not (is_int(seat) and 0 <= seat < players):
        raise RuleError("not_your_turn", f"there is no seat {seat!r} at this table")


# --- a command's shape: RuleError("bad_command")


def command_type(command, kinds):
    """The command's type, once it is an object whose "type" is one of `kinds`; raises
    RuleError("bad_command") otherwise."""
    kind = command.get("type") if isinstance(command, dict) else None
    if not isinstance(kind, str) or kind not in kinds:
        raise RuleError(
            "bad_command", f"a command is an object whose type is one of {', '.join(kinds)}"
        )
    return kind


def check_fields(command, kind, required, optional=()):
    """Refuse (RuleError("bad_command")) a command of type `kind` with a field, "type"
    aside, that is neither `required` nor `optional`, or without one that is `required`.
    Unknown fields are reported first."""
    allowed = {"type", *required, *optional}
    unknown = sorted(map(str, set(command) - allowed))
    if unknown:
        raise RuleError("bad_command", f"unknown field(s) for {kind}: {', '.join(unknown)}")
    missing = sorted(set(required) - set(command))
    if missing:
        raise RuleError("bad_command", f"missing field(s) for {kind}: {', '.join(missing)}")


def card_list(value, field, codes, hint=""):
    """`value` as a new list of card codes that are all in `codes`; RuleError("bad_command")
    naming `field` otherwise, the unknown codes followed by `hint` (e.g. "; codes are ...")."""
    if not isinstance(value, list) or not all(isinstance(card, str) for card in value):
        raise RuleError("bad_command", f"{field} must be a list of card codes")
    unknown = [card for card in value if card not in codes]
    if unknown:
        raise RuleError(
            "bad_command", f"unknown card code(s) in {field}: {', '.join(unknown)}{hint}"
        )
    return list(value)


def multisets(copies, most):
    """Every multiset of 0 to `most` codes, each code at most copies[code] times."""
    codes = sorted(copies)
    for size in range(most + 1):
        for pick in combinations_with_replacement(codes, size):
            if all(n <= copies[c] for c, n in Counter(pick).items()):
                yield list(pick)
