"""The `ismcts` level's search: Monte Carlo over the worlds a seat cannot rule out.

The seat knows only its view and its feed. The search repeats, while time lasts:

1. sample one world the seat cannot rule out: a complete rules state drawn by the
   game's bot module (`sample`), the others' hidden cards (and a duel card a rival
   already chose in secret) dealt at random, never read from the table;
2. play that same world out once from each candidate command (greedy's choice first,
   then the others in the bot module's `rank` order when it has one, else in a random
   order; more of them as worlds accumulate: 1 + WIDENING sqrt(n) after n worlds),
   with the same random numbers for each, so that candidates are compared on the same
   deal rather than on luck. In a play-out every seat, the searching one included
   after its first command, plays `greedy` on its own view of the world (no seat sees
   another's cards, not even in the search); Alien's reflexes (claims, stacks) go out
   before each command, and a table timer fires when nobody must act;
3. score each end for the seat: its share of the victory (1/len(winners) when it is a
   winner), with SCORE_WEIGHT of the reward from the rank of its score. A bot module
   with `evaluate(state, seat)` and HORIZON has its play-outs cut short after HORIZON
   commands: `evaluate` reads the world's standing as a reward from 0 to 1. With
   `cut(state, seat)` too, a play-out is read earlier, as soon as cut says the world
   is at a point evaluate reads well (Alien: the seat's next turn begins).

The answer is the candidate whose reward beat greedy's choice by the most on the
worlds both were played in (at least MIN_WORLDS, by more than CONFIDENCE standard
errors of the mean gain, and by more than the bot module's MIN_GAIN), else greedy's
choice.

The bot module's interface: `greedy`, `reflex`, `sample` (required); `rank`,
`evaluate` with `HORIZON`, `cut`, `CONFIDENCE`, `MIN_GAIN` (optional,
defaults above; MIN_GAIN 0). The rules module's: a game with
`evolve_in_place` (base.py) is played out on one copy of the world per play-out, its
events folded into it; any other with `evolve`, which copies the state at every event;
a game with reflexes and `reflex_commands` has each seat's reflexes listed by it at
every step, rather than by filtering `legal`.

Speed and strength: `python -m bench.playouts` counts the play-outs a second per game
(folding in place, and cutting at HORIZON, are what make them cheap), and the
tournament measures each level against the others; docs/bots.md has the latest
figures and their commands.

Why not a tree. The level is named for information-set MCTS, and a single-observer,
open-loop ISMCTS with progressive widening was written first. But a decision gets only
a few dozen play-outs at 300 ms, too few to grow a useful tree, and comparing
candidates on common worlds measured stronger head to head against greedy (the tree
won 0.45 of the games on average, these paired play-outs 0.54, on the same seeds).

Time: the whole search, sampling included, runs within `think_ms` milliseconds. It
reads the clock at every step (one command in a world, or drawing a world) and stops at
SEARCH_SHARE of the budget, or earlier when a step as slow as the slowest so far would
overrun the budget, so a decision's p99 stays within 1.5x the budget (the tournament
measures it). The clock is injected, so a test drives the search deterministically.

Every game's rules state holds its player count as `players`.
"""

import gc
import math
import random
import time
from importlib import import_module

from shared import games
from shared.games.base import RuleError
from shared.games.common import clone

THINK_MS = 300  # default budget of one decision
MIN_THINK_MS, MAX_THINK_MS = 20, 5000  # what a seat may ask for
SEARCH_SHARE = 0.85  # of the budget: the rest is slack for the last step and the answer
WIDENING = 1.0  # after n worlds, 1 + WIDENING * sqrt(n) candidates are played out
MIN_WORLDS = 2  # worlds a candidate must have been compared on to replace greedy's
CONFIDENCE = 1.0  # standard errors its mean gain must be above zero
SCORE_WEIGHT = 0.1  # share of the reward from the score's rank among the seats
DEFAULT_CLOCK = time.perf_counter  # tests put a fake clock here to search deterministically
MAX_STEPS = 5000  # a play-out longer than this (a bug) counts as a fair share
FOLD_IN_PLACE = True  # fold a play-out's events into its own copy (bench/playouts.py)


class OutOfTime(Exception):
    """The budget ran out in the middle of a play-out: that world is dropped."""


