"""A PettingZoo AEC environment over one game's pure rules, seen seat by seat.

The agents are `seat_0`, `seat_1`...; the one to act is a seat whose turn it is, else
one that may react (Alien's claims and stacks; it may `wait`), else the table's timer
fires by itself (Alien's stacking window closes) and play goes on. What an agent
observes is exactly what its seat gets from the API:

- `observe(agent)`: {"observation": the flat encoding of the seat's view (float32,
  observations.SIZE), "action_mask": int8 over the game's fixed action encoding
  (actions.py), 1 for each legal command};
- `infos[agent]` for the agent to act: {"view": the structured view itself, as the API
  gives it, "action_mask": the same mask}, so an agent that reads the view never asks
  for the flat vector, and the env does not make it; `feed(agent)`: its events,
  redacted as the events endpoint redacts them.

The rewards come at the end: a winner gets its share of the victory (1 / winners),
every other seat 0. A game that has not ended after `max_steps` steps is truncated.
"""

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from shared import games, table
from shared.envs.actions import WAIT, actions
from shared.envs.observations import SIZE, Encoder, action_mask
from shared.table import offline

MAX_STEPS = 20_000


class TableEnv(AECEnv):
    """One game of `game` for `players` seats; `options` are the game's (rounds...)."""

    metadata = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game, players=2, options=None, max_steps=MAX_STEPS, render_mode=None):
        super().__init__()
        self.game, self.players = games.get(game).NAME, players
        self.metadata = {**self.metadata, "name": f"tablestream_{self.game}_v0"}
        self.options, self.max_steps, self.render_mode = dict(options or {}), max_steps, render_mode
        self.encoding, self.encoder = actions(self.game), Encoder()
        self.reflexes = getattr(games.get(self.game), "REFLEXES", ())
        self.possible_agents = [f"seat_{i}" for i in range(players)]
        observation = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (len(self.encoding),), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = {a: spaces.Discrete(len(self.encoding)) for a in self.possible_agents}

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """A new game, dealt from `seed` (any int; None: a fresh one)."""
        if seed is None:
            seed = random.SystemRandom().getrandbits(32)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.table, self.version, self.steps = None, 0, 0
        self.feeds = [[] for _ in range(self.players)]
        self._views, self._legal, self._observations, self._waited = {}, {}, {}, set()
        seats = [{"name": agent} for agent in self.agents]
        self._record(table.create("env", self.game, seats, self.options, str(seed)))
        self._advance()

    def seat(self, agent):
        return self.possible_agents.index(agent)

    def view(self, agent):
        """The agent's seat's view, as the API gives it (do not change it)."""
        seat = self.seat(agent)
        found = self._views.get(seat)
        if found is None:
            found = self._views[seat] = table.view(self.table, self.version, seat)
        return found

    def feed(self, agent):
        """The agent's seat's events so far, as the events endpoint redacts them."""
        return list(self.feeds[self.seat(agent)])

    def observe(self, agent):
        seat = self.seat(agent)
        found = self._observations.get(seat)
        if found is None:
            mask, _ = self._actions(agent)
            found = {"observation": self.encoder.encode(self.view(agent)), "action_mask": mask}
            self._observations[seat] = found
        return found

    def _actions(self, agent):
        """(action mask, {action: command}) of the agent, made once per version."""
        seat = self.seat(agent)
        found = self._legal.get(seat)
        if found is None:
            found = self._legal[seat] = action_mask(self.view(agent), self.encoding)
        return found

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        _, legal = self._actions(agent)
        if action not in legal:
            raise ValueError(f"action {action} is not legal for {agent} (see its action_mask)")
        if action == WAIT:
            self._waited.add(self.seat(agent))
        else:
            self._record(table.play(self.table, self.seat(agent), legal[action], by="holder"))
        self.steps += 1
        self._advance()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi":
            return f"{self.game} version {self.version}: {self.table['status']}"
        return None

    def close(self):
        pass

    def _record(self, events):
        self.table, self.version = offline.record(self.table, self.version, events, self.feeds)
        self._views, self._legal, self._observations, self._waited = {}, {}, {}, set()

    def _advance(self):
        """Choose the agent to act, firing the table's timers when nobody must."""
        for _ in range(1000):
            if self.table["status"] != "active":
                return self._end()
            if self.steps >= self.max_steps:
                self.truncations = dict.fromkeys(self.agents, True)
                return None
            seat = self._next_seat()
            if seat is not None:
                self.agent_selection = self.possible_agents[seat]
                self.infos = {a: {} for a in self.agents}
                agent = self.agent_selection
                mask, _ = self._actions(agent)
                self.infos[agent] = {"view": self.view(agent), "action_mask": mask}
                return None
            timers = table.rules_timers(self.table)
            if not timers:
                raise RuntimeError(f"{self.game}: nobody can act and no timer runs")
            self._record(table.fire(self.table, timers[0]["key"]))
        raise RuntimeError(f"{self.game}: the table's timers do not stop firing")

    def _next_seat(self):
        acting = table.to_act(self.table)
        for seat in acting:
            if table.bot_chances(self.table, seat)[0]:
                return seat
        for seat in range(self.players):
            if seat not in self._waited and table.bot_chances(self.table, seat)[1]:
                return seat
        if acting and not table.rules_timers(self.table):
            self._waited.discard(acting[0])  # it must choose: waiting is over
            return acting[0]
        return None

    def _end(self):
        winners = (self.table.get("result") or {}).get("winners") or []
        for agent in self.agents:
            share = 1.0 / len(winners) if self.seat(agent) in winners else 0.0
            self.rewards[agent] = share
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos = {a: {} for a in self.agents}
        return None
