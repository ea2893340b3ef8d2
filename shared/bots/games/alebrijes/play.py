"""Alebrijes greedy play: the command that lowers the hand's cost most.

Strategy (from the rulebook and the scoring). Whoever empties their hand first wins the
round; everyone else loses, per colour (jokers a fifth colour), only the highest number
still in hand. So a hand costs its minus points plus the plays it still needs (its
groups: cards of one colour and number, jokers joining a group of their number), and
`greedy` picks the command that lowers that cost most:

- Leading: the group whose play lowers the cost most (high cards, whole sets); with an
  opponent close to going out, a set bigger than their hand, which they cannot answer.
- Facing a combination: beat it with the play that lowers the cost most; pass only when
  no play is worth it, and then exchange (0 to 2 cards) the cards that cost more than a
  fresh card from the pile is expected to (high, lonely cards: "exchange cards with which
  you could not form sets"). Passing costs the rest of the trick, more so when an
  opponent is about to go out.
- Ollin: lay aside the last card (the round is won), else lay aside the costliest card
  or make the others draw, whichever is worth more; making them draw is worth more the
  fewer cards they hold.
- Round start: the same exchange as after a pass.
"""

from collections import Counter

from shared.bots.games.alebrijes.sampling import played_this_round
from shared.games.alebrijes.cards import CARDS, sorted_cards

GROUP_COST = 12.0  # a group still in hand needs one more play to shed
CARD_COST = 0.5  # every card still in hand is one more to get rid of
PASS_COST = 2.0  # passing gives up the rest of the trick
THREAT = 2  # an opponent with this many cards or fewer may go out any moment
THREAT_LEAD = 3.0  # leading a set bigger than a threatening opponent's hand
THREAT_PASS = 3.0  # passing while an opponent may go out
THREAT_DRAW = 1.0  # per card fewer than THREAT + 1 of an opponent made to draw
DRAW_WORTH = 5.0  # one card more in an opponent's hand (Ollin "others_draw")
EXCHANGE_MARGIN = 0.25  # exchange a card only when it is clearly worth it
LEAD_SET = 0.3  # per card of a set led beyond the first
WIN = 1000.0
_KINDS = Counter(card[:2] for card in CARDS)  # cards of each colour and number, Ollin or not


def reflex(view, feed, rng):
    """Alebrijes has no reflexes: always None."""
    return None


# --- the cost of a hand


def _without(cards, gone):
    """`cards` without `gone` (held), as a new list (faster than cards.remove_cards)."""
    rest = list(cards)
    for card in gone:
        rest.remove(card)
    return rest


class _Hand:
    """A hand summarised for costing: highest number per colour, groups, jokers."""

    __slots__ = ("highest", "groups", "jokers", "numbers", "size")

    def __init__(self, cards):
        self.highest, self.groups, self.jokers = {}, set(), set()
        for card in cards:
            colour, number = card[0], int(card[1])
            if self.highest.get(colour, 0) < number:
                self.highest[colour] = number
            if colour == "J":
                self.jokers.add(number)
            else:
                self.groups.add((colour, number))
        self.numbers = {number for _, number in self.groups}
        self.size = len(cards)

    def cost(self):
        lonely_jokers = sum(1 for number in self.jokers if number not in self.numbers)
        return (
            sum(self.highest.values())
            + GROUP_COST * (len(self.groups) + lonely_jokers)
            + CARD_COST * self.size
        )


def _cost(cards):
    return _Hand(cards).cost() if cards else 0.0


def hand_cost(cards):
    """What `cards` in hand cost: the minus points they would lose (the highest number
    per colour) plus the plays they still need, GROUP_COST each; 0 for no cards."""
    return _cost(cards)


def _expected_draw_cost(cards, unseen):
    """The expected cost one card drawn from `unseen` ([(colour, number, count)]) adds to
    `cards`: the points it raises its colour by, a new group unless one of its number and
    colour is held (a lonely joker of its number joins it), and the card itself."""
    hand, total, spent = _Hand(cards), 0, 0.0
    lonely = {number for number in hand.jokers if number not in hand.numbers}
    for colour, number, count in unseen:
        top = hand.highest.get(colour, 0)
        if colour == "J":
            new_group = number not in hand.jokers and number not in hand.numbers
        else:
            new_group = (colour, number) not in hand.groups and number not in lonely
        spent += count * ((number - top if number > top else 0) + GROUP_COST * new_group)
        total += count
    return spent / total + CARD_COST if total else 0.0


def _unseen_kinds(state, feed):
    """[(colour, number, count)]: the cards this seat has not seen this round, by kind."""
    seen = list(state["hand"]) + list(state["laid_aside"] or [])
    played = played_this_round(feed)
    if played is not None:
        seen += played
    elif state["table"] is not None:
        seen += state["table"]["cards"]
    kinds = dict(_KINDS)
    for card in seen:
        kinds[card[:2]] -= 1
    return [(kind[0], int(kind[1]), count) for kind, count in kinds.items() if count > 0]


