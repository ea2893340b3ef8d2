"""Alien on the seat's turn (`greedy`) and out of it (`reflex`, CAPTURED! and stacking).

Strategy (from the rulebook): the game is a race to 4 aliens, so every capture comes
first. A CAPTURED! claim (sum or difference) is shouted the moment it is right: it
captures and also wins a card from the last to stack; `legal` only ever lists right
claims, so the bot never pays for a wrong one. On its turn the bot then takes what the
bounty hunters and the empty-hand bonus give (an alien from the leader's prison), captures
by matching, and lays CLUE cards that lead, within three cards, to a table card it can
capture on. Failing that it lays the longest chain of CLUE cards it can: every card laid
is a new card drawn at the end of the turn (more CAPTURED cards and bounty hunters), and
a hand laid out whole, the turn begun with 4 or more cards, earns the empty-hand take.
Among chains as long, it ends on the table card that gives the others the fewest live
aliens (neither in a prison nor in its own hand) to match or to claim. Measured: laying
only when it made the table card safer won 66% of 2-player games against random; laying
the longest chain wins 88%.
"""

from shared.games.alien.facts import (
    TAKE_MIN_HAND,
    alien_of,
    aliens_on,
    claimable_aliens,
    is_captured,
    is_clue,
)

PLAN_DEPTH = 3  # CLUE cards laid in a row looking for a capture
CHAIN_NODES = 400  # chains tried when choosing the next CLUE card to lay
EMPTY_SEARCH_LIMIT = 6  # CLUE cards in hand beyond which the empty-hand search is skipped


# --- out of turn


def reflex(view, feed, rng):
    """A right CAPTURED! claim when there is one (legal lists only right ones), else the
    stack a window asks for, else None."""
    legal = view["legal"]
    for kind in ("claim", "stack"):
        for command in legal:
            if command["type"] == kind:
                return command
    return None


# --- on the seat's turn


class Policy:
    """Greedy's rules with knobs, for variants screened against it in the tournament
    (none measured stronger, docs/bots.md). With every knob at its default it is greedy.

    - `claim_cost`: what laying a CLUE card costs per live alien anyone may claim on it
      (its sum or difference), in cards laid (0: the longest chain, whatever it opens).
      Above 0 a chain scores its cards less that cost, and the turn ends (or passes)
      rather than lay a chain that scores below nothing.
    - `plan_depth`: CLUE cards laid in a row looking for a capture (PLAN_DEPTH).
    - `h1_last`: lay the chain before using H1 (greedy uses H1 first).
    - `h1_leader`: H1 takes from the fullest prison rather than the fullest hand.
    - `claim_over_match`: rather than capture by matching, lay a CLUE card on which a
      CAPTURED card in hand is a right claim (a claim also wins a card).
    - `h2_now_only`: use H2 only on an alien it can capture at once."""

    def __init__(
        self,
        claim_cost=0.0,
        plan_depth=PLAN_DEPTH,
        h1_last=False,
        h1_leader=False,
        claim_over_match=False,
        h2_now_only=False,
    ):
        self.claim_cost = claim_cost
        self.plan_depth = plan_depth
        self.h1_last = h1_last
        self.h1_leader = h1_leader
        self.claim_over_match = claim_over_match
        self.h2_now_only = h2_now_only

    def greedy(self, view, feed, rng):
        """The command the seat sends on its turn (always one of view["legal"])."""
        legal, state = view["legal"], view["state"]
        by_type = {}
        for command in legal:
            by_type.setdefault(command["type"], []).append(command)
        for kind in ("stack", "claim"):
            if kind in by_type:
                return by_type[kind][0]
        steals = by_type.get("take", []) + [c for c in by_type.get("hunt", []) if c["card"] == "H3"]
        if steals:
            return max(steals, key=lambda c: _target_weight(state, c))
        plays = {c["card"]: c for c in by_type.get("play", [])}
        if "capture" in by_type:
            if self.claim_over_match and plays:
                claim = _claim_play(state, plays)
                if claim is not None:
                    return plays[claim]
            return by_type["capture"][0]
        second = [c for c in by_type.get("hunt", []) if c["card"] == "H2"]
        if second and self.h2_now_only:
            second = [c for c in second if _capturable_now(state, c["alien"])]
        if second:
            return max(
                second, key=lambda c: (_capturable_now(state, c["alien"]), _target_weight(state, c))
            )
        hand = state["hand"]
        if plays:
            first = _capture_plan(state, hand, self.plan_depth)
            if first is None and _may_empty(state, hand):
                first = _empty_plan(state, hand)
            if first in plays:
                return plays[first]
        first_hunters = [c for c in by_type.get("hunt", []) if c["card"] == "H1"]
        ending = by_type.get("end_turn") or by_type.get("pass")
        if plays and self.h1_last:
            score, card = _longest_chain(state, hand, self.claim_cost)
            if score >= 0 or not ending:
                return plays[card]
        if first_hunters:
            if self.h1_leader:
                return max(
                    first_hunters,
                    key=lambda c: (_lead(state, c), state["hand_counts"][c["target"]]),
                )
            return max(
                first_hunters, key=lambda c: (state["hand_counts"][c["target"]], _lead(state, c))
            )
        if plays:
            score, card = _longest_chain(state, hand, self.claim_cost)
            if score >= 0 or not ending:
                return plays[card]
        return ending[0] if ending else rng.choice(legal)


GREEDY = Policy()


def greedy(view, feed, rng):
    """The command the seat sends on its turn (always one of view["legal"]): `Policy`'s
    rules with no knob turned."""
    return GREEDY.greedy(view, feed, rng)


