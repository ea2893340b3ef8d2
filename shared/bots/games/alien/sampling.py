"""Alien: a whole rules state the seat cannot tell from the true one (`sample`).

It rebuilds a whole rules state: the seat's own hand, the prisons and the table card
are in its view; its feed tells it the CLUE cards under the table card, the used bounty
hunters, the cards it saw change hands (a hunt, a wrong claim's penalty, a card handed over
after a window), and what a reshuffled draw pile is made of. The rest is dealt at random,
with what the others' play revealed they do not hold (`_Memory.lacks`): a player who
sends a turn command other than a capture or a steal while the table card shows alien
a holds no CAPTURED card of a (a capture comes first), and when a table card leaves
unclaimed, nobody else holds a CAPTURED card it could have been claimed with (a right
claim is shouted at once). A player who plays otherwise (a slow or careless one) makes
this wrong: one world in UNTRUSTED ignores it, and it is dropped whenever the hands
left cannot hold the cards so placed.
"""

from collections import Counter

from shared.games.alien.facts import (
    CARDS,
    aliens_on,
    captured_card,
    claimable_aliens,
    is_clue,
    is_hunter,
)

UNTRUSTED = 10  # one world in this many deals the others' cards ignoring what they lack


class _Memory:
    """What a seat's feed tells it beyond its view: the CLUE cards under the table card,
    the used bounty hunters, cards it knows are in another hand, and what the draw pile
    was rebuilt from."""

    def __init__(self, me, players, no_math=False):
        self.me = me
        self.no_math = no_math
        self.table = None
        self.played = []
        self.hunters = []
        self.known = [Counter() for _ in range(players)]
        # CAPTURED cards each seat's play says it does not hold, until it gains a card
        # we did not see.
        self.lacks = [set() for _ in range(players)]
        self.claimed = False  # the table card was claimed (rightly)
        self.pile_from = None  # None: any unseen card; else the cards it was reshuffled from
        self.events = 0
        self.windows = 0

    def forget(self, seat):
        """`seat` lost a card nobody showed us: what we knew of its hand may have left."""
        self.known[seat] = Counter()

    def gains(self, seat, card):
        if seat != self.me:
            self.known[seat][card] += 1
            self.lacks[seat].discard(card)

    def gains_unseen(self, seat):
        """`seat` gained a card we did not see: it may be one it lacked."""
        self.lacks[seat] = set()

    def passed_by(self, seat):
        """`seat` sent a turn command a capture would have come before: it holds no
        CAPTURED card of the aliens on the table card."""
        if seat != self.me and self.table is not None:
            self.lacks[seat].update(captured_card(a) for a in aliens_on(self.table))

    def leaves_table(self):
        """The table card changes: if nobody claimed it, nobody else could."""
        if self.table is not None and not self.claimed and not self.no_math:
            cards = {captured_card(a) for a in claimable_aliens(self.table)}
            for seat, lacks in enumerate(self.lacks):
                if seat != self.me:
                    lacks.update(cards)
        self.claimed = False

    def loses(self, seat, card):
        if self.known[seat][card] > 0:
            self.known[seat][card] -= 1
        self.known[seat] += Counter()  # drop zero counts

    def moves(self, giver, taker, card):
        """A card passed from `giver` to `taker`; card None when we did not see it."""
        if card is None:
            self.forget(giver)
            self.gains_unseen(taker)
            return
        self.loses(giver, card)
        self.gains(taker, card)

    def fold(self, event):
        handler = getattr(self, f"_{event['type']}", None)
        if handler is not None:
            self.events += 1
            handler(event)

    def _dealt(self, event):
        self.__init__(self.me, len(self.known), self.no_math)
        self.events = 1

    def _turned_over(self, event):
        if is_clue(event["card"]):
            self.leaves_table()
            self.table = event["card"]

    def _played(self, event):
        self.passed_by(event["seat"])
        self.leaves_table()
        self.played.append(self.table)
        self.table = event["card"]
        self.loses(event["seat"], event["card"])

    def _captured(self, event):
        self.loses(event["seat"], event["card"])

    def _claimed(self, event):
        self.loses(event["seat"], event["card"])
        self.claimed = True
        self.windows += 1

    def _passed(self, event):
        self.passed_by(event["seat"])

    def _ended_turn(self, event):
        self.passed_by(event["seat"])

    def _hunted(self, event):
        seat, card = event["seat"], event["card"]
        if card != "H3":  # H3 steals, which comes before a capture
            self.passed_by(seat)
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
        if event["seat"] != self.me:
            self.gains_unseen(event["seat"])
        elif self.pile_from is not None:
            self.pile_from -= Counter(event["cards"])

    def _reshuffled(self, event):
        self.pile_from = Counter(self.played + self.hunters)
        self.played, self.hunters = [], []


# The last feed folded and its memory: a search samples hundreds of worlds from one feed.
_last_fold = (None, 0, None, None)


def _remember(seat, players, no_math, feed):
    """The memory the feed builds, folded once per feed (a memory is never changed)."""
    global _last_fold
    last_feed, length, last_seat, memory = _last_fold
    if feed is last_feed and len(feed) == length and seat == last_seat:
        return memory
    memory = _Memory(seat, players, no_math)
    for event in feed:
        memory.fold(event)
    _last_fold = (feed, len(feed), seat, memory)
    return memory


def memory_of(view, feed):
    """The seat's memory from its feed, or None when the feed does not add up to the view
    (an empty feed in a search rollout, or one that began late)."""
    state = view["state"]
    memory = _remember(view["seat"], state["players"], state["options"]["no_math"], feed)
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
    memory = memory_of(view, feed)
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
    trusted = memory is not None and rng.randrange(UNTRUSTED) != 0
    lacks = memory.lacks if trusted else [set()] * players
    hands = []
    for seat in range(players):
        if seat == me:
            hands.append(list(state["hand"]))
            continue
        missing = state["hand_counts"][seat] - sum(known[seat].values())
        hand = list(known[seat].elements()) + _deal(rest, missing, lacks[seat])
        rng.shuffle(hand)
        hands.append(hand)
    pile += rest
    rng.shuffle(pile)
    return _state(view, hands, pile, played, hunters, memory, rng)


def _deal(rest, count, lacks):
    """`count` cards taken from the front of `rest` (shuffled), skipping those in `lacks`
    while enough others are left."""
    allowed = [i for i, card in enumerate(rest) if card not in lacks]
    if len(allowed) < count:  # what it lacks cannot be right: any cards
        allowed = list(range(len(rest)))
    chosen = allowed[:count]
    hand = [rest[i] for i in chosen]
    for i in reversed(chosen):
        del rest[i]
    return hand


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