def search(view, feed, rng, think_ms=None, clock=None, rollout="greedy"):
    """The command the seat of `view` sends, after searching within `think_ms`
    milliseconds (THINK_MS when None) on the clock `clock` (seconds; DEFAULT_CLOCK when
    None). `rollout` is "greedy" (every seat plays its game module's greedy in the
    play-outs) or "random"."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    budget = Budget(clock or DEFAULT_CLOCK, THINK_MS if think_ms is None else think_ms)
    search = Search(view, rng, rollout, budget)
    candidates = _candidates(search.bots, view, feed, rng)
    favourite = candidates[0]
    gains = {}  # index -> [command, its reward minus greedy's choice's, world by world]
    # The play-outs make no reference cycles; a full collection of the process's heap
    # in the middle of a search (tens of ms in a big process) would make it late, so
    # the cyclic collector waits until the answer is ready.
    collecting = gc.isenabled()
    gc.disable()
    worlds = 0
    try:
        while True:
            budget.check()
            world = search.bots.sample(view, feed, rng)
            worlds += 1
            width = min(len(candidates), 1 + int(WIDENING * math.sqrt(worlds)))
            luck = rng.random()  # the same random numbers for every candidate here
            rewards = []
            for command in candidates[:width]:
                search.rng = random.Random(luck)
                rewards.append(search.play_out(world, command))
            for index in range(1, width):  # a candidate's place in the list is its key
                command = candidates[index]
                gains.setdefault(index, [command, []])[1].append(rewards[index] - rewards[0])
    except OutOfTime:
        pass
    finally:
        search.rng = rng
        if collecting:
            gc.enable()
    # A bot module may set its own CONFIDENCE and MIN_GAIN (Alien: its evaluate's small
    # gains are not real ones).
    confidence = getattr(search.bots, "CONFIDENCE", CONFIDENCE)
    return _best(favourite, gains.values(), confidence, getattr(search.bots, "MIN_GAIN", 0.0))


def _candidates(bots, view, feed, rng):
    """The legal commands in the order the search tries them: greedy's choice first,
    then the bot module's `rank` order when it has one (the most promising first),
    else a random order."""
    rank = getattr(bots, "rank", None)
    if rank is not None:
        ranked = rank(view, feed, rng)
    else:
        favourite = bots.greedy(view, feed, rng)
        others = [c for c in view["legal"] if c != favourite]
        rng.shuffle(others)
        ranked = [favourite, *others]
    return ranked


def _best(favourite, gains, confidence=CONFIDENCE, min_gain=0.0):
    """The command whose mean gain over greedy's choice is the largest, if it is above
    `confidence` standard errors of that mean and above `min_gain` (and measured on
    MIN_WORLDS worlds at least); else greedy's choice."""
    best, margin = favourite, min_gain
    for command, diffs in gains:
        n = len(diffs)
        if n < MIN_WORLDS:
            continue
        mean = sum(diffs) / n
        error = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        if mean > margin and mean > confidence * error:
            best, margin = command, mean
    return best


class Budget:
    """The time a decision may take, read on `clock` (seconds) at every step of the
    search: a step is one command played in a world, or drawing one world."""

    def __init__(self, clock, think_ms):
        self.clock = clock
        self.last = start = clock()
        self.soft = start + think_ms / 1000 * SEARCH_SHARE
        self.hard = start + think_ms / 1000
        self.slowest = 0.0  # the longest step so far

    def check(self):
        """Raise OutOfTime once SEARCH_SHARE of the budget has passed, or when a step
        as slow as the slowest so far would not end within the whole budget (a
        game's greedy or sample may take milliseconds: the answer must not be late)."""
        now = self.clock()
        self.slowest = max(self.slowest, now - self.last)
        self.last = now
        if now >= self.soft or now + self.slowest >= self.hard:
            raise OutOfTime