def _exchange_cards(hand, limit, unseen):
    """Up to `limit` cards worth laying aside for fresh ones, the best first."""
    chosen, left = [], list(hand)
    for _ in range(limit):
        base, best, gain = _cost(left), None, EXCHANGE_MARGIN
        for card in sorted(set(left)):
            rest = _without(left, [card])
            saved = base - _cost(rest)
            if saved - CARD_COST <= gain:
                continue  # a drawn card costs at least CARD_COST: not worth it anyway
            saved -= _expected_draw_cost(rest, unseen)
            if saved > gain:
                best, gain = card, saved
        if best is None:
            break
        chosen.append(best)
        left = _without(left, [best])
    return chosen


def _exchange_gain(hand, cards, unseen):
    rest = _without(hand, cards)
    return _cost(hand) - _cost(rest) - len(cards) * _expected_draw_cost(rest, unseen)


def _matching(legal, kind, field, cards):
    """The legal command of `kind` whose `field` holds exactly `cards`, or None."""
    wanted = sorted_cards(cards)  # legal lists an exchange's cards in hand order
    for command in legal:
        if command["type"] == kind and command.get(field) == wanted:
            return command
    return None


def _best_exchange(legal, kind, field, hand, unseen):
    """The exchange (or pass) command laying aside the cards worth it, and its gain."""
    limit = max(len(c.get(field) or []) for c in legal if c["type"] == kind)
    cards = _exchange_cards(hand, limit, unseen)
    while cards:
        command = _matching(legal, kind, field, cards)
        if command is not None:
            return command, _exchange_gain(hand, cards, unseen)
        cards = cards[:-1]
    return _matching(legal, kind, field, []), 0.0


def _opponents_sizes(state):
    seat = state["seat"]
    return [size for other, size in enumerate(state["hand_sizes"]) if other != seat]


def _ollin_worth(state, command, after):
    """What the play's Ollin effect is worth (the lay-aside card is already in `after`)."""
    if command.get("ollin") != "others_draw":
        return 0.0
    sizes = _opponents_sizes(state)[: state["draw_pile_size"]]
    return sum(
        DRAW_WORTH + (THREAT_DRAW * (THREAT + 1 - size) if size <= THREAT else 0) for size in sizes
    )


def _play_score(state, command, hand, base, leading):
    after = _without(hand, command["cards"])
    if command.get("lay_aside") is not None:
        after = _without(after, [command["lay_aside"]])
    if not after:
        return WIN
    score = base - _cost(after) + _ollin_worth(state, command, after)
    count = len(command["cards"])
    if leading:
        score += LEAD_SET * (count - 1)  # a set is hard to shed but by leading it
        threatened = [size for size in _opponents_sizes(state) if size <= THREAT]
        if threatened and count > max(threatened):
            score += THREAT_LEAD  # they cannot answer it, so cannot go out on it
    return score


def greedy(view, feed, rng):
    """The command this seat sends: the one that lowers its hand's cost most."""
    state, legal = view["state"], view["legal"]
    hand = state["hand"]
    unseen = _unseen_kinds(state, feed)
    if state["phase"] == "exchange":
        command, _ = _best_exchange(legal, "exchange", "cards", hand, unseen)
        return command
    leading = state["table"] is None
    base = _cost(hand)
    best, best_score, scored = None, None, {}
    for command in legal:
        if command["type"] != "play":
            continue
        key = (tuple(command["cards"]), command.get("ollin"), command.get("lay_aside"))
        if key in scored:
            continue
        scored[key] = score = _play_score(state, command, hand, base, leading)
        if best_score is None or score > best_score:
            best, best_score = command, score
    if leading:
        return best
    passing, gain = _best_exchange(legal, "pass", "exchange", hand, unseen)
    threatened = any(size <= THREAT for size in _opponents_sizes(state))
    pass_score = gain - PASS_COST - (THREAT_PASS if threatened else 0.0)
    if best is None or pass_score > best_score:
        return passing
    return best


def rank(view, feed, rng):
    """Every legal command, the most promising first, for the search to try in this
    order: greedy's choice, then the plays by the score greedy gives them (the best pass
    where its score falls), then the other passes and exchanges in a random order."""
    state, legal = view["state"], view["legal"]
    first = greedy(view, feed, rng)
    scored, rest = [], []
    if state["phase"] == "play":
        hand, leading = state["hand"], state["table"] is None
        base = _cost(hand)
        for command in legal:
            if command["type"] == "play":
                scored.append((_play_score(state, command, hand, base, leading), command))
            else:
                rest.append(command)
        if rest:
            unseen = _unseen_kinds(state, feed)
            passing, gain = _best_exchange(legal, "pass", "exchange", hand, unseen)
            threatened = any(size <= THREAT for size in _opponents_sizes(state))
            scored.append((gain - PASS_COST - (THREAT_PASS if threatened else 0.0), passing))
            rest = [c for c in rest if c is not passing]
    else:
        rest = list(legal)
    rng.shuffle(rest)
    keys = {id(c): (-score, rng.random()) for score, c in scored}
    ordered = sorted((c for _, c in scored), key=lambda c: keys[id(c)]) + rest
    return [first, *(c for c in ordered if c != first)]
