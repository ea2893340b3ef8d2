"""ismcts: information-set Monte Carlo tree search over the pure rules engines.

The seat knows only its view and its feed. Each iteration of the search:

1. samples one world the seat cannot rule out: a complete rules state drawn by the
   game's bot module (`sample`), the others' hidden cards (and a hidden duel card they
   already chose) dealt at random, never read from the table;
2. walks down a tree of the seat's own decisions, choosing among the commands legal in
   that world by UCB1 over how often each was available (the "subset-armed" bandit of
   single-observer ISMCTS), adding one new node. Card games offer dozens of commands
   and a decision gets a few dozen play-outs at 300 ms (each is a whole game on rules
   engines that copy their state at every event), so the tree widens progressively:
   greedy's choice first, then more commands as a node's visits grow;
3. plays the game out on the rules engine: every other seat plays `greedy` on its own
   view of the world (so no seat sees another's cards, not even in the search), the
   table sends its timers' commands when nobody must act (Alien's stacking window),
   and out-of-turn reflexes (Alien's claims and stacks) are sent before each command;
4. scores the end for the seat: its share of the victory (1/len(winners) when it is a
   winner), shaped a little by how its score ranks, and backs it up the path.

The answer is the most visited command at the root. The whole search, sampling included,
runs within `think_ms` milliseconds: it reads the clock at every step (one command in a
world, or drawing a world) and stops at SEARCH_SHARE of the budget, or earlier when a
step as slow as the slowest so far would overrun the budget, so a decision's p99 stays
within 1.5x the budget (measured by the tournament).
The clock is injected, so a test drives the search with a fake clock deterministically.

Every game's rules state holds its player count as `players`; a play-out stuck with
nobody to act and no timer, or longer than MAX_STEPS, scores a fair share.

Open loop: a node is the seat's sequence of commands, whatever the others did in between
in one world or another. Other seats are modelled by their greedy play rather than
searched, which at a few dozen play-outs a decision is both cheaper and sturdier.
"""

import gc
import json
import math
import time
from importlib import import_module

from shared import games
from shared.games.base import RuleError

THINK_MS = 300  # default budget of one decision
MIN_THINK_MS, MAX_THINK_MS = 20, 5000  # what a seat may ask for
SEARCH_SHARE = 0.85  # of the budget: the rest is slack for the last step and the answer
EXPLORATION = 0.7  # UCB1's constant, for rewards in [0, 1]
WIDENING = 1.0  # a node visited n times considers 1 + WIDENING * sqrt(n) commands
SCORE_WEIGHT = 0.1  # share of the reward from the score's rank among the seats
DEFAULT_CLOCK = time.perf_counter  # tests put a fake clock here to search deterministically
MAX_STEPS = 5000  # a rollout longer than this (a bug) counts as a fair share


class OutOfTime(Exception):
    """The budget ran out in the middle of an iteration: that iteration is dropped."""


class Node:
    """The seat's decision after a sequence of its own commands."""

    __slots__ = ("available", "children", "command", "rank", "reward", "visits")

    def __init__(self, command=None):
        self.command = command
        self.visits = 0
        self.reward = 0.0
        self.available = 0  # iterations in which this command was considered at its parent
        self.children = {}
        self.rank = {}  # command key -> a random rank, drawn when first seen here

    def ucb(self):
        mean = self.reward / self.visits
        return mean + EXPLORATION * math.sqrt(math.log(self.available) / self.visits)


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
    favourite = search.bots.greedy(view, feed, rng)
    root = Node()
    # The play-outs make no reference cycles; a full collection of the process's heap
    # in the middle of a search (tens of ms in a big process) would make it late, so
    # the cyclic collector waits until the answer is ready.
    collecting = gc.isenabled()
    gc.disable()
    try:
        while True:
            budget.check()
            world = search.bots.sample(view, feed, rng)
            search.iterate(root, world, _key(favourite))
    except OutOfTime:
        pass
    finally:
        if collecting:
            gc.enable()
    if not root.children:  # not one play-out in time: answer as greedy does
        return favourite
    best = max(root.children.values(), key=lambda n: (n.visits, n.reward))
    return best.command


def _key(command):
    return json.dumps(command, sort_keys=True)


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
        self.timers = getattr(self.rules, "table_timers", None)
        self.rng = rng
        self.policy = self._greedy if rollout == "greedy" else self._random
        self.budget = budget

    def iterate(self, root, world, favourite):
        """One iteration in one sampled world: select and expand down the seat's tree,
        play out, back the reward up. `favourite` is the key of greedy's command at the
        root (decided on the seat's whole feed)."""
        rules, seat = self.rules, self.seat
        path, node, state, expanding = [root], root, world, True
        for _ in range(MAX_STEPS):
            self.budget.check()
            if rules.result(state) is not None:
                break
            if expanding and seat in rules.to_act(state):
                legal = rules.legal(state, seat)
                if favourite is None:
                    favourite = _key(self._greedy(state, seat, legal))
                node, expanding = self._select(node, legal, favourite)
                favourite = None
                path.append(node)
                state = self._apply(state, seat, node.command)
            else:
                state = self._step(state)
                if state is None:
                    break
        result = None if state is None else rules.result(state)
        reward = self._reward(result) if result is not None else 1 / world["players"]
        for visited in path:
            visited.visits += 1
            visited.reward += reward

    def _select(self, node, legal, favourite):
        """The child to follow, by progressive widening: a node visited n times
        considers its first 1 + WIDENING * sqrt(n) legal commands, greedy's choice
        (`favourite`) first, the others in a random order drawn at the node. A command
        considered but never tried is tried (the walk down the tree then stops: the rest
        is the play-out), else the best by UCB1 among those considered."""
        keyed = []
        for command in legal:
            key = _key(command)
            if key not in node.rank:
                node.rank[key] = self.rng.random()
            keyed.append((-1.0 if key == favourite else node.rank[key], key, command))
        keyed.sort(key=lambda ranked: ranked[0])
        considered = keyed[: 1 + int(WIDENING * math.sqrt(node.visits))]
        for _, key, command in considered:
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node(command)
                child.available = 1
                return child, False
        present = [node.children[key] for _, key, _ in considered]
        for child in present:
            child.available += 1
        return max(present, key=Node.ucb), True

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
            legal = rules.legal(state, seat)
            if not any(c["type"] in self.reflexes for c in legal):
                continue
            command = self.bots.reflex(self._view(state, seat, legal), [], self.rng)
            if command is not None:
                try:
                    return self._fold(state, rules.decide(state, seat, command))
                except RuleError:
                    continue
        return None

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
        for event in events:
            state = self.rules.evolve(state, event)
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
