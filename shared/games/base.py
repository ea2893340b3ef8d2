"""The contract every game's rules module fulfils (the Decider shape of DESIGN.md).

A rules module is pure: no Redis, no Flask, no clock, no global random. State and
events are plain JSON-compatible values (dicts, lists, str, int, bool, None), so a
state can be snapshotted and an event appended to a stream as they are.

A module exposes:

    NAME: str                       the game's wire name, e.g. "alebrijes"
    PLAYERS: range                  allowed player counts, e.g. range(2, 7)
    OPTIONS: dict                   option names and their defaults
    CARDS: list[str]                the whole deck, one code per card (duplicates repeat)
    COMMANDS: tuple[str, ...]       the command types a seat may send

    configure(players, options) -> dict
        Validate and complete the creator's options (defaults filled in); raise
        RuleError("bad_options", ...) when they are not acceptable.
    check_deck(deck)                refuse (RuleError("bad_options")) a fixed deck that
                                    is not the game's CARDS in some order
    initial(config) -> state
        config = {"players": int, "seed": str, "deck": list[str] | None,
                  "options": dict (from configure)}. Nothing is dealt yet.
    decide(state, seat, command) -> list[event]
        seat None is the table itself: {"type": "start"} shuffles and deals.
        Raises RuleError when the command is refused; never mutates state.
    evolve(state, event) -> state
        Folds one event; never mutates its input. Needs no randomness: every
        shuffle and deal is carried by the events decide produced.
    to_act(state) -> list[int]      seats that must act now
    legal(state, seat) -> list[command]
        Every command the seat may send now, each as it can be sent.
    timeout(state, seat) -> command the default action when the seat runs out of time
    view(state, seat) -> dict       what that seat (None: a spectator) may see
    decide, legal and view raise RuleError("not_your_turn") for a seat that is neither
    None nor a whole number 0..players-1 (common.check_seat; True and 1.0 are not seats).
    redact(event, seat) -> dict     the event as that seat (None: a spectator) may see it
    result(state) -> dict | None    {"winners": [...], "scores": [...], ...} once finished

Optional, for speed (a search's play-outs, a decide folding its own events):

    evolve_in_place(state, event) -> state
        Folds one event into `state` itself and returns it; the same state as
        evolve(state, event) gives (a test checks it over whole games). Only for a
        state its caller owns and nobody else holds. A game without it is searched
        with evolve.

Optional, for games with real-time parts (Alien):

    REFLEXES: tuple[str, ...]       command types a bot sends out of turn after its
                                    reaction delay (a claim, a stack), not at once
    reflex_commands(state, seat) -> list
        The commands of REFLEXES among legal(state, seat), in the same order, worked
        out without the turn commands (a search asks every seat at every step); a
        test checks it equals the filtered legal over whole games.
    table_timers(state) -> list     the table's own commands that wait on a clock:
        [{"key": str, "seconds": number, "command": dict}]; the service sends `command`
        as the table (seat None) `seconds` after `key` first appeared, unless it is gone
"""


class RuleError(Exception):
    """A refused command. `code` is stable and reaches API clients as the error code.

    Codes: "not_your_turn", "illegal_move", "bad_command" (not a well-formed command
    for this game), "bad_options".
    """

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message
