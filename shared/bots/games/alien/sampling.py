"""Alien: a whole rules state the seat cannot tell from the true one (`sample`).

It rebuilds a whole rules state: the seat's own hand, the prisons and the table card
are in its view; its feed tells it the CLUE cards under the table card, the used bounty
hunters, the cards it saw change hands (a hunt, a wrong claim's penalty, a card handed over
after a window), and what a reshuffled draw pile is made of. The rest is dealt at random,
with what the others' play revealed each of their unseen cards is not (`_Memory.slots`),
read from greedy's order of play: a steal (H3) comes first, then a capture, then H2,
then CLUE cards, and a turn ends only when nothing is left to do. So a player who sends
a turn command other than a capture or a steal while the table card shows alien a
holds no CAPTURED card of a, nor an H3 (nor an H2, unless it used one) while another
prison has an alien to take; one who ends the turn or passes holds no CLUE card it
could lay on the table card and no H1 either; and when a table card leaves unclaimed,
nobody else holds a CAPTURED card it could have been claimed with (a right claim is
shouted at once). This is true of the cards in the hand at that moment: a card drawn
or taken since, unseen, lacks nothing yet. A player who plays otherwise (a human, a
slow or careless one) makes this wrong: one world in UNTRUSTED ignores it, a card
played that every unseen card was read to lack clears the reading of that hand, and a
card is dealt anyway when none left may be it.
"""

from collections import Counter

from shared.games.alien.facts import (
    CARDS,
    CLUE_CARDS,
    PROTECTED_ALIEN,
    alien_of,
    aliens_on,
    captured_card,
    claimable_aliens,
    is_clue,
    is_hunter,
    shares_alien,
)

UNTRUSTED = 10  # one world in this many deals the others' cards ignoring what they lack


