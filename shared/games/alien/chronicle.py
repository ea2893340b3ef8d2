"""The events one command produces, and the seeded chance behind them.

`decide` writes its events into a Chronicle, which folds them before the next look at
the state: the next decision sees the cards where the last event left them, and the
events can never disagree with the state they rebuild. The Chronicle folds into its own
copy of the state, made the first time an event must be folded (a command whose only
event is its last, such as a play, copies nothing); the state it was given never changes.
"""

import random

from .evolve import copy_state, evolve_in_place
from .facts import HAND_SIZE


class Chronicle:
    """A growing list of events and the state they have led to so far."""

    def __init__(self, state):
        self._state = state
        self._owned = False  # whether _state is the Chronicle's own copy
        self._unfolded = []  # events added since the state was last read
        self.events = []

    def add(self, event):
        """Record `event`; the working state folds it before it is next read."""
        self.events.append(event)
        self._unfolded.append(event)

    @property
    def state(self):
        """The state after every event added so far."""
        if self._unfolded:
            if not self._owned:
                self._state, self._owned = copy_state(self._state), True
            for event in self._unfolded:
                evolve_in_place(self._state, event)
            self._unfolded.clear()
        return self._state

    def chance(self, purpose):
        """A random source fixed by the seed, the purpose and how many events came
        before, so replaying the same commands gives the same outcomes."""
        state = self.state
        return random.Random(f"{state['seed']}/{purpose}/{state['step']}")

    def random_card(self, seat, purpose):
        """A card drawn blind from `seat`'s hand, or None when the hand is empty."""
        hand = self.state["hands"][seat]
        return self.chance(purpose).choice(hand) if hand else None

    def draw(self, seat, count):
        """`seat` draws `count` cards from the top of the draw pile. When the pile runs
        out, the played CLUE cards under the table card and the used bounty hunters are
        shuffled into a new one; with nothing to shuffle, drawing stops."""
        while count > 0:
            pile = self.state["draw_pile"]
            if pile:
                cards = pile[:count]
                self.add({"type": "drew", "seat": seat, "cards": cards})
                count -= len(cards)
                continue
            spent = self.state["played"] + self.state["hunters"]
            if not spent:
                return
            self.chance("reshuffle").shuffle(spent)
            self.add({"type": "reshuffled", "draw_pile": spent})

    def draw_up_to_hand_size(self, seat):
        """`seat` draws until holding 5 cards (nothing when holding 5 or more)."""
        self.draw(seat, HAND_SIZE - len(self.state["hands"][seat]))
