"""Alien bot knowledge: greedy play, the CAPTURED! reflex, and sampling the unseen cards.

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

`sample` rebuilds a whole rules state: the seat's own hand, the prisons and the table card
are in its view; its feed tells it the CLUE cards under the table card, the used bounty
hunters, the cards it saw change hands (a hunt, a wrong claim's penalty, a card handed over
after a window), and what a reshuffled draw pile is made of. The rest is dealt at random.
"""

from collections import Counter

from shared.games.alien.facts import (
    CARDS,
    TAKE_MIN_HAND,
    alien_of,
    aliens_on,
    captured_card,
    claimable_aliens,
    is_captured,
    is_clue,
    is_hunter,
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


def greedy(view, feed, rng):
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
    if "capture" in by_type:
        return by_type["capture"][0]
    second = [c for c in by_type.get("hunt", []) if c["card"] == "H2"]
    if second:
        return max(
            second, key=lambda c: (_capturable_now(state, c["alien"]), _target_weight(state, c))
        )
    plays = {c["card"]: c for c in by_type.get("play", [])}
    hand = state["hand"]
    if plays:
        first = _capture_plan(state, hand)
        if first is None and _may_empty(state, hand):
            first = _empty_plan(state, hand)
        if first in plays:
            return plays[first]
    first_hunters = [c for c in by_type.get("hunt", []) if c["card"] == "H1"]
    if first_hunters:
        return max(
            first_hunters, key=lambda c: (state["hand_counts"][c["target"]], _lead(state, c))
        )
    if plays:
        return plays[_longest_chain(state, hand)]
    ending = by_type.get("end_turn") or by_type.get("pass")
    return ending[0] if ending else rng.choice(legal)


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


def _capture_plan(state, hand):
    """The first CLUE card of the shortest run of laid CLUE cards (at most PLAN_DEPTH)
    ending on a table card one of the hand's CAPTURED cards captures on; or None."""
    aliens = {alien_of(card) for card in hand if is_captured(card)}
    if not aliens:
        return None
    math = not state["options"]["no_math"]
    clues = sorted({card for card in hand if is_clue(card)})
    frontier = [(state["table"], (), None)]
    for _ in range(PLAN_DEPTH):
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


def _longest_chain(state, hand):
    """The first CLUE card of the longest chain the hand can lay (every card laid draws a
    new one at the end of the turn), ending on the least dangerous table card; the search
    stops after CHAIN_NODES chains."""
    live = _live_aliens(state, hand)
    clues = tuple(sorted(card for card in hand if is_clue(card)))
    budget = [0]

    def search(table, clues):
        """(cards laid, -danger at the end) of the best chain from `table`."""
        best = (0, -_danger(table, live, state))
        shown = set(aliens_on(table))
        for i, card in enumerate(clues):
            if budget[0] <= 0:
                break
            if shown & set(aliens_on(card)):
                budget[0] -= 1
                laid, safety = search(card, clues[:i] + clues[i + 1 :])
                best = max(best, (laid + 1, safety))
        return best

    shown = set(aliens_on(state["table"]))
    firsts = [i for i, card in enumerate(clues) if shown & set(aliens_on(card))]
    options = []
    for i in firsts:
        budget[0] = CHAIN_NODES // len(firsts)  # each first card gets its share
        laid, safety = search(clues[i], clues[:i] + clues[i + 1 :])
        options.append((laid, safety, clues[i]))
    return max(options)[2]


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


# --- sampling the unseen cards


class _Memory:
    """What a seat's feed tells it beyond its view: the CLUE cards under the table card,
    the used bounty hunters, cards it knows are in another hand, and what the draw pile
    was rebuilt from."""

    def __init__(self, me, players):
        self.me = me
        self.table = None
        self.played = []
        self.hunters = []
        self.known = [Counter() for _ in range(players)]
        self.pile_from = None  # None: any unseen card; else the cards it was reshuffled from
        self.events = 0
        self.windows = 0

    def forget(self, seat):
        """`seat` lost a card nobody showed us: what we knew of its hand may have left."""
        self.known[seat] = Counter()

    def gains(self, seat, card):
        if seat != self.me:
            self.known[seat][card] += 1

    def loses(self, seat, card):
        if self.known[seat][card] > 0:
            self.known[seat][card] -= 1
        self.known[seat] += Counter()  # drop zero counts

    def moves(self, giver, taker, card):
        """A card passed from `giver` to `taker`; card None when we did not see it."""
        if card is None:
            self.forget(giver)
            return
        self.loses(giver, card)
        self.gains(taker, card)

    def fold(self, event):
        handler = getattr(self, f"_{event['type']}", None)
        if handler is not None:
            self.events += 1
            handler(event)

    def _dealt(self, event):
        self.__init__(self.me, len(self.known))
        self.events = 1

    def _turned_over(self, event):
        if is_clue(event["card"]):
            self.table = event["card"]

    def _played(self, event):
        self.played.append(self.table)
        self.table = event["card"]
        self.loses(event["seat"], event["card"])

    def _captured(self, event):
        self.loses(event["seat"], event["card"])

    def _claimed(self, event):
        self.loses(event["seat"], event["card"])
        self.windows += 1

    def _hunted(self, event):
        seat, card = event["seat"], event["card"]
        self.loses(seat, card)
        self.hunters.append(card)
        if card == "H1":
            self.moves(event["target"], seat, event["taken"])
        elif card == "H2":
            self.gains(seat, captured_card(event["alien"]))

    def _wrong_claim(self, event):
        if event["taker"] is not None:
            self.moves(event["seat"], event["taker"], event["taken"])

    def _handed_over(self, event):
        self.moves(event["seat"], event["to"], event["card"])

    def _drew(self, event):
        if event["seat"] == self.me and self.pile_from is not None:
            self.pile_from -= Counter(event["cards"])

    def _reshuffled(self, event):
        self.pile_from = Counter(self.played + self.hunters)
        self.played, self.hunters = [], []


# The last feed folded and its memory: a search samples hundreds of worlds from one feed.
_last_fold = (None, 0, None, None)


def _remember(seat, players, feed):
    """The memory the feed builds, folded once per feed (a memory is never changed)."""
    global _last_fold
    last_feed, length, last_seat, memory = _last_fold
    if feed is last_feed and len(feed) == length and seat == last_seat:
        return memory
    memory = _Memory(seat, players)
    for event in feed:
        memory.fold(event)
    _last_fold = (feed, len(feed), seat, memory)
    return memory


def _memory(view, feed):
    """The seat's memory from its feed, or None when the feed does not add up to the view
    (an empty feed in a search rollout, or one that began late)."""
    state = view["state"]
    memory = _remember(view["seat"], state["players"], feed)
    fits = (
        memory.events > 0
        and memory.table == state["table"]
        and len(memory.played) == state["played_count"]
        and len(memory.hunters) == state["used_hunter_count"]
        and all(
            sum(known.values()) <= count
            for known, count in zip(memory.known, state["hand_counts"], strict=True)
        )
    )
    return memory if fits else None


def sample(view, feed, rng):
    """A complete Alien rules state the seat cannot tell from the true one: its hand, the
    prisons and the table card as in its view, what its feed showed where it lies, and every
    other card dealt at random among the places left."""
    state, me = view["state"], view["seat"]
    players = state["players"]
    seen = Counter(state["hand"]) + Counter(card for p in state["prisons"] for card in p)
    if state["table"] is not None:
        seen[state["table"]] += 1
    unseen = Counter(CARDS) - seen
    memory = _memory(view, feed)
    if memory is not None:
        known = [Counter() if seat == me else memory.known[seat] for seat in range(players)]
        placed = Counter(memory.played) + Counter(memory.hunters) + sum(known, Counter())
        if placed - unseen:  # something we remember cannot be where we think: trust the view
            memory = None
        else:
            unseen -= placed
            played, hunters = list(memory.played), list(memory.hunters)
    if memory is None:
        known = [Counter() for _ in range(players)]
        played = _pick(unseen, is_clue, state["played_count"], rng)
        hunters = _pick(unseen, is_hunter, state["used_hunter_count"], rng)
    pile = _pile(unseen, state["draw_pile_count"], memory, rng)
    rest = list(unseen.elements())
    rng.shuffle(rest)
    hands = []
    for seat in range(players):
        if seat == me:
            hands.append(list(state["hand"]))
            continue
        missing = state["hand_counts"][seat] - sum(known[seat].values())
        hand = list(known[seat].elements()) + rest[:missing]
        del rest[:missing]
        rng.shuffle(hand)
        hands.append(hand)
    pile += rest
    rng.shuffle(pile)
    return _state(view, hands, pile, played, hunters, memory, rng)


def _pick(unseen, kind, count, rng):
    """`count` cards of a kind drawn at random from (and removed from) the unseen ones."""
    cards = [card for card in unseen.elements() if kind(card)]
    chosen = rng.sample(cards, count)
    unseen -= Counter(chosen)
    return chosen


def _pile(unseen, count, memory, rng):
    """The draw pile's cards when the feed says what it was rebuilt from (removed from the
    unseen ones); otherwise [] and the pile takes what the hands leave."""
    if memory is None or memory.pile_from is None:
        return []
    candidates = list((memory.pile_from & unseen).elements())
    if len(candidates) < count:
        return []
    chosen = rng.sample(candidates, count)
    unseen -= Counter(chosen)
    return chosen


def _state(view, hands, pile, played, hunters, memory, rng):
    state = view["state"]
    windows = memory.windows if memory is not None else 1
    window = state["window"]
    if window is not None:
        window = {
            "number": max(windows, 1),
            "claimant": window["claimant"],
            "alien": window["alien"],
            "table": window["table"],
            "stacked": list(window["stacked"]),
        }
    return {
        "players": state["players"],
        "seed": f"sample-{rng.getrandbits(64):016x}",
        "options": dict(state["options"]),
        "custom_deck": False,
        "phase": state["phase"],
        "step": memory.events if memory is not None else 0,
        "hands": hands,
        "prisons": [list(prison) for prison in state["prisons"]],
        "draw_pile": pile,
        "table": state["table"],
        "table_claimed": state["table_claimed"],
        "played": played,
        "hunters": hunters,
        "turn": state["turn"],
        "began_with": state["began_with"],
        "acted": state["acted"],
        "took": state["took"],
        "window": window,
        "windows": windows,
        "winner": state["winner"],
    }