class _Memory:
    """What a seat's feed tells it beyond its view: the CLUE cards under the table card,
    the used bounty hunters, cards it knows are in another hand, what the draw pile was
    rebuilt from, and what each card it has not seen in another hand cannot be."""

    def __init__(self, me, players, no_math=False):
        self.me = me
        self.no_math = no_math
        self.table = None
        self.played = []
        self.hunters = []
        self.known = [Counter() for _ in range(players)]
        self.counts = [0] * players  # cards in each hand
        self.prisons = [[] for _ in range(players)]
        # Each other seat's unseen cards, oldest first: for each, the cards its seat's
        # play says it is not (what the seat lacked while that card was in its hand).
        # A card gained unseen starts with no such set.
        self.slots = [[] for _ in range(players)]
        self.claimed = False  # the table card was claimed (rightly)
        self.pile_from = None  # None: any unseen card; else the cards it was reshuffled from
        self.events = 0
        self.windows = 0

    @property
    def lacks(self):
        """What every unseen card in each seat's hand is not (what the seat lacks)."""
        return [set.intersection(*slots) if slots else set() for slots in self.slots]

    def _settle(self, seat):
        """As many unseen cards as the hand holds beyond the known ones: a new one lacks
        nothing yet; one gone unseen is the one that lacked the most (the sets are
        nested, the oldest card's the largest, so the cards left still fit)."""
        if seat == self.me:
            return
        slots = self.slots[seat]
        target = max(self.counts[seat] - sum(self.known[seat].values()), 0)
        while len(slots) < target:
            slots.append(set())
        while len(slots) > target:
            slots.pop(_most_lacking(slots))

    def forget(self, seat):
        """`seat` lost a card nobody showed us: what we knew of its hand may have left."""
        self.known[seat] = Counter()
        self._settle(seat)

    def gains(self, seat, card):
        self.counts[seat] += 1
        if seat != self.me:
            self.known[seat][card] += 1

    def gains_unseen(self, seat, count=1):
        """`seat` gained cards we did not see: they may be ones it lacked."""
        self.counts[seat] += count
        self._settle(seat)

    def lack(self, seat, cards):
        """Every unseen card in `seat`'s hand now is none of `cards`."""
        if seat != self.me:
            for slot in self.slots[seat]:
                slot.update(cards)

    def passed_by(self, seat, command):
        """`seat` sent a turn command of kind `command` (play, end_turn, pass, H1, H2...)
        while greedy's choice would have come first if its hand allowed it: a steal
        (H3) and a capture come before anything else, H2 before a CLUE card, and a turn
        ends only when no CLUE card can be laid and no bounty hunter used."""
        if seat == self.me or self.table is None:
            return
        takeable = any(
            alien_of(card) != PROTECTED_ALIEN
            for other, prison in enumerate(self.prisons)
            if other != seat
            for card in prison
        )
        lacked = {captured_card(a) for a in aliens_on(self.table)}
        if takeable:
            lacked.add("H3")
            if command != "H2":
                lacked.add("H2")
        if command in ("end_turn", "pass"):
            lacked.update(clue for clue in CLUE_CARDS if shares_alien(clue, self.table))
            if any(count for other, count in enumerate(self.counts) if other != seat):
                lacked.add("H1")
        self.lack(seat, lacked)

    def leaves_table(self):
        """The table card changes: if nobody claimed it, nobody else could."""
        if self.table is not None and not self.claimed and not self.no_math:
            cards = {captured_card(a) for a in claimable_aliens(self.table)}
            for seat in range(len(self.slots)):
                self.lack(seat, cards)
        self.claimed = False

    def loses(self, seat, card):
        """`seat` showed `card` leaving its hand: a known card, else one of its unseen
        ones that could be it (the one that lacked the most)."""
        self.counts[seat] -= 1
        if seat == self.me:
            return
        if self.known[seat][card] > 0:
            self.known[seat][card] -= 1
            self.known[seat] += Counter()  # drop zero counts
            return
        slots = self.slots[seat]
        fits = [i for i, slot in enumerate(slots) if card not in slot]
        if slots and not fits:  # it played what we read it lacked: forget the reading
            for slot in slots:
                slot.clear()
            fits = list(range(len(slots)))
        if fits:
            slots.pop(max(fits, key=lambda i: len(slots[i])))
        self._settle(seat)

    def moves(self, giver, taker, card):
        """A card passed from `giver` to `taker`; card None when we did not see it."""
        if card is None:
            self.counts[giver] = max(self.counts[giver] - 1, 0)
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
        for seat, hand in enumerate(event["hands"]):
            self.gains_unseen(seat, hand if isinstance(hand, int) else len(hand))

    def _turned_over(self, event):
        if is_clue(event["card"]):
            self.leaves_table()
            self.table = event["card"]

    def _played(self, event):
        self.passed_by(event["seat"], "play")
        self.leaves_table()
        self.played.append(self.table)
        self.table = event["card"]
        self.loses(event["seat"], event["card"])

    def _captured(self, event):
        self.loses(event["seat"], event["card"])
        self.prisons[event["seat"]].append(event["card"])

    def _claimed(self, event):
        self.loses(event["seat"], event["card"])
        self.prisons[event["seat"]].append(event["card"])
        self.claimed = True
        self.windows += 1

    def _passed(self, event):
        self.passed_by(event["seat"], "pass")

    def _ended_turn(self, event):
        self.passed_by(event["seat"], "end_turn")

    def _hunted(self, event):
        seat, card = event["seat"], event["card"]
        if card != "H3":  # H3 steals, which comes before a capture
            self.passed_by(seat, card)
        self.loses(seat, card)
        self.hunters.append(card)
        if card == "H1":
            self.moves(event["target"], seat, event["taken"])
            return
        alien = captured_card(event["alien"])
        self.prisons[event["target"]].remove(alien)
        if card == "H2":
            self.gains(seat, alien)
        else:
            self.prisons[seat].append(alien)

    def _took_alien(self, event):
        alien = captured_card(event["alien"])
        self.prisons[event["target"]].remove(alien)
        self.prisons[event["seat"]].append(alien)

    def _wrong_claim(self, event):
        if event["taker"] is not None:
            self.moves(event["seat"], event["taker"], event["taken"])

    def _handed_over(self, event):
        self.moves(event["seat"], event["to"], event["card"])

    def _drew(self, event):
        cards = event["cards"]
        if event["seat"] != self.me:
            self.gains_unseen(event["seat"], cards if isinstance(cards, int) else len(cards))
            return
        self.counts[self.me] += len(cards)
        if self.pile_from is not None:
            self.pile_from -= Counter(cards)

    def _reshuffled(self, event):
        self.pile_from = Counter(self.played + self.hunters)
        self.played, self.hunters = [], []


def _most_lacking(slots):
    return max(range(len(slots)), key=lambda i: len(slots[i]))


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
        and memory.counts == state["hand_counts"]
        and [sorted(p) for p in memory.prisons] == [sorted(p) for p in state["prisons"]]
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
    hands = []
    for seat in range(players):
        if seat == me:
            hands.append(list(state["hand"]))
            continue
        missing = state["hand_counts"][seat] - sum(known[seat].values())
        slots = memory.slots[seat] if trusted else []
        hand = list(known[seat].elements()) + _deal(rest, missing, slots)
        rng.shuffle(hand)
        hands.append(hand)
    pile += rest
    rng.shuffle(pile)
    return _state(view, hands, pile, played, hunters, memory, rng)


def _deal(rest, count, slots):
    """`count` cards taken from `rest` (shuffled): for each unseen card of the hand
    (`slots`, what each is not; the one that lacks the most first), the first card of
    `rest` it may be, or the first card at all when none is left that it may be."""
    lacking = sorted(slots, key=len, reverse=True) if len(slots) == count else []
    hand = []
    for index in range(count):
        lacks = lacking[index] if lacking else ()
        at = next((i for i, card in enumerate(rest) if card not in lacks), 0)
        hand.append(rest.pop(at))
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