class Search:
    """One decision's search: the rules, the game's bot module and the clock."""

    def __init__(self, view, rng, rollout, budget):
        self.game = view["game"]
        self.seat = view["seat"]
        self.rules = games.get(self.game)
        self.bots = import_module(f"shared.bots.games.{self.rules.NAME}")
        # The rules' own options, as a play-out's minimal views carry them.
        self.options = {k: v for k, v in view["options"].items() if k in self.rules.OPTIONS}
        self.reflexes = getattr(self.rules, "REFLEXES", ())
        # A game's reflex_commands lists a seat's reflexes without its turn commands:
        # _reflex asks every seat at every step of a play-out.
        self.reflex_commands = getattr(self.rules, "reflex_commands", None) or self._reflex_legal
        self.timers = getattr(self.rules, "table_timers", None)
        self.rng = rng
        self.policy = self._greedy if rollout == "greedy" else self._random
        self.budget = budget
        # A game whose rules fold in place (evolve_in_place) is played out on one copy
        # of the world, folded into event by event; any other with evolve, which copies
        # the state at every event.
        self.in_place = getattr(self.rules, "evolve_in_place", None) if FOLD_IN_PLACE else None
        # A bot module with `evaluate` (and HORIZON) has long games cut short: after
        # HORIZON commands the play-out ends with evaluate's estimate of the reward.
        self.evaluate = getattr(self.bots, "evaluate", None)
        self.horizon = getattr(self.bots, "HORIZON", MAX_STEPS) if self.evaluate else MAX_STEPS
        # ...and with `cut(state, seat)` too, it ends as soon as cut says the world is at
        # a point evaluate reads well (Alien: when the seat's next turn begins).
        self.cut = getattr(self.bots, "cut", None) if self.evaluate else None

    def play_out(self, world, command):
        """The seat's reward after it sends `command` in `world` and every seat then
        plays its policy to the end. `world` is not changed."""
        rules = self.rules
        if self.in_place is not None:
            world = clone(world)  # this play-out's own copy, folded in place
        state = self._apply(world, self.seat, command)
        cut = self.cut if self.evaluate is not None else None
        for commands in range(self.horizon):
            self.budget.check()
            result = rules.result(state)
            if result is not None:
                return self._reward(result)
            if cut is not None and commands and cut(state, self.seat):
                return self.evaluate(state, self.seat)
            state = self._step(state)
            if state is None:
                return 1 / world["players"]  # stuck: a fair share
        if self.evaluate is not None and rules.result(state) is None:
            return self.evaluate(state, self.seat)
        result = rules.result(state)
        return 1 / world["players"] if result is None else self._reward(result)

    def _step(self, state):
        """One command of a play-out: a reflex when some seat has one worth sending,
        else the first seat to act plays its policy, else a table timer fires. None
        when the game is stuck (nobody to act, no timer)."""
        rules = self.rules
        if self.reflexes:
            reflexed = self._reflex(state)
            if reflexed is not None:
                return reflexed
        acting = rules.to_act(state)
        if acting:
            mover = self.seat if self.seat in acting else acting[0]
            legal = rules.legal(state, mover)
            return self._apply(state, mover, self.policy(state, mover, legal), legal)
        timers = self.timers(state) if self.timers else []
        if timers:
            return self._fold(state, rules.decide(state, None, timers[0]["command"]))
        return None

    def _reflex(self, state):
        """The state after the first out-of-turn reflex a seat sends (seats in a random
        order: they all react as fast), or None when nobody sends one."""
        rules = self.rules
        seats = list(range(state["players"]))
        self.rng.shuffle(seats)
        for seat in seats:
            legal = self.reflex_commands(state, seat)
            if not legal:
                continue
            command = self.bots.reflex(self._view(state, seat, legal), [], self.rng)
            if command is not None:
                try:
                    return self._fold(state, rules.decide(state, seat, command))
                except RuleError:
                    continue
        return None

    def _reflex_legal(self, state, seat):
        """The reflexes among the seat's legal commands (a game without reflex_commands)."""
        return [c for c in self.rules.legal(state, seat) if c["type"] in self.reflexes]

    def _greedy(self, state, seat, legal):
        return self.bots.greedy(self._view(state, seat, legal), [], self.rng)

    def _random(self, state, seat, legal):
        return legal[self.rng.randrange(len(legal))]

    def _view(self, state, seat, legal):
        """The minimal view of BOTS-INTERFACE.md: what `seat` sees of this world."""
        return {
            "game": self.game,
            "seat": seat,
            "to_act": self.rules.to_act(state),
            "legal": legal,
            "state": self.rules.view(state, seat),
            "options": self.options,
        }

    def _apply(self, state, seat, command, legal=None):
        """The state after `seat` sends `command`; a command the rules refuse (a policy's
        mistake) is replaced by a random legal one."""
        try:
            return self._fold(state, self.rules.decide(state, seat, command))
        except RuleError:
            legal = legal or self.rules.legal(state, seat)
            fallback = legal[self.rng.randrange(len(legal))]
            return self._fold(state, self.rules.decide(state, seat, fallback))

    def _fold(self, state, events):
        fold = self.in_place or self.rules.evolve
        for event in events:
            state = fold(state, event)
        return state

    def _reward(self, result):
        """The seat's share of the victory, shaped by its score's rank."""
        winners, scores = result["winners"], result.get("scores") or []
        share = 1 / len(winners) if self.seat in winners else 0.0
        if len(scores) < 2:
            return share
        mine = scores[self.seat]
        beaten = sum((s < mine) + 0.5 * (s == mine) for s in scores) - 0.5
        rank = beaten / (len(scores) - 1)
        return (1 - SCORE_WEIGHT) * share + SCORE_WEIGHT * rank