def _claim_play(state, plays):
    """A CLUE card to lay on which a CAPTURED card in hand is a right claim (a capture
    that also wins a card from the last to stack), or None."""
    if state["options"]["no_math"]:
        return None
    held = {alien_of(card) for card in state["hand"] if is_captured(card)}
    for card in sorted(plays):
        if held & set(claimable_aliens(card)):
            return card
    return None


def _lead(state, command):
    return len(state["prisons"][command["target"]])


def _target_weight(state, command):
    """Take from the fullest prison (the leader), a lower seat on a tie."""
    return (_lead(state, command), -command["target"], command.get("alien", 0))


def _capturable_now(state, alien):
    """Whether an alien brought into the hand by H2 can be captured at once."""
    table = state["table"]
    if alien in aliens_on(table):
        return True
    math = not state["options"]["no_math"] and not state["table_claimed"]
    return math and alien in claimable_aliens(table)


def _captures_on(table, aliens, math):
    """Whether a CAPTURED card for one of `aliens` captures on `table` (match or claim)."""
    shown = aliens_on(table)
    if any(alien in shown for alien in aliens):
        return True
    return math and any(alien in claimable_aliens(table) for alien in aliens)


def _capture_plan(state, hand, depth=PLAN_DEPTH):
    """The first CLUE card of the shortest run of laid CLUE cards (at most PLAN_DEPTH)
    ending on a table card one of the hand's CAPTURED cards captures on; or None."""
    aliens = {alien_of(card) for card in hand if is_captured(card)}
    if not aliens:
        return None
    math = not state["options"]["no_math"]
    clues = sorted({card for card in hand if is_clue(card)})
    frontier = [(state["table"], (), None)]
    for _ in range(depth):
        following = []
        for table, used, first in frontier:
            shown = set(aliens_on(table))
            for card in clues:
                if card in used or not shown & set(aliens_on(card)):
                    continue
                start = first or card
                if _captures_on(card, aliens, math):
                    return start
                following.append((card, (*used, card), start))
        frontier = following
    return None


def _may_empty(state, hand):
    """Whether the empty-hand bonus is still open this turn and worth a search."""
    if state["took"] or state["began_with"] < TAKE_MIN_HAND:
        return False
    clues = [card for card in hand if is_clue(card)]
    blocked = any(card in ("H1", "H2") for card in hand)  # each brings a card back
    return not blocked and 0 < len(clues) <= EMPTY_SEARCH_LIMIT


def _empty_plan(state, hand):
    """The first CLUE card of an order that empties the hand: every CLUE card laid in a
    chain, every CAPTURED card matched on the way, every H3 usable. None if there is none."""
    if "H3" in hand and not _stealable(state):
        return None
    clues = tuple(sorted(card for card in hand if is_clue(card)))
    aliens = frozenset(alien_of(card) for card in hand if is_captured(card))

    def search(table, clues, aliens):
        aliens = aliens - set(aliens_on(table))  # matched as soon as the table shows them
        if not clues:
            return not aliens
        shown = set(aliens_on(table))
        for i, card in enumerate(clues):
            if shown & set(aliens_on(card)) and search(card, clues[:i] + clues[i + 1 :], aliens):
                return True
        return False

    shown = set(aliens_on(state["table"]))
    for i, card in enumerate(clues):
        if shown & set(aliens_on(card)) and search(card, clues[:i] + clues[i + 1 :], aliens):
            return card
    return None


def _longest_chain(state, hand, claim_cost=0.0):
    """(score, first CLUE card) of the longest chain the hand can lay (every card laid
    draws a new one at the end of the turn), ending on the least dangerous table card;
    the search stops after CHAIN_NODES chains. A chain's score is its cards, less
    `claim_cost` per live alien claimable on each card it lays."""
    live = _live_aliens(state, hand)
    clues = tuple(sorted(card for card in hand if is_clue(card)))
    budget = [0]

    def worth(card):
        if not claim_cost or state["options"]["no_math"]:
            return 1
        return 1 - claim_cost * sum(1 for alien in claimable_aliens(card) if alien in live)

    def search(table, clues):
        """(score, -danger at the end) of the best chain from `table`."""
        best = (0, -_danger(table, live, state))
        shown = set(aliens_on(table))
        for i, card in enumerate(clues):
            if budget[0] <= 0:
                break
            if shown & set(aliens_on(card)):
                budget[0] -= 1
                laid, safety = search(card, clues[:i] + clues[i + 1 :])
                best = max(best, (laid + worth(card), safety))
        return best

    shown = set(aliens_on(state["table"]))
    firsts = [i for i, card in enumerate(clues) if shown & set(aliens_on(card))]
    options = []
    for i in firsts:
        budget[0] = CHAIN_NODES // len(firsts)  # each first card gets its share
        laid, safety = search(clues[i], clues[:i] + clues[i + 1 :])
        options.append((laid + worth(clues[i]), safety, clues[i]))
    score, _, card = max(options)
    return score, card


def _stealable(state):
    me = state["turn"]
    return any(
        alien_of(card) != 0
        for seat, prison in enumerate(state["prisons"])
        if seat != me
        for card in prison
    )


def _live_aliens(state, hand):
    """Aliens whose CAPTURED card another player may hold: in no prison, not in my hand."""
    gone = {alien_of(card) for prison in state["prisons"] for card in prison}
    gone |= {alien_of(card) for card in hand if is_captured(card)}
    return {alien for alien in range(10) if alien not in gone}


def _danger(table, live, state):
    """How many live aliens the next player could match on `table`, plus those anyone
    could claim on it (a claim also costs the others a card, so it weighs more)."""
    matched = sum(1 for alien in aliens_on(table) if alien in live)
    if state["options"]["no_math"]:
        return matched
    return matched + 2 * sum(1 for alien in claimable_aliens(table) if alien in live)
